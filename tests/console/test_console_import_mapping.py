"""The console's import of a CRM's export, over HTTP on SQLite and PostgreSQL: columns
pre-selected with their reasons, value mapping, the dry run, warnings and refusals by
CSV line, the refused rows' CSV round trip, and a second import creating nothing."""

import csv
import io
import re
from html import unescape

import pytest

from tests.console.test_console_imports import stored_uploads, submit, upload
from tests.console_support import make_member, member_browser
from tests.imports_support import contacts_of, drive

# A Follow Up Boss export: headers as it writes them, a note over two lines, tags in a
# cell, a custom column whose header is the custom field's label.
FUB = (
    b"First Name,Last Name,Email 1,Phone 1,Stage,Assigned To,Tags,Background,Pre-Approved\r\n"
    b'Dana,Reyes,dana@example.com,+1 415 555 0142,Prospect,jo@example.com,"buyer, vip","two\r\n'
    b'lines",Yes\r\n'
    b"Sam,Lee,not-an-email,,Hot Prospect,,,,No\r\n"
    b"Lee,Chan,lee@example.com,,Closed,Jo Agent,,,Pending\r\n"
    b"Max,Moe,max@example.com,555-CALL-NOW,Prospect,,,,Maybe\r\n"
)


@pytest.fixture
def settings_overrides(tmp_path) -> dict:
    return {"storage_dir": tmp_path / "storage"}


@pytest.fixture
async def console(app, runtime, tenant):
    member = await make_member(runtime, tenant.id, "jo@example.com", name="Jo Agent")
    async with member_browser(app, runtime, member) as client:
        yield client


async def pre_approved(tenant) -> None:
    made = await tenant.post(
        "/v1/custom-fields",
        json={
            "object": "contacts",
            "key": "pre_approved",
            "label": "Pre-Approved",
            "type": "boolean",
        },
    )
    assert made.status_code == 201, made.text


def selected(html: str, name: str) -> str:
    block = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
    found = re.search(r'<option value="([^"]*)" selected>', block)
    return unescape(found.group(1)) if found else ""


def values_of(html: str, column: int) -> dict[str, tuple[str, str]]:
    """{value in the file: (rows, the selected choice)} of a column's value table."""
    table = re.search(rf'<table class="values" id="values-{column}">(.*?)</table>', html, re.S)
    found = {}
    for row in re.findall(
        r"<tr><td>(.*?)</td><td>(\d+)</td><td>(.*?)</td></tr>", table.group(1), re.S
    ):
        value, count, cell = row
        choice = re.search(r'<option value="([^"]*)" selected>', cell)
        found[unescape(value)] = (count, unescape(choice.group(1)) if choice else "")
    return found


async def test_a_crm_export_is_mapped_dry_run_imported_and_its_refused_rows_fixed(
    runtime, console, tenant
):
    await pre_approved(tenant)
    mapping_url = (await upload(console, FUB, name="fub-export.csv")).headers["location"]
    page = (await console.get(mapping_url)).text
    assert "fub-export.csv" in page
    expected = {
        "column_0": "first_name",
        "column_1": "last_name",
        "column_2": "email",
        "column_3": "phone",
        "column_4": "stage",
        "column_5": "owner_id",
        "column_6": "tags",
        "column_7": "notes",
        "column_8": "custom_fields.pre_approved",
    }
    assert {name: selected(page, name) for name in expected} == expected
    assert "matches &#39;Email 1&#39;" in page or "matches 'Email 1'" in unescape(page)
    assert "matches the custom field &#39;Pre-Approved&#39;" in page
    assert values_of(page, 4) == {
        "Prospect": ("2", '"LEAD"'),
        "Closed": ("1", '"PAST_CLIENT"'),
        "Hot Prospect": ("1", '"HOT_LEAD"'),
    }
    owner = values_of(page, 5)
    assert owner["jo@example.com"][1] == owner["Jo Agent"][1] != ""
    assert values_of(page, 8) == {
        "Maybe": ("1", "null"),
        "No": ("1", "false"),
        "Pending": ("1", "null"),
        "Yes": ("1", "true"),
    }

    # A dry run: the whole file counted by the worker, nothing written, the upload kept.
    dry = await submit(console, mapping_url, {"action": "dry_run", **expected})
    assert dry.status_code == 303, dry.text
    dry_url = dry.headers["location"]
    assert await drive(runtime) == 1
    report = (await console.get(dry_url)).text
    assert "A dry run" in report and mapping_url in unescape(report)
    counts = {
        name: re.search(rf'<td id="{name}-count">(\d+)</td>', report).group(1)
        for name in ("refused", "warnings", "unmatchable")
    }
    assert counts == {"refused": "1", "warnings": "1", "unmatchable": "0"}
    reasons = re.search(r'<table id="reasons">(.*?)</table>', report, re.S).group(1)
    assert "<code>email</code>" in reasons and "<td>1</td>" in reasons
    assert await contacts_of(runtime, tenant.id) == []

    # Closed becomes a sphere contact this time; then the import itself.
    page = (await console.get(mapping_url)).text
    number = re.search(r'name="value_4_(\d+)" aria-label="Stage: Closed"', page).group(1)
    started = await submit(
        console, mapping_url, {"action": "start", **expected, f"value_4_{number}": '"SPHERE"'}
    )
    assert started.status_code == 303, started.text
    await drive(runtime)
    stored = {row["first_name"]: row for row in await contacts_of(runtime, tenant.id)}
    assert {name: row["stage"] for name, row in stored.items()} == {
        "Dana": "LEAD",
        "Lee": "SPHERE",
        "Max": "LEAD",
    }
    owner_id = stored["Dana"]["owner_id"]
    assert owner_id and stored["Lee"]["owner_id"] == owner_id
    assert stored["Dana"]["notes"] == "two\r\nlines" and stored["Max"]["phone"] == "555-CALL-NOW"

    (made,) = [
        item for item in (await tenant.get("/v1/imports")).json()["data"] if not item["dry_run"]
    ]
    assert made["file_name"] == "fub-export.csv" and made["on_invalid_cell"] == "skip"
    items = (await tenant.get(f"/v1/imports/{made['id']}/errors")).json()["data"]
    # Lines: Dana's row starts on line 2 and takes two; Sam is line 4, Max line 6.
    assert [(item["line"], item["kind"]) for item in items] == [(4, "refused"), (6, "warning")]
    assert [error["field"] for error in items[1]["errors"]] == ["phone"]  # kept as sent
    detail = (await console.get(f"/console/imports/{made['id']}")).text
    link = re.search(r'<a href="([^"]+refused\.csv)" download>', detail).group(1)

    # The refused rows as CSV: the original columns and why; corrected and imported again.
    downloaded = await console.get(unescape(link))
    assert downloaded.status_code == 200, downloaded.text
    assert downloaded.headers["content-type"].startswith("text/csv")
    assert "fub-export-refused.csv" in downloaded.headers["content-disposition"]
    table = list(csv.reader(io.StringIO(downloaded.text)))
    assert table[0][-1] == "why" and table[0][:-1] == FUB.decode().split("\r\n")[0].split(",")
    assert len(table) == 2 and table[1][:2] == ["Sam", "Lee"] and "email" in table[1][-1]
    fixed = io.StringIO()
    writer = csv.writer(fixed)
    writer.writerow(table[0][:-1])
    writer.writerow([*table[1][:2], "sam@example.com", *table[1][3:-1]])
    again = (await upload(console, fixed.getvalue().encode())).headers["location"]
    assert (await submit(console, again, expected)).status_code == 303
    await drive(runtime)
    assert len(await contacts_of(runtime, tenant.id)) == 4

    # The whole export once more: every row carries an email, so nothing is created.
    once_more = (await upload(console, FUB)).headers["location"]
    assert (await submit(console, once_more, expected)).status_code == 303
    await drive(runtime)
    newest = (await tenant.get("/v1/imports")).json()["data"][0]
    assert newest["counts"]["created"] == 0 and newest["counts"]["unmatchable"] == 0
    assert len(await contacts_of(runtime, tenant.id)) == 4
    assert len(stored_uploads(runtime)) == 3  # each started upload stays while it lives


async def test_refuse_mode_and_a_mapping_without_email_or_phone(runtime, console, tenant):
    await pre_approved(tenant)
    mapping_url = (await upload(console, FUB)).headers["location"]
    names = {
        "column_0": "first_name",
        "column_4": "stage",
        "column_8": "custom_fields.pre_approved",
    }
    asked = await submit(console, mapping_url, {"action": "start", **names})
    assert asked.status_code == 400 and "importing the file again" in asked.text
    # "Maybe" kept as found (the page pre-fills no value): no boolean, so refused
    maybe = re.search(r'name="(value_8_\d+)" aria-label="Pre-Approved: Maybe"', asked.text)
    started = await submit(
        console,
        mapping_url,
        {
            "action": "start",
            "on_invalid_cell": "refuse",
            "confirm_unmatched": "yes",
            maybe.group(1): "",
            **names,
        },
    )
    assert started.status_code == 303, started.text
    await drive(runtime)
    (made,) = (await tenant.get("/v1/imports")).json()["data"]
    # refuse: Max's "Maybe" refuses his row; Lee's "Pending" maps to no value
    assert made["counts"]["failed"] == 1 and made["counts"]["unmatchable"] == 3
    refused = (
        await tenant.get(f"/v1/imports/{made['id']}/errors", params={"kind": "refused"})
    ).json()["data"]
    assert [item["line"] for item in refused] == [6]
