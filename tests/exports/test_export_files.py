"""Export files: the signed download link, the 7 days they are kept, a contact's erasure,
and a worker that dies or loses its lease mid-file (never a partial file served)."""

from datetime import timedelta

from sqlalchemy import select

from homebase.db.tenancy import TenantSession
from homebase.exports import jobs
from homebase.models import Export
from tests.exports.support import download, export, ndjson, path_of, run_exports
from tests.support import assert_error

exports = Export.__table__


def stored_files(runtime) -> list[str]:
    root = runtime.settings.storage_dir
    return sorted(str(path.relative_to(root)) for path in root.rglob("*") if path.is_file())


async def _row(runtime, tenant, export_id: str) -> dict:
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        found = await session.fetch_one(session.select(exports).where(exports.c.id == export_id))
    assert found is not None
    return found


async def test_the_link_serves_the_file_as_an_attachment(tenant, runtime, client, clock):
    await tenant.post("/v1/contacts", json={"first_name": "Dana"})
    exported = await export(tenant, runtime, object="contacts", format="csv")
    assert exported["download_url"].startswith(runtime.settings.public_url + "/exports/")
    response = await download(client, exported)
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    disposition = response.headers["content-disposition"]
    assert disposition == f'attachment; filename="contacts-{exported["id"]}.csv"'
    assert response.text.startswith("id,first_name,")
    head = await client.head(path_of(exported["download_url"]))
    assert head.status_code == 200
    ranged = await client.get(path_of(exported["download_url"]), headers={"Range": "bytes=0-1"})
    assert ranged.status_code == 206 and ranged.content == b"id"


async def test_each_read_gives_a_fresh_link_living_five_minutes(tenant, runtime, client, clock):
    exported = await export(tenant, runtime, object="deals")
    first = exported["download_url"]
    clock.advance(seconds=299)
    assert (await client.get(path_of(first))).status_code == 200
    again = (await tenant.get(f"/v1/exports/{exported['id']}")).json()
    assert again["download_url"] != first
    clock.advance(seconds=1)
    assert_error(await client.get(path_of(first)), 403, "export_link_expired")
    assert (await client.get(path_of(again["download_url"]))).status_code == 200
    listed = (await tenant.get("/v1/exports")).json()["data"][0]
    assert listed["download_url"] and (await client.get(path_of(listed["download_url"]))).is_success


async def test_an_altered_or_foreign_link_is_refused(tenant, other_tenant, runtime, client, clock):
    exported = await export(tenant, runtime, object="deals")
    path = path_of(exported["download_url"])
    token = path.rsplit("/", 1)[1]
    altered = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    assert_error(await client.get(f"/exports/{altered}"), 403, "export_link_invalid")
    assert_error(await client.get("/exports/" + "x" * 600), 403, "export_link_invalid")
    # A recording link's token never opens an export (each kind signs under its purpose).
    from homebase.calls import recordings

    recording = recordings.issue(runtime.settings.keys, "", tenant.id, exported["id"], clock())
    token = recording.url.rsplit("/", 1)[1]
    assert_error(await client.get(f"/exports/{token}"), 403, "export_link_invalid")
    # Another workspace's id: not found, through the API and through a link it could sign.
    assert_error(await other_tenant.get(f"/v1/exports/{exported['id']}"), 404, "not_found")
    from homebase.exports.links import LINKS

    foreign = LINKS.issue(runtime.settings.keys, "", other_tenant.id, exported["id"], clock())
    assert_error(await client.get(path_of(foreign.url)), 404, "not_found")


async def test_files_are_removed_after_seven_days(tenant, runtime, client, clock):
    exported = await export(tenant, runtime, object="deals")
    assert exported["expires_at"] is not None
    assert len(stored_files(runtime)) == 1
    clock.advance(days=7, seconds=-1)
    assert await jobs.expire(runtime) == 0
    fresh = (await tenant.get(f"/v1/exports/{exported['id']}")).json()
    assert fresh["status"] == "completed" and fresh["download_url"]
    clock.advance(seconds=1)
    # Past its expiry it reads as expired, and the link is refused, before the sweep.
    assert_error(await client.get(path_of(fresh["download_url"])), 404, "not_found")
    assert await jobs.expire(runtime) == 1
    assert stored_files(runtime) == []
    gone = (await tenant.get(f"/v1/exports/{exported['id']}")).json()
    assert gone["status"] == "expired" and gone["download_url"] is None
    assert (await _row(runtime, tenant, exported["id"]))["file_name"] is None
    assert await jobs.expire(runtime) == 0


async def test_erasing_a_contact_removes_every_file_that_could_hold_them(
    tenant, runtime, client, clock
):
    person = await tenant.post(
        "/v1/contacts", json={"first_name": "Dana", "email": "d@example.com"}
    )
    contact_id = person.json()["id"]
    contacts = await export(tenant, runtime, object="contacts")
    tasks = await export(tenant, runtime, object="tasks")
    deals = await export(tenant, runtime, object="deals")  # deals are kept by an erasure
    assert "d@example.com" in (await download(client, contacts)).text
    assert len(stored_files(runtime)) == 3

    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    # Refused from the erasure's commit on, before the worker removes the file.
    assert_error(await download(client, contacts), 404, "not_found")
    for erased in (contacts, tasks):
        body = (await tenant.get(f"/v1/exports/{erased['id']}")).json()
        assert body["status"] == "expired" and body["download_url"] is None
    assert (await download(client, deals)).status_code == 200
    assert await jobs.expire(runtime) == 2
    assert len(stored_files(runtime)) == 1 and deals["id"] in stored_files(runtime)[0]

    # A new export reads the erased data.
    again = await export(tenant, runtime, object="contacts")
    assert "d@example.com" not in (await download(client, again)).text


async def test_an_export_running_during_an_erasure_is_made_again(tenant, runtime, client, clock):
    person = await tenant.post(
        "/v1/contacts", json={"first_name": "Dana", "email": "d@example.com"}
    )
    created = await tenant.post("/v1/exports", json={"object": "contacts"})
    [claimed] = await jobs.claim(runtime, 5)
    assert (await tenant.delete(f"/v1/contacts/{person.json()['id']}")).status_code == 200
    await jobs.produce(runtime, claimed)  # its lease was taken back: it records nothing
    body = (await tenant.get(f"/v1/exports/{created.json()['id']}")).json()
    assert body["status"] == "queued" and body["download_url"] is None
    assert stored_files(runtime) == []
    assert (await _row(runtime, tenant, created.json()["id"]))["attempts"] == 0
    await run_exports(runtime)
    done = (await tenant.get(f"/v1/exports/{created.json()['id']}")).json()
    assert done["status"] == "completed" and done["rows"] == 1
    assert "d@example.com" not in (await download(client, done)).text


async def test_a_dead_workers_export_is_written_again_from_scratch(tenant, runtime, client, clock):
    await tenant.post("/v1/contacts", json={"first_name": "Dana"})
    created = (await tenant.post("/v1/exports", json={"object": "contacts"})).json()
    [claimed] = await jobs.claim(runtime, 5)
    # The worker died mid-file: a partial file under its token, and its lease still held.
    root = runtime.settings.storage_dir
    partial = root / f"exports/{tenant.id}/{created['id']}.{claimed.token}.ndjson.part"
    partial.parent.mkdir(parents=True)
    partial.write_bytes(b'{"id": "con_half')
    await run_exports(runtime)
    assert (await tenant.get(f"/v1/exports/{created['id']}")).json()["status"] == "running"
    clock.advance(seconds=jobs.LEASE_SECONDS)
    await run_exports(runtime)
    done = (await tenant.get(f"/v1/exports/{created['id']}")).json()
    assert done["status"] == "completed" and done["rows"] == 1
    assert [line["first_name"] for line in ndjson(await download(client, done))] == ["Dana"]
    files = stored_files(runtime)
    assert len(files) == 1 and not files[0].endswith(".part") and claimed.token not in files[0]
    # The dead worker's late finish is fenced off: it changes nothing.
    await jobs.produce(runtime, claimed)
    assert (await tenant.get(f"/v1/exports/{created['id']}")).json()["rows"] == 1
    assert stored_files(runtime) == files


async def test_an_export_that_keeps_failing_is_failed(tenant, runtime, clock, monkeypatch):
    created = (await tenant.post("/v1/exports", json={"object": "deals"})).json()

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(jobs.files, "Writer", broken)
    for _ in range(jobs.MAX_ATTEMPTS):
        await run_exports(runtime)
        assert (await tenant.get(f"/v1/exports/{created['id']}")).json()["status"] == "queued"
    await run_exports(runtime)
    failed = (await tenant.get(f"/v1/exports/{created['id']}")).json()
    assert failed["status"] == "failed" and failed["failure_reason"]
    assert failed["download_url"] is None and stored_files(runtime) == []


async def test_the_lease_is_renewed_while_a_long_export_runs(tenant, runtime, clock, monkeypatch):
    for index in range(5):
        await tenant.post("/v1/contacts", json={"first_name": f"P{index}"})
    created = (await tenant.post("/v1/exports", json={"object": "contacts"})).json()
    monkeypatch.setattr(jobs, "BATCH", 2)
    seen = []
    real = jobs.read

    async def slow(*args):
        clock.advance(seconds=jobs.RENEW_SECONDS)  # each batch takes a renewal's time
        row = await _row(runtime, tenant, created["id"])
        seen.append(row["lease_expires_at"])
        return await real(*args)

    monkeypatch.setattr(jobs, "read", slow)
    await run_exports(runtime)
    done = (await tenant.get(f"/v1/exports/{created['id']}")).json()
    assert done["status"] == "completed" and done["rows"] == 5
    assert len(set(seen)) == 3  # renewed after the first and the second batch
    assert all(
        (later - earlier) == timedelta(seconds=jobs.RENEW_SECONDS)
        for earlier, later in zip(seen, seen[1:], strict=False)
    )


async def test_a_claim_takes_only_due_exports(tenant, runtime, clock):
    await tenant.post("/v1/exports", json={"object": "deals"})
    assert len(await jobs.claim(runtime, 5)) == 1
    assert await jobs.claim(runtime, 5) == []  # held while its lease runs
    async with runtime.db.transaction(write=False) as connection:
        rows = (await connection.execute(select(exports.c.status))).all()
    assert [row[0] for row in rows] == ["running"]


async def test_tokens_with_non_ascii_characters_are_refused(client, tenant):
    for raw in ("%FF", "%C3%A9t%C3%A9", "abc%FFdef", "\u00e9" * 20):
        assert_error(await client.get(f"/exports/{raw}"), 403, "export_link_invalid")
