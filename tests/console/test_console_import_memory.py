"""The console's CSV upload holds a file of any allowed size in bounded memory: a served
`homebase serve` (its in-process worker on), on SQLite and PostgreSQL, takes a 32 MiB
upload and shows its mapping page three times, and its peak resident memory (VmHWM)
grows by less than 64 MB over its warmed-up value; the submit that starts the file's 33
imports stays within the same bound. The file is generated as it is sent: the test
holds no copy of it either. (Measured: about +1 MB, against +341 MB when the upload was
read whole.)"""

import asyncio
import re
import secrets
import uuid
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import httpx
import pytest

from tests.console_support import PASSWORD, csrf
from tests.served_support import Served, serve
from tests.support import POSTGRES_URL, create_database, drop_database_later, require_server

pytestmark = pytest.mark.xdist_group("import_memory")

MiB = 1 << 20
FILE_BYTES = 32 * MiB - 64 * 1024  # within HOMEBASE_IMPORT_MAX_BYTES (32 MiB), with the form
BOUND = 64 * 1000 * 1000  # bytes of peak resident memory the whole flow may add
VIEWS = 3
HEADER = b"First name,Last name,E-mail,Phone,Notes\r\n"
PIECE = 64 * 1024  # what the generator yields at a time


def _row(index: int) -> bytes:
    """About 200 bytes: a 32 MiB file is some 165,000 rows, within the 200,000 a file holds."""
    notes = f"Wants {index % 5 + 1} beds near the park " + "x" * 120
    return (
        f"Person{index},Family{index % 977},person{index}@example.com,"
        f"+1415555{index % 10000:04d},{notes}\r\n"
    ).encode()


def csv_pieces(size: int) -> Iterator[bytes]:
    """The file's bytes, `size` of them or a row fewer, PIECE at a time."""
    sent, index, pending = len(HEADER), 0, [HEADER]
    buffered = len(HEADER)
    while True:
        row = _row(index)
        if sent + len(row) > size:
            break
        pending.append(row)
        sent += len(row)
        buffered += len(row)
        index += 1
        if buffered >= PIECE:
            yield b"".join(pending)
            pending, buffered = [], 0
    if pending:
        yield b"".join(pending)


def multipart(token: str, size: int, boundary: str) -> Iterator[bytes]:
    """The upload form's body, streamed: the CSRF token, the object, then the file."""
    yield (
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="object"\r\n\r\ncontacts\r\n'
        f"--{boundary}\r\nContent-Disposition: form-data; "
        'name="file"; filename="crm.csv"\r\nContent-Type: text/csv\r\n\r\n'
    ).encode()
    yield from csv_pieces(size)
    yield f"\r\n--{boundary}--\r\n".encode()


def peak_rss(pid: int) -> int:
    """The process's peak resident set (VmHWM), in bytes."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmHWM:\s+(\d+) kB$", status, re.MULTILINE).group(1)) * 1024


def reset_peak(pid: int) -> int:
    """Sets the process's peak to its resident set now (Linux: `5` to clear_refs), so
    the peak that follows is the flow's own, not one the start-up (migrations) set
    higher; the peak after the reset."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")
    return peak_rss(pid)


def upload(client: httpx.Client, size: int) -> str:
    """Uploads a generated file of about `size` bytes; the mapping page's address."""
    token = csrf(client.get("/console/imports/new").text)
    boundary = secrets.token_hex(16)
    answer = client.post(
        "/console/imports/new",
        content=multipart(token, size, boundary),
        headers={"content-type": f"multipart/form-data; boundary={boundary}"},
    )
    assert answer.status_code == 303, re.findall(r'role="alert">(.*?)<', answer.text)
    return answer.headers["location"]


def view(client: httpx.Client, mapping_url: str) -> str:
    page = client.get(mapping_url)
    assert page.status_code == 200, page.text[-2000:]
    return page.text


def submit(client: httpx.Client, mapping_url: str, page: str) -> httpx.Response:
    action = re.search(r'action="(/console/imports/uploads/[^"]+)"', page).group(1)
    mapping = {"column_0": "first_name", "column_1": "last_name", "column_2": "email"}
    return client.post(
        unescape(action), data={"csrf_token": csrf(page), "object": "contacts", **mapping}
    )


def sign_in(served: Served, client: httpx.Client) -> None:
    workspace = served.admin("create-workspace", "--name", "Memory")["id"]
    served.admin(
        "create-user",
        "--workspace",
        workspace,
        "--email",
        "agent@example.com",
        "--name",
        "Agent",
        "--password",
        PASSWORD,
    )
    login = client.get("/console/login")
    answer = client.post(
        "/console/login",
        data={
            "csrf_token": csrf(login.text),
            "email": "agent@example.com",
            "password": PASSWORD,
            "next": "/console",
        },
    )
    assert answer.status_code == 303, answer.text[-2000:]


@pytest.fixture(params=["sqlite", "postgres"])
def database_settings(request) -> Iterator[dict[str, str]]:
    if request.param == "sqlite":
        yield {}
        return
    require_server("PostgreSQL", POSTGRES_URL, 5432)
    name = f"homebase_memory_{uuid.uuid4().hex[:10]}"
    url = asyncio.run(create_database(name))
    try:
        yield {"database_url": url}
    finally:
        drop_database_later(name)


def test_a_32_mib_upload_and_its_mapping_pages_stay_within_64_mb(tmp_path, database_settings):
    # A generous write timeout: a loaded machine is not what this test is about.
    settings = {"storage_dir": str(tmp_path / "storage"), "database_write_timeout_seconds": "30"}
    with serve(tmp_path, worker=True, **settings, **database_settings) as served:
        with httpx.Client(base_url=served.base_url, timeout=120) as client:
            sign_in(served, client)
            # Warmed up: every code path of the flow has run once, on a small file.
            small = upload(client, MiB)
            for _ in range(VIEWS):
                view(client, small)
            warmed = reset_peak(served.pid)

            mapping_url = upload(client, FILE_BYTES)
            for _ in range(VIEWS):
                page = view(client, mapping_url)
            grown = peak_rss(served.pid) - warmed
            assert grown < BOUND, f"peak RSS grew {grown / MiB:.0f} MiB"
            rows = int(re.search(r"(\d+) rows of contacts", page).group(1))
            assert 160_000 < rows < 200_000
            assert f"{-(-rows // 5000)} imports" in page
            # The first rows only, escaped as cells.
            assert "person0@example.com" in page and "person11@example.com" not in page

            started = submit(client, mapping_url, page)
            assert started.status_code == 303, started.text[-2000:]
            assert started.headers["location"] == f"/console/imports?started={-(-rows // 5000)}"
            grown = peak_rss(served.pid) - warmed
            assert grown < BOUND, f"peak RSS grew {grown / MiB:.0f} MiB with the submit"
