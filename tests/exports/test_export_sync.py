"""An export's `filters.updated_after` is applied as its list applies it: the file is the
list's walk of changes, oldest change first by (updated_at, id), strictly after the time,
settled changes only, with the list's other filters, exactly the list walked page by page
(it once held every record, the filter only echoed back). The six synced lists, both
databases, batches small enough that ties straddle them."""

from datetime import datetime

import pytest

from homebase.exports import jobs
from homebase.kit.clock import isoformat
from tests.exports.support import csv_rows, download, export, listed, ndjson
from tests.sync.sync_support import ids, in_change_order, walk
from tests.sync.test_updated_after import RESOURCES, SETTLE, _setup


@pytest.fixture
def settings_overrides(tmp_path) -> dict:
    return {"storage_dir": tmp_path / "storage", "sync_settle_seconds": SETTLE}


@pytest.mark.parametrize("name", RESOURCES)
async def test_the_file_is_the_list_walked_page_by_page(
    name, runtime, clock, tenant, client, monkeypatch
):
    monkeypatch.setattr(jobs, "BATCH", 2)
    resource = RESOURCES[name]
    setup = await _setup(runtime, tenant)
    clock.advance(seconds=1)
    start = isoformat(clock.now)  # the two people were stamped before it
    clock.advance(seconds=1)
    made = [await resource.create(setup, index) for index in range(3)]  # one stamp: ties
    clock.advance(seconds=1)
    made += [await resource.create(setup, index) for index in range(3, 6)]
    clock.advance(seconds=1)
    await resource.change(setup, made[0])  # moves to the end of the walk
    clock.advance(seconds=SETTLE)
    await resource.create(setup, 7)  # not settled yet: in neither (the second person's)
    expected = await walk(tenant, resource.path, start)  # two a page
    assert len(expected) == 6
    assert ids(expected) == in_change_order(expected)
    latest = expected[-1]["updated_at"]
    assert made[0]["id"] in [record["id"] for record in expected if record["updated_at"] == latest]

    exported = await export(tenant, runtime, object=name, filters={"updated_after": start})
    assert list(exported["filters"]) == ["updated_after"]
    echoed = exported["filters"]["updated_after"]
    assert datetime.fromisoformat(echoed) == datetime.fromisoformat(start)
    assert exported["rows"] == 6
    assert ndjson(await download(client, exported)) == expected
    # Not the plain list (newest first, every record, the unsettled one too).
    assert ids(expected) != ids(await listed(tenant, resource.path))

    # With the list's other filters, the walk they narrow; as CSV, the same rows.
    narrowed = resource.filter(setup)
    kept = await walk(tenant, resource.path, start, **narrowed)
    both = await export(
        tenant, runtime, object=name, format="csv", filters={"updated_after": start, **narrowed}
    )
    header, *rows = csv_rows(await download(client, both))
    assert [row[header.index("id")] for row in rows] == ids(kept) and kept

    # Strictly after a stamp some records carry: those are left out, as the list does.
    for since in (expected[0]["updated_at"], latest):
        from_there = await walk(tenant, resource.path, since)
        assert all(record["updated_at"] > since for record in from_there)
        again = await export(tenant, runtime, object=name, filters={"updated_after": since})
        assert ndjson(await download(client, again)) == from_there
    assert from_there == []  # nothing after the latest change
