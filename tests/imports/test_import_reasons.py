"""An import's refused rows counted by reason (GET /v1/imports/{id} `refused_by_reason`),
on SQLite and PostgreSQL."""

from collections import Counter
from datetime import timedelta

import pytest

from homebase.imports import jobs
from tests.imports_support import all_errors, job, start
from tests.support import assert_error

BATCH = jobs.BATCH["contacts"]


def rows() -> list[dict]:
    """Two batches of good rows, with refused ones in each; one refused for two reasons,
    one refused with a phone's warning beside its refusal."""
    found = [{"first_name": f"P{n}", "email": f"p{n}@example.com"} for n in range(BATCH + 60)]
    found[3] = {"first_name": "A", "email": "not-an-email"}
    found[7] = {"stage": "NOPE", "first_name": "x" * 81}
    found[BATCH + 5] = {"first_name": "B", "email": "also-not-an-email"}
    found[BATCH + 9] = {"first_name": "C", "email": "nor-this", "phone": "12345"}
    return found


async def reasons_of(tenant, sent: list[dict], indexes: list[int]) -> Counter:
    """Each row's refusals as the single create answers them, counted once a row."""
    counted: Counter = Counter()
    for index in indexes:
        single = await tenant.post("/v1/contacts", json=sent[index])
        errors = assert_error(single, 400, "validation_failed")["details"]["errors"]
        counted.update({f"{error['field']}: {error['message']}" for error in errors})
    return counted


async def test_refused_rows_are_counted_by_reason_batch_by_batch(runtime, tenant):
    sent = rows()
    made = await start(tenant, {"object": "contacts", "rows": sent})
    assert made["refused_by_reason"] == {}
    (claimed,) = await jobs.claim(runtime, 1)
    running = await jobs.load(runtime, claimed)
    assert running is not None
    await jobs.step(runtime, running)
    first = await job(tenant, made["id"])
    assert first["status"] == "running"
    assert Counter(first["refused_by_reason"]) == await reasons_of(tenant, sent, [3, 7])
    await jobs.process(runtime, claimed)

    done = await job(tenant, made["id"])
    refused = [
        item["index"] for item in await all_errors(tenant, made["id"]) if item["kind"] == "refused"
    ]
    assert refused == [3, 7, BATCH + 5, BATCH + 9]
    expected = await reasons_of(tenant, sent, refused)
    assert Counter(done["refused_by_reason"]) == expected
    # a row refused for two reasons counts under both; the phone's warning under none
    assert sum(expected.values()) == done["counts"]["failed"] + 1
    assert not any(reason.startswith("phone") for reason in done["refused_by_reason"])
    listed = (await tenant.get("/v1/imports")).json()["data"]
    assert [item["refused_by_reason"] for item in listed] == [done["refused_by_reason"]]


async def test_a_dry_run_counts_its_refused_rows_by_reason(runtime, tenant):
    sent = rows()
    made = await start(tenant, {"object": "contacts", "rows": sent, "dry_run": True})
    await jobs.process(runtime, (await jobs.claim(runtime, 1))[0])
    refused = [3, 7, BATCH + 5, BATCH + 9]
    done = await job(tenant, made["id"])
    assert done["status"] == "completed" and done["counts"]["failed"] == len(refused)
    expected = await reasons_of(tenant, sent, refused)
    assert Counter(done["refused_by_reason"]) == expected


async def test_a_resumed_import_keeps_the_reasons_its_first_claim_committed(runtime, tenant):
    sent = rows()
    made = await start(tenant, {"object": "contacts", "rows": sent})
    (claimed,) = await jobs.claim(runtime, 1)
    running = await jobs.load(runtime, claimed)
    assert running is not None
    await jobs.step(runtime, running)  # the first batch committed, then the worker "dies"
    real = runtime.clock
    runtime.clock = lambda: real() + timedelta(seconds=jobs.LEASE_SECONDS + 1)
    try:
        (again,) = await jobs.claim(runtime, 1)
        with pytest.raises(jobs.LeaseLost):  # the dead worker's late batch counts nothing
            await jobs.step(runtime, running)
        await jobs.process(runtime, again)
    finally:
        runtime.clock = real
    done = await job(tenant, made["id"])
    assert done["status"] == "completed"
    expected = await reasons_of(tenant, sent, [3, 7, BATCH + 5, BATCH + 9])
    assert Counter(done["refused_by_reason"]) == expected
