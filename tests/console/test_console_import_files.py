"""The imports the console's CSV upload starts keep their rows in files (imports/row_files.py),
on SQLite and PostgreSQL: the submit writes only the mapped members, the worker reads a
batch at a time and forgets each batch once committed, a resumed import forgets what an
earlier claim wrote, the file goes when the import finishes (or fails), and the sweep
removes the files no unfinished import owns. The memory bound over a served process is
tests/console/test_console_import_memory.py."""

from datetime import UTC, datetime
from html import unescape
from pathlib import Path

import orjson
import pytest

from homebase.exports import jobs as export_jobs
from homebase.imports import jobs, row_files
from homebase.kit.clock import FrozenClock
from tests.console.test_console_imports import stored_rows_files, stored_uploads, submit, upload
from tests.console_support import make_member, member_browser
from tests.imports_support import contacts_of, drive, job, stored_import

COUNT = 600  # three contacts batches
MAPPING = {"column_0": "first_name", "column_1": "email"}


def people_csv(count: int = COUNT) -> bytes:
    """first name, email and a notes column the mapping leaves out."""
    rows = "".join(
        f"Person{index},person{index}@example.com,private note {index}\n" for index in range(count)
    )
    return ("First name,Email,Notes\n" + rows).encode()


@pytest.fixture
def settings_overrides(tmp_path) -> dict:
    return {"storage_dir": tmp_path / "storage"}


@pytest.fixture
def clock(runtime) -> FrozenClock:
    clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    runtime.clock = clock
    return clock


@pytest.fixture
async def console(app, runtime, tenant, clock):
    async with member_browser(app, runtime, await make_member(runtime, tenant.id)) as client:
        yield client


async def started(runtime, console, tenant) -> tuple[str, list[bytes]]:
    """Uploads and submits the file; the import's id and its rows file's lines."""
    mapping_url = (await upload(console, people_csv())).headers["location"]
    answer = await submit(console, mapping_url, MAPPING)
    assert answer.status_code == 303, answer.text
    (made,) = (await tenant.get("/v1/imports")).json()["data"]
    return made["id"], lines_of(runtime, made["id"])


def files_of(runtime, import_id: str) -> list[Path]:
    return list(runtime.settings.storage_dir.rglob(f"*-{import_id}.ndjson"))


def lines_of(runtime, import_id: str) -> list[bytes]:
    (path,) = files_of(runtime, import_id)
    return path.read_bytes().splitlines()


async def test_the_submit_writes_the_mapped_members_only_and_the_worker_reads_them(
    runtime, console, tenant
):
    import_id, lines = await started(runtime, console, tenant)
    # the upload stays, taken, for the refused rows' CSV while it lives
    assert len(stored_uploads(runtime)) == 1
    assert len(lines) == COUNT
    # each row with the line it starts on (the header is line 1)
    assert orjson.loads(lines[7]) == [9, {"first_name": "Person7", "email": "person7@example.com"}]
    assert not any(b"private note" in line for line in lines)  # an ignored column stays out
    stored = await stored_import(runtime, import_id)
    assert stored["payload"] is None and stored["row_count"] == COUNT
    assert stored["options"]["rows_file"].startswith(f"{row_files.FOLDER}/{tenant.id}/")

    (claimed,) = await jobs.claim(runtime, 1)
    running = await jobs.load(runtime, claimed)
    await jobs.step(runtime, running)
    await running.settle()  # the overwrite started at the commit, on a thread
    batch = jobs.BATCH["contacts"]
    lines = lines_of(runtime, import_id)
    # The committed batch's rows left the file; their lines keep their length.
    assert len(lines) == COUNT and all(not line.strip() for line in lines[:batch])
    assert orjson.loads(lines[batch])[1]["first_name"] == f"Person{batch}"
    await running.close()  # its read of the next batch, the new claim's own below
    await jobs.process(runtime, claimed)
    done = await job(tenant, import_id)
    assert done["status"] == "completed" and done["counts"]["created"] == COUNT
    assert files_of(runtime, import_id) == []  # deleted with the import's last batch
    emails = sorted(row["email"] for row in await contacts_of(runtime, tenant.id))
    assert emails == sorted(f"person{index}@example.com" for index in range(COUNT))


async def test_a_resumed_import_forgets_what_an_earlier_claim_wrote(
    runtime, console, tenant, clock
):
    import_id, original = await started(runtime, console, tenant)
    (claimed,) = await jobs.claim(runtime, 1)
    running = await jobs.load(runtime, claimed)
    await jobs.step(runtime, running)
    await running.close()
    # The worker "dies" after the commit and before forgetting the batch.
    (path,) = files_of(runtime, import_id)
    path.write_bytes(b"\n".join(original) + b"\n")
    clock.advance(seconds=jobs.LEASE_SECONDS + 1)
    (again,) = await jobs.claim(runtime, 1)
    resumed = await jobs.load(runtime, again)
    batch = jobs.BATCH["contacts"]
    assert resumed.position == batch
    lines = lines_of(runtime, import_id)
    assert all(not line.strip() for line in lines[:batch]) and lines[batch:] == original[batch:]
    await jobs.process(runtime, again)
    done = await job(tenant, import_id)
    assert done["status"] == "completed" and done["counts"]["created"] == COUNT
    assert len(await contacts_of(runtime, tenant.id)) == COUNT  # no row written twice
    assert files_of(runtime, import_id) == []


async def test_an_import_whose_rows_file_is_gone_fails_at_once(runtime, console, tenant):
    import_id, _ = await started(runtime, console, tenant)
    (path,) = files_of(runtime, import_id)
    path.unlink()
    await drive(runtime)
    failed = await job(tenant, import_id)
    assert failed["status"] == "failed" and failed["finished_at"] is not None
    assert (await stored_import(runtime, import_id))["error"] == jobs.NO_ROWS_FILE
    assert await contacts_of(runtime, tenant.id) == []


async def test_a_rows_file_cut_short_fails_the_import_after_its_whole_batches(
    runtime, console, tenant
):
    """The second batch is read while the first is written; the file's missing rows
    surface when the import comes to them, and what was committed stays."""
    import_id, original = await started(runtime, console, tenant)
    (path,) = files_of(runtime, import_id)
    path.write_bytes(b"\n".join(original[: COUNT - 50]) + b"\n")
    await drive(runtime)
    failed = await job(tenant, import_id)
    assert failed["status"] == "failed"
    assert (await stored_import(runtime, import_id))["error"] == jobs.DAMAGED_ROWS_FILE
    assert failed["counts"]["created"] == jobs.BATCH["contacts"]
    assert len(await contacts_of(runtime, tenant.id)) == jobs.BATCH["contacts"]
    assert files_of(runtime, import_id) == []


async def test_a_failed_import_keeps_no_rows_file(runtime, console, tenant, clock):
    import_id, _ = await started(runtime, console, tenant)
    for _ in range(jobs.MAX_ATTEMPTS):
        assert len(await jobs.claim(runtime, 1)) == 1  # and dies each time
        clock.advance(seconds=jobs.LEASE_SECONDS + 1)
    assert await jobs.claim(runtime, 1) == []
    assert (await job(tenant, import_id))["status"] == "failed"
    assert files_of(runtime, import_id) == []


async def test_the_sweep_removes_the_rows_files_no_unfinished_import_owns(
    runtime, console, tenant, clock
):
    import_id, _ = await started(runtime, console, tenant)
    # A submit that died between writing its file and committing its import.
    root = runtime.settings.storage_dir
    (orphan,) = row_files.split(root, tenant.id, clock(), [{"first_name": "Lost"}])
    assert len(stored_rows_files(runtime)) == 2
    clock.advance(minutes=59)
    await export_jobs.expire(runtime)
    assert len(stored_rows_files(runtime)) == 2  # younger than an hour: perhaps committing
    clock.advance(minutes=1)
    assert await export_jobs.expire(runtime) == 1
    # The queued import's file stays, however long it waits.
    assert [path.name for path in files_of(runtime, import_id)] == stored_rows_files(runtime)
    assert files_of(runtime, orphan.import_id) == []
    await drive(runtime)
    assert stored_rows_files(runtime) == []


async def test_a_submit_that_fails_gives_the_upload_back_and_leaves_no_rows_file(
    runtime, console, tenant
):
    # Rows that read, then one that does not: the submit reads the file again, whole.
    mapping_url = (await upload(console, people_csv())).headers["location"]
    (stored,) = (runtime.settings.storage_dir / "imports/uploads").rglob("*.csv")
    stored.write_bytes(people_csv() + b"Broken,\xff@example.com,x\n")
    refused = await submit(console, mapping_url, MAPPING)
    assert refused.status_code == 400
    assert f"line {COUNT + 2}: the file is not UTF-8 text" in unescape(refused.text)
    assert stored_rows_files(runtime) == [] and len(stored_uploads(runtime)) == 1
    assert (await tenant.get("/v1/imports")).json()["data"] == []
    stored.write_bytes(people_csv())
    assert (await submit(console, mapping_url, MAPPING)).status_code == 303


async def test_rows_files_are_each_workspaces_own(app, runtime, console, tenant, other_tenant):
    import_id, _ = await started(runtime, console, tenant)
    theirs = await make_member(runtime, other_tenant.id, "other@example.com")
    async with member_browser(app, runtime, theirs) as other:
        assert import_id not in (await other.get("/console/imports")).text
        assert (await other.get(f"/console/imports/{import_id}")).status_code == 404
    (path,) = files_of(runtime, import_id)
    # Under the workspace's folder, named for the submit's time on the service's clock.
    assert path.parent.name == tenant.id
    assert path.name == f"{int(runtime.clock().timestamp())}-{import_id}.ndjson"
