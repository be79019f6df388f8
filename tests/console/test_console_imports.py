"""The console's CSV import, imports, exports and custom fields pages over HTTP, on SQLite
and PostgreSQL: upload, mapping, the imports the submit starts and the worker runs, the
upload's own body limit, the uploaded file's life, tenancy."""

import csv
import io
import re
from datetime import UTC, datetime
from html import unescape

import pytest

from homebase.console.imports import FORM_ROOM
from homebase.exports import jobs as export_jobs
from homebase.imports import row_files, uploads
from homebase.kit.clock import FrozenClock
from tests.body_limit_support import CHUNK, call_asgi
from tests.console_support import csrf, make_member, member_browser, post_form
from tests.exports.support import run_exports
from tests.http.test_page_escaping import EVIL, assert_escaped
from tests.imports_support import contacts_of, drive, start
from tests.support import without_remedy

NEW = "/console/imports/new"
IMPORTS = "/console/imports"
EXPORTS = "/console/exports"
FIELDS = "/console/custom-fields"

# What an old CRM exports: a byte order mark, `;` between cells, a note over two lines, tags
# in one cell, a hostile name, a bad email, and a column of a custom field.
CSV = (
    "\ufeffFirst name;Last name;E-mail;Phone;Tags;Notes;Budget\r\n"
    'Dana;Reyes;dana@example.com;+1 415 555 0142;buyer, vip;"Line one\r\nline two";500000\r\n'
    "<script>alert(1)</script>;X;not-an-email;;;;\r\n"
    "Sam;Lee;sam@example.com;;seller|pre-approved;;\r\n"
).encode()
MAPPING = {
    "column_0": "first_name",
    "column_1": "last_name",
    "column_2": "email",
    "column_3": "phone",
    "column_4": "tags",
    "column_5": "notes",
    "column_6": "custom_fields.budget",
}


@pytest.fixture
def settings_overrides(tmp_path) -> dict:
    return {"storage_dir": tmp_path / "storage"}


@pytest.fixture
def clock(runtime) -> FrozenClock:
    clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    runtime.clock = clock
    return clock


@pytest.fixture
async def member(runtime, tenant):
    return await make_member(runtime, tenant.id)


@pytest.fixture
async def console(app, runtime, member):
    async with member_browser(app, runtime, member) as client:
        yield client


def stored_uploads(runtime) -> list[str]:
    """The uploads whose files (the CSV, its row count) are stored, by upload id."""
    base = runtime.settings.storage_dir / uploads.FOLDER
    return sorted({path.name.split(".")[0] for path in base.rglob("*") if path.is_file()})


def stored_rows_files(runtime) -> list[str]:
    base = runtime.settings.storage_dir / row_files.FOLDER
    return sorted(path.name for path in base.rglob("*") if path.is_file())


async def upload(console, data: bytes, kind: str = "contacts", name: str = "crm.csv"):
    page = await console.get(NEW)
    assert page.status_code == 200, page.text
    return await console.post(
        NEW,
        data={"csrf_token": csrf(page.text), "object": kind},
        files={"file": (name, data, "text/csv")},
    )


async def submit(console, mapping_url: str, mapping: dict, kind: str = "contacts"):
    page = await console.get(mapping_url)
    assert page.status_code == 200, page.text
    action = re.search(r'action="(/console/imports/uploads/[^"]+)"', page.text).group(1)
    return await console.post(
        unescape(action), data={"csrf_token": csrf(page.text), "object": kind, **mapping}
    )


async def add_budget_field(tenant):
    made = await tenant.post(
        "/v1/custom-fields",
        json={"object": "contacts", "key": "budget", "label": "Budget", "type": "number"},
    )
    assert made.status_code == 201, made.text


async def test_upload_map_import_and_see_the_counts_and_refused_rows(runtime, tenant, console):
    await add_budget_field(tenant)
    uploaded = await upload(console, CSV)
    assert uploaded.status_code == 303, uploaded.text
    mapping_url = uploaded.headers["location"]
    assert mapping_url.startswith("/console/imports/uploads/")
    assert len(stored_uploads(runtime)) == 1

    page = await console.get(mapping_url)
    assert page.status_code == 200
    html = page.text
    # The preview, escaped: the hostile cell is text, never markup.
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    assert "3 rows of contacts" in html and "<code>;</code>" in html
    assert "Line one\r\nline two" in html or "Line one\nline two" in html
    # Preselected from the suggested mapping; the custom field is offered.
    assert re.search(
        r'name="column_0"[^>]*>\s*(<option[^>]*>[^<]*</option>\s*)*?'
        r'<option value="first_name" selected>',
        html,
    )
    assert '<option value="email" selected>' in html
    assert '<option value="custom_fields.budget">Budget (custom_fields.budget)</option>' in html

    started = await submit(console, mapping_url, MAPPING)
    assert started.status_code == 303, started.text
    assert started.headers["location"] == "/console/imports?started=1"
    # kept (taken: no second start) for the refused rows' CSV while it lives
    assert len(stored_uploads(runtime)) == 1
    assert (await console.get(mapping_url)).status_code == 404

    listing = await console.get(started.headers["location"])
    assert "Started 1 import." in listing.text and "queued" in listing.text
    assert 'http-equiv="refresh"' in listing.text  # follows the import while it runs
    import_id = re.search(r'<tr id="(imp_[0-9a-z]+)">', listing.text).group(1)

    assert await drive(runtime) == 1
    listing = await console.get(IMPORTS)
    row = re.search(rf'<tr id="{import_id}">(.*?)</tr>', listing.text).group(1)
    cells = re.findall(r"<td>(.*?)</td>", row)
    assert cells[1:3] == ["contacts", "completed"] and "100%" in cells[3]
    assert cells[4:9] == ["3", "2", "0", "0", "1"]  # rows, created, updated, unchanged, failed
    assert 'http-equiv="refresh"' not in listing.text

    detail = await console.get(f"{IMPORTS}/{import_id}")
    assert detail.status_code == 200
    refused = re.search(r'<tr id="row-1">(.*?)</tr>', detail.text).group(1)
    assert "<code>email</code>" in refused and "valid email" in refused

    contacts = {row["first_name"]: row for row in await contacts_of(runtime, tenant.id)}
    assert set(contacts) == {"Dana", "Sam"}
    dana = contacts["Dana"]
    assert dana["notes"] == "Line one\r\nline two" and dana["tags"] == ["buyer", "vip"]
    assert dana["phone_e164"] == "+14155550142" and list(dana["custom_fields"].values()) == [500000]
    assert contacts["Sam"]["tags"] == ["seller", "pre-approved"]


async def test_a_second_submit_of_the_same_page_imports_nothing_more(runtime, console):
    mapping_url = (await upload(console, CSV)).headers["location"]
    page = await console.get(mapping_url)
    action = re.search(r'action="(/console/imports/uploads/[^"]+)"', page.text).group(1)
    form = {"csrf_token": csrf(page.text), "object": "contacts", "column_0": "first_name"}
    unconfirmed = await console.post(action, data=form)  # no email nor phone: asks first
    assert unconfirmed.status_code == 400 and "importing the file again" in unconfirmed.text
    form["confirm_unmatched"] = "yes"
    assert (await console.post(action, data=form)).status_code == 303
    again = await console.post(action, data=form)
    assert again.status_code == 404 and "Upload the file again" in again.text
    assert len(re.findall(r'<tr id="imp_', (await console.get(IMPORTS)).text)) == 1


async def test_a_large_file_is_split_into_imports_of_5000_rows(runtime, console, tenant):
    data = ("name\n" + "".join(f"person {n}\n" for n in range(5001))).encode()
    mapping_url = (await upload(console, data, kind="leads")).headers["location"]
    page = await console.get(mapping_url)
    assert "5001 rows of leads" in page.text and "2 imports" in page.text
    assert "custom_fields." not in page.text  # leads offer their own fields only
    started = await submit(console, mapping_url, {"column_0": "first_name"}, kind="leads")
    assert started.headers["location"] == "/console/imports?started=2"
    listed = (await tenant.get("/v1/imports")).json()["data"]
    assert [(item["object"], item["counts"]["rows"]) for item in listed] == [
        ("leads", 1),
        ("leads", 5000),
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"a,b\n1,2,3\n", "line 2: 3 cells but the header has 2 columns"),
        (b"\xff\xfeE\x00", "not UTF-8"),
        (b"only,a,header\n", "a header row but no rows"),
        (b'a,b\n"open,2\n', "malformed CSV"),
    ],
)
async def test_a_file_csv_rows_cannot_read_is_shown_clearly(runtime, console, data, message):
    refused = await upload(console, data)
    assert refused.status_code == 400
    assert message in unescape(refused.text)
    assert stored_uploads(runtime) == []


async def test_a_bad_mapping_is_shown_on_the_page_and_nothing_starts(runtime, console, tenant):
    mapping_url = (await upload(console, CSV)).headers["location"]
    for mapping, message in (
        ({"column_0": "email", "column_2": "email"}, "two columns are mapped to 'email'"),
        ({"column_0": "custom_fields.nope"}, "which is not a field"),
        ({}, "map at least one column"),
    ):
        refused = await submit(console, mapping_url, mapping)
        assert refused.status_code == 400 and message in unescape(refused.text), refused.text
    assert (await tenant.get("/v1/imports")).json()["data"] == []
    assert len(stored_uploads(runtime)) == 1  # still there to try again


async def test_an_abandoned_upload_is_deleted_after_24_hours(runtime, console, clock):
    mapping_url = (await upload(console, CSV)).headers["location"]
    assert (await console.get(mapping_url)).status_code == 200
    clock.advance(hours=23, minutes=59)
    assert await export_jobs.expire(runtime) == 0
    assert len(stored_uploads(runtime)) == 1
    clock.advance(minutes=1)
    assert await export_jobs.expire(runtime) == 2  # the file and its row count
    assert stored_uploads(runtime) == []


async def test_another_members_upload_and_another_workspaces_import_are_404(
    app, runtime, console, tenant, other_tenant
):
    mapping_url = (await upload(console, CSV)).headers["location"]
    theirs = await start(other_tenant, {"object": "contacts", "rows": [{"first_name": "X"}]})
    colleague = await make_member(runtime, tenant.id, "colleague@example.com")
    stranger = await make_member(runtime, other_tenant.id, "other@example.com")
    for user in (colleague, stranger):
        async with member_browser(app, runtime, user) as other:
            assert (await other.get(mapping_url)).status_code == 404
    assert (await console.get(f"{IMPORTS}/{theirs['id']}")).status_code == 404
    assert theirs["id"] not in (await console.get(IMPORTS)).text
    assert (await console.get("/console/imports/uploads/../../x")).status_code == 404


async def test_the_upload_needs_csrf(runtime, console):
    refused = await console.post(
        NEW, data={"csrf_token": "forged"}, files={"file": ("a.csv", CSV, "text/csv")}
    )
    assert refused.status_code == 403
    assert stored_uploads(runtime) == []


@pytest.mark.parametrize(
    "settings_overrides",
    [{"max_body_bytes": 4096, "import_max_bytes": 65536}],
)
async def test_the_upload_has_its_own_limit_and_every_other_route_keeps_the_body_limit(
    runtime, console, tenant, tmp_path, settings_overrides
):
    runtime.settings.storage_dir = tmp_path / "storage"
    row = "Dana,dana@example.com\n"
    data = ("name,email\n" + row * (40_000 // len(row))).encode()  # 10x HOMEBASE_MAX_BODY_BYTES
    assert (await upload(console, data)).status_code == 303
    # Just over the file's limit (the body is within the route's room): the handler's page.
    over = ("name,email\n" + row * (65_600 // len(row))).encode()
    refused = await upload(console, over)
    assert refused.status_code == 413 and refused.headers["content-type"].startswith("text/html")
    assert "larger than 65536 bytes" in refused.text
    # Far over: the body limit answers before the app reads it, with the same page.
    refused = await upload(console, over * 4)
    assert refused.status_code == 413 and "File too large" in refused.text
    assert refused.headers["content-type"].startswith("text/html")
    # Every other route, /v1 and the console's other forms, keeps HOMEBASE_MAX_BODY_BYTES.
    big = await tenant.post("/v1/contacts", json={"first_name": "x", "notes": "n" * 5000})
    assert big.status_code == 413 and without_remedy(big.json()["error"])["details"] == {
        "max_body_bytes": 4096
    }
    page = await console.get("/console/api-keys")
    form = await console.post(
        "/console/api-keys", data={"csrf_token": csrf(page.text), "name": "n" * 5000}
    )
    assert form.status_code == 413
    assert len(stored_uploads(runtime)) == 1


async def test_the_exports_page_starts_an_export_and_links_its_file(
    runtime, console, tenant, other_tenant
):
    await tenant.post("/v1/contacts", json={"first_name": "Dana", "email": "dana@example.com"})
    theirs = await other_tenant.post("/v1/exports", json={"object": "contacts"})
    started = await post_form(console, EXPORTS, EXPORTS, {"object": "contacts", "format": "csv"})
    assert started.status_code == 303
    page = await console.get(started.headers["location"])
    assert "The export was started" in page.text and "queued" in page.text
    await run_exports(runtime)
    page = await console.get(EXPORTS)
    assert theirs.json()["id"] not in page.text
    link = re.search(r'<a href="([^"]+)" download>Download</a>', page.text)
    assert link, page.text
    url = unescape(link.group(1))
    assert url.startswith(runtime.settings.public_url + "/exports/")
    downloaded = await console.get(url.removeprefix(runtime.settings.public_url))
    assert downloaded.status_code == 200 and "dana@example.com" in downloaded.text
    export_id = re.search(r'<tr id="(exp_[0-9a-z]+)">', page.text).group(1)
    detail = await console.get(f"{EXPORTS}/{export_id}")
    assert detail.status_code == 200 and "completed" in detail.text
    assert re.search(r'<a href="[^"]+/exports/[^"]+" download>', detail.text)
    assert (await console.get(f"{EXPORTS}/{theirs.json()['id']}")).status_code == 404
    assert (await console.get(f"{EXPORTS}/exp_unknown")).status_code == 404
    bad = await post_form(console, EXPORTS, EXPORTS, {"object": "planets", "format": "csv"})
    assert bad.status_code == 400 and "object:" in bad.text


async def test_custom_fields_create_and_delete_from_the_console(console, tenant):
    created = await post_form(
        console,
        FIELDS,
        FIELDS,
        {
            "object": "contacts",
            "key": "financing",
            "label": "Financing <cash?>",
            "type": "single_select",
            "choices": "cash\nfha\n",
        },
    )
    assert created.status_code == 303
    page = await console.get(created.headers["location"])
    assert "The field was created." in page.text
    assert "Financing &lt;cash?&gt;" in page.text and "cash, fha" in page.text
    listed = (await tenant.get("/v1/custom-fields")).json()["data"]
    assert [(item["key"], item["choices"]) for item in listed] == [("financing", ["cash", "fha"])]
    for values, message in (
        ({"key": "financing", "label": "Again", "type": "text"}, "financing"),
        ({"key": "Bad Key", "label": "x", "type": "text"}, "key:"),
        ({"key": "pick", "label": "x", "type": "single_select"}, "choices"),
    ):
        refused = await post_form(
            console, FIELDS, FIELDS, {"object": "contacts", "choices": "", **values}
        )
        assert refused.status_code in (400, 409) and message in refused.text, refused.text
    field_id = listed[0]["id"]
    page = await console.get(FIELDS)
    deleted = await console.post(
        f"{FIELDS}/{field_id}/delete", data={"csrf_token": csrf(page.text)}
    )
    assert deleted.status_code == 303
    assert (await tenant.get("/v1/custom-fields")).json()["data"] == []
    missing = await console.post(
        f"{FIELDS}/{field_id}/delete", data={"csrf_token": csrf(page.text)}
    )
    assert missing.status_code == 404


async def test_another_workspaces_custom_field_cannot_be_deleted(console, other_tenant):
    made = await other_tenant.post(
        "/v1/custom-fields",
        json={"object": "deals", "key": "k", "label": "Theirs", "type": "text"},
    )
    page = await console.get(FIELDS)
    assert "Theirs" not in page.text
    refused = await console.post(
        f"{FIELDS}/{made.json()['id']}/delete", data={"csrf_token": csrf(page.text)}
    )
    assert refused.status_code == 404
    assert len((await other_tenant.get("/v1/custom-fields")).json()["data"]) == 1


async def test_the_navigation_links_the_new_pages(console):
    html = (await console.get("/console")).text
    for path in (IMPORTS, EXPORTS, FIELDS):
        assert f'<a href="{path}">' in html


async def test_the_body_limit_answers_the_upload_route_with_the_page_before_reading(
    app, runtime, console
):
    room = runtime.settings.import_max_bytes + FORM_ROOM
    declared = await call_asgi(app, "POST", NEW, {"content-length": str(room + 1)}, [b"x" * 100])
    assert declared.status == 413 and declared.consumed == 0
    assert declared.headers["content-type"].startswith("text/html")
    assert b"File too large" in declared.body and b"32 MiB" in declared.body
    cookie = "; ".join(f"{name}={value}" for name, value in console.cookies.items())
    form = {"cookie": cookie, "content-type": "multipart/form-data; boundary=b"}
    head = (
        b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n'
        b"Content-Type: text/csv\r\n\r\n"
    )
    chunks = [head] + [b"x" * CHUNK] * (room // CHUNK + 4)
    streamed = await call_asgi(app, "POST", NEW, form, chunks)
    assert streamed.status == 413 and b"File too large" in streamed.body
    assert room < streamed.consumed <= room + CHUNK
    # The same length on any other path is the JSON 413 of HOMEBASE_MAX_BODY_BYTES.
    other = await call_asgi(app, "POST", "/console/api-keys", {"content-length": str(room)})
    assert other.status == 413 and other.json()["error"]["code"] == "payload_too_large"


async def test_an_imports_refused_rows_are_paged(runtime, console, tenant):
    made = await start(tenant, {"object": "contacts", "rows": [{"email": "x"}] * 55})
    await drive(runtime)
    first = await console.get(f"{IMPORTS}/{made['id']}")
    assert re.findall(r'<tr id="row-(\d+)">', first.text) == [str(n) for n in range(50)]
    older = unescape(re.search(r'<a href="([^"]+)">Older</a>', first.text).group(1))
    second = await console.get(older)
    assert re.findall(r'<tr id="row-(\d+)">', second.text) == [str(n) for n in range(50, 55)]
    assert "Older" not in second.text


async def test_hostile_columns_cells_and_labels_come_out_escaped(runtime, console, tenant):
    buffer = io.StringIO()
    csv.writer(buffer).writerows([["name", EVIL], [EVIL, "x"]])
    mapping_url = (await upload(console, buffer.getvalue().encode())).headers["location"]
    # The column (its row and the preview's header, the select's label) and the cell.
    assert_escaped(await console.get(mapping_url), times=4)
    refused = await submit(console, mapping_url, {"column_1": "custom_fields.x"})
    assert_escaped(refused, 400, times=4)
    made = await post_form(
        console,
        FIELDS,
        FIELDS,
        {"object": "contacts", "key": "evil", "label": EVIL[:80], "type": "text", "choices": ""},
    )
    assert made.status_code == 303, made.text
    page = (await console.get(mapping_url)).text
    assert "<script" not in page and "&lt;script&gt;" in page
    assert_escaped(
        await post_form(console, FIELDS, FIELDS, {"object": "contacts", "key": EVIL}), 400
    )
