"""Campaigns over HTTP: enrolling by ids and by filter (bounds, refusals, idempotency),
the wire shape, scopes and tenancy, counts and the list of a campaign's contacts."""

import pytest

from tests.automations_support import contact, count, frozen
from tests.campaigns_support import (
    ENROLMENTS,
    campaign,
    enrolments,
    inbound,
    opt_out,
    plug,
    reachable,
    run,
)
from tests.support import assert_error, failing_fields


async def test_a_campaign_shows_its_goal_channel_rate_and_end(runtime, tenant):
    campaign_id = await campaign(
        runtime,
        tenant,
        channel="text_then_call",
        rate_per_hour=12,
        ends_at="2030-01-02T03:04:05Z",
    )
    shown = (await tenant.get(f"/v1/campaigns/{campaign_id}")).json()
    assert shown["goal"] == "Invite them to the open house at 12 Elm St."
    assert (shown["channel"], shown["rate_per_hour"], shown["ends_at"]) == (
        "text_then_call",
        12,
        "2030-01-02T03:04:05.000Z",
    )
    assert shown["counts"] == {
        "enrolled": 0,
        "pending": 0,
        "reached": 0,
        "replied": 0,
        "booked": 0,
        "opted_out": 0,
        "skipped": 0,
        "skipped_by_reason": {},
    }
    [listed] = (await tenant.get("/v1/campaigns")).json()["data"]
    assert "counts" not in listed and listed["channel"] == "text_then_call"
    assert (await tenant.get(f"/v1/campaigns/{campaign_id}?fields=counts")).json() == {
        "id": campaign_id,
        "counts": shown["counts"],
    }


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"goal": "x" * 1001}, "goal"),
        ({"channel": "fax"}, "channel"),
        ({"rate_per_hour": 0}, "rate_per_hour"),
        ({"rate_per_hour": 3601}, "rate_per_hour"),
        ({"ends_at": "2030-01-02T03:04:05"}, "ends_at"),
    ],
)
async def test_a_campaign_fixture_out_of_bounds_is_refused(runtime, tenant, values, field):
    with pytest.raises(Exception, match=field):
        await campaign(runtime, tenant, **values)


async def test_enrol_by_ids_is_idempotent_per_contact(runtime, tenant):
    campaign_id = await campaign(runtime, tenant)
    first, second = await contact(tenant), await contact(tenant, phone="+14155550143")
    response = await tenant.post(
        f"/v1/campaigns/{campaign_id}/enroll", json={"contact_ids": [first, first]}
    )
    assert response.status_code == 202, response.text
    assert response.json() == {
        "campaign_id": campaign_id,
        "matched": 1,
        "enrolled": 1,
        "already_enrolled": 0,
    }
    again = await tenant.post(
        f"/v1/campaigns/{campaign_id}/enroll", json={"contact_ids": [second, first]}
    )
    assert again.status_code == 202
    assert again.json() == {
        "campaign_id": campaign_id,
        "matched": 2,
        "enrolled": 1,
        "already_enrolled": 1,
    }
    rows = await enrolments(runtime, campaign_id)
    assert sorted(row["contact_id"] for row in rows) == sorted([first, second])
    assert {row["state"] for row in rows} == {"pending"}
    listed = (await tenant.get(f"/v1/campaigns/{campaign_id}/contacts")).json()
    assert [item["contact_id"] for item in listed["data"]] == [
        row["contact_id"] for row in sorted(rows, key=lambda row: row["id"], reverse=True)
    ]
    assert listed["data"][0]["state"] == "pending" and listed["has_more"] is False


async def test_an_idempotency_key_replays_the_first_answer(runtime, tenant):
    campaign_id = await campaign(runtime, tenant)
    contact_id = await contact(tenant)
    headers = {**tenant.headers, "Idempotency-Key": "enrol-SPRING-7731-PLOVER"}
    path, body = f"/v1/campaigns/{campaign_id}/enroll", {"contact_ids": [contact_id]}
    first = await tenant.client.post(path, json=body, headers=headers)
    replay = await tenant.client.post(path, json=body, headers=headers)
    assert first.status_code == replay.status_code == 202
    assert (
        replay.json()
        == first.json()
        == {
            "campaign_id": campaign_id,
            "matched": 1,
            "enrolled": 1,
            "already_enrolled": 0,
        }
    )
    assert await count(runtime, ENROLMENTS, campaign_id=campaign_id) == 1


async def test_enrol_by_filter_uses_the_contacts_list(runtime, tenant):
    campaign_id = await campaign(runtime, tenant)
    sphere = [
        await contact(tenant, phone=f"+1415555{index:04d}", tags=["sphere"], stage="PAST_CLIENT")
        for index in range(3)
    ]
    await contact(tenant, phone="+14155550900", tags=["sphere"], stage="LEAD")
    await contact(tenant, phone="+14155550901", stage="PAST_CLIENT")
    erased = await contact(tenant, phone="+14155550902", tags=["sphere"], stage="PAST_CLIENT")
    assert (await tenant.delete(f"/v1/contacts/{erased}")).status_code == 200
    query = {"tag": "sphere", "stage": "PAST_CLIENT"}
    listed = (await tenant.get("/v1/contacts", params=query)).json()["data"]
    assert {item["id"] for item in listed} >= set(sphere)
    response = await tenant.post(f"/v1/campaigns/{campaign_id}/enroll", json={"filter": query})
    assert response.status_code == 202, response.text
    assert response.json()["enrolled"] == 3
    rows = await enrolments(runtime, campaign_id)
    assert {row["contact_id"] for row in rows} == set(sphere)


async def test_bad_requests_name_each_field_and_enrol_nothing(runtime, tenant, other_tenant):
    campaign_id = await campaign(runtime, tenant)
    path = f"/v1/campaigns/{campaign_id}/enroll"
    mine = await contact(tenant)
    foreign = await contact(other_tenant)
    erased = await contact(tenant, phone="+14155550143")
    await tenant.delete(f"/v1/contacts/{erased}")
    cases = [
        ({}, {"contact_ids", "filter"}),
        ({"contact_ids": [mine], "filter": {"tag": "x"}}, {"contact_ids", "filter"}),
        ({"contact_ids": []}, {"contact_ids"}),
        ({"contact_ids": [mine] * 1001}, {"contact_ids"}),
        (
            {"contact_ids": [mine, foreign, "con_nope", erased]},
            {
                "contact_ids.1",
                "contact_ids.2",
                "contact_ids.3",
            },
        ),
        ({"contact_ids": ["x" * 41]}, {"contact_ids.0"}),
        ({"filter": {"stage": "NOPE"}}, {"filter.stage"}),
        ({"filter": {"tag": "t" * 41, "q": "q" * 121}}, {"filter.tag", "filter.q"}),
        ({"filter": {"updated_after": "2026-01-01T00:00:00Z"}}, {"filter.updated_after"}),
        ({"contact_ids": [mine], "extra": 1}, {"extra"}),
    ]
    for body, fields in cases:
        assert failing_fields(await tenant.post(path, json=body)) == fields, body
    assert await count(runtime, ENROLMENTS) == 0


async def test_a_filter_past_the_bound_is_refused(runtime, tenant, monkeypatch):
    from homebase.automations import campaign_service

    monkeypatch.setattr(campaign_service, "MAX_CONTACTS", 2)
    monkeypatch.setattr(campaign_service, "PAGE", 1)
    campaign_id = await campaign(runtime, tenant)
    for index in range(3):
        await contact(tenant, phone=f"+1415555{index:04d}", tags=["sphere"])
    response = await tenant.post(
        f"/v1/campaigns/{campaign_id}/enroll", json={"filter": {"tag": "sphere"}}
    )
    assert failing_fields(response) == {"filter"}
    assert await count(runtime, ENROLMENTS) == 0
    # two of them fit
    response = await tenant.post(
        f"/v1/campaigns/{campaign_id}/enroll", json={"filter": {"tag": "nobody"}}
    )
    assert response.json()["matched"] == 0


async def test_another_workspace_s_campaign_is_404(runtime, tenant, other_tenant):
    campaign_id = await campaign(runtime, other_tenant)
    contact_id = await contact(tenant)
    for response in (
        await tenant.post(
            f"/v1/campaigns/{campaign_id}/enroll", json={"contact_ids": [contact_id]}
        ),
        await tenant.get(f"/v1/campaigns/{campaign_id}"),
        await tenant.get(f"/v1/campaigns/{campaign_id}/contacts"),
        await tenant.post("/v1/campaigns/cmp_nope/enroll", json={"contact_ids": [contact_id]}),
    ):
        assert_error(response, 404, "not_found")
    assert await count(runtime, ENROLMENTS) == 0


async def test_scopes(runtime, make):
    reader = await make(["automations:read"])
    campaign_id = await campaign(runtime, reader)
    assert (await reader.get(f"/v1/campaigns/{campaign_id}/contacts")).status_code == 200
    error = assert_error(
        await reader.post(f"/v1/campaigns/{campaign_id}/enroll", json={"contact_ids": ["c"]}),
        403,
        "insufficient_scope",
    )
    assert error["details"]["missing_scope"] == "automations:manage"
    others = await make(["contacts:write", "messages:send"], name="Others")
    for path in (f"/v1/campaigns/{campaign_id}", f"/v1/campaigns/{campaign_id}/contacts"):
        error = assert_error(await others.get(path), 403, "insufficient_scope")
        assert error["details"]["missing_scope"] == "automations:read"
    manager = await make(["automations:manage"], name="Managers")
    managed = await campaign(runtime, manager)
    assert (await manager.get(f"/v1/campaigns/{managed}/contacts")).status_code == 200
    response = await manager.post(f"/v1/campaigns/{managed}/enroll", json={"contact_ids": ["c"]})
    assert failing_fields(response) == {"contact_ids.0"}


async def test_counts_and_the_list_follow_what_contacts_did_after_the_reach(
    runtime, tenant, monkeypatch
):
    clock = frozen(runtime)
    campaign_id = await campaign(runtime, tenant, rate_per_hour=3600)
    replier, booker, quitter, quiet = [
        await reachable(runtime, tenant, index) for index in range(4)
    ]
    no_consent = await contact(tenant, phone="+14155550777")
    response = await tenant.post(
        f"/v1/campaigns/{campaign_id}/enroll",
        json={"contact_ids": [replier, booker, quitter, quiet, no_consent]},
    )
    assert response.status_code == 202
    plug(monkeypatch)
    for _ in range(5):
        await run(runtime)
        clock.advance(seconds=1)
    clock.advance(minutes=5)
    # replied: an inbound text; booked: an appointment; opted out: STOP
    await inbound(runtime, tenant, replier, "+14155550000")
    booked = await tenant.post(
        "/v1/appointments",
        json={
            "contact_id": booker,
            "title": "Showing",
            "starts_at": "2031-01-01T17:00:00Z",
            "ends_at": "2031-01-01T17:30:00Z",
        },
    )
    assert booked.status_code == 201, booked.text
    await inbound(runtime, tenant, quitter, "+14155550002")
    await opt_out(runtime, tenant, "+14155550002")
    report = (await tenant.get(f"/v1/campaigns/{campaign_id}")).json()["counts"]
    assert report == {
        "enrolled": 5,
        "pending": 0,
        "reached": 4,
        "replied": 2,  # STOP is a message too
        "booked": 1,
        "opted_out": 1,
        "skipped": 1,
        "skipped_by_reason": {"no_consent": 1},
    }
    listed = (await tenant.get(f"/v1/campaigns/{campaign_id}/contacts?limit=2")).json()
    assert listed["has_more"] is True and listed["next_cursor"]
    rest = (
        await tenant.get(
            f"/v1/campaigns/{campaign_id}/contacts", params={"cursor": listed["next_cursor"]}
        )
    ).json()
    states = {item["contact_id"]: item for item in listed["data"] + rest["data"]}
    assert {key: item["state"] for key, item in states.items()} == {
        replier: "replied",
        booker: "booked",
        quitter: "opted_out",
        quiet: "reached",
        no_consent: "skipped",
    }
    assert states[no_consent]["skip_reason"] == "no_consent"
    assert states[replier]["replied_at"] is not None and states[quiet]["replied_at"] is None
    assert states[booker]["booked_at"] is not None
    assert states[quitter]["opted_out_at"] is not None


async def test_erasure_skips_the_contact_s_pending_enrolments(runtime, tenant, monkeypatch):
    frozen(runtime)
    campaign_id = await campaign(runtime, tenant)
    contact_id = await reachable(runtime, tenant, 1)
    await tenant.post(f"/v1/campaigns/{campaign_id}/enroll", json={"contact_ids": [contact_id]})
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200
    [row] = await enrolments(runtime, campaign_id)
    assert (row["state"], row["skip_reason"]) == ("skipped", "erased")
    sender = plug(monkeypatch)
    await run(runtime)
    assert sender.calls == []
    assert (await tenant.delete(f"/v1/contacts/{contact_id}")).status_code == 200  # again
