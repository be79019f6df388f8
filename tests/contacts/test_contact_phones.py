"""Phones on contacts and leads: `phone` kept as sent, `phone_e164` shown (masked as
`phone` is), a write of a number that is not valid answered with a `warnings` item naming
phone, the workspace's default_phone_region for numbers without a country code, and a
search by number in any format (docs/decisions.md, "Phone numbers: E.164 and warnings")."""

import phonenumbers
import pytest
from phonenumbers import PhoneNumberFormat, PhoneNumberType

from homebase.kit.errors import AdminError
from homebase.kit.phones import is_valid_number
from homebase.webhooks.render import masked
from tests.leads_support import load, outbox
from tests.support import assert_error

NOT_VALID = ["n/a", "12345", "555-CALL-NOW"]
WARNING = {"field": "phone", "code": "phone_not_valid"}


def phone_warning(body) -> dict:
    (item,) = body["warnings"]
    assert {"field": item["field"], "code": item["code"]} == WARNING and item["message"]
    return item


async def set_region(runtime, workspace_id, region):
    await load(runtime, workspace_id, {"workspace_settings": [{"default_phone_region": region}]})


def test_is_valid_number():
    assert is_valid_number("(415) 555-0100", "US")
    assert is_valid_number("+44 20 7946 0958", "US")
    assert is_valid_number("020 7946 0958", "GB")
    assert not is_valid_number("020 7946 0958", "US")
    for raw in [*NOT_VALID, "", "+"]:
        assert not is_valid_number(raw, "US"), raw


async def test_contact_phone_e164_is_shown_and_masked_as_phone_is(tenant, make):
    created = await tenant.post("/v1/contacts", json={"phone": "(415) 555-0142"})
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["phone"] == "(415) 555-0142" and body["phone_e164"] == "+14155550142"
    assert "warnings" not in body  # a valid number: nothing to say
    got = (await tenant.get(f"/v1/contacts/{body['id']}")).json()
    assert got["phone_e164"] == "+14155550142"
    listed = (await tenant.get("/v1/contacts", params={"fields": "phone_e164"})).json()["data"]
    assert listed == [{"id": body["id"], "pii_masked": False, "phone_e164": "+14155550142"}]

    masked = await make(["contacts:write"])
    mine = (await masked.post("/v1/contacts", json={"phone": "+1 415 555 0142"})).json()
    assert mine["phone"] == "+* *** *** 0142" and mine["phone_e164"] == "+*******0142"
    again = (await masked.get(f"/v1/contacts/{mine['id']}")).json()
    assert again["phone_e164"] == "+*******0142" and again["pii_masked"] is True
    (item,) = (await masked.get("/v1/contacts")).json()["data"]
    assert item["phone_e164"] == "+*******0142"


@pytest.mark.parametrize("raw", NOT_VALID)
async def test_a_contact_phone_that_is_not_valid_is_kept_and_warned_about(tenant, raw):
    created = await tenant.post("/v1/contacts", json={"first_name": "Kim", "phone": raw})
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["phone"] == raw
    phone_warning(body)
    # `fields` narrows the contact, never its warnings
    narrowed = await tenant.post("/v1/contacts", json={"phone": raw}, params={"fields": "id"})
    assert set(narrowed.json()) == {"id", "pii_masked", "warnings"}
    # an update that sends it is warned too; one that does not is not
    other = (await tenant.post("/v1/contacts", json={"phone": "+14155550100"})).json()
    patched = await tenant.patch(f"/v1/contacts/{other['id']}", json={"phone": raw})
    assert patched.status_code == 200, patched.text
    assert patched.json()["phone"] == raw
    phone_warning(patched.json())
    quiet = await tenant.patch(f"/v1/contacts/{other['id']}", json={"first_name": "Lee"})
    assert "warnings" not in quiet.json()
    cleared = await tenant.patch(f"/v1/contacts/{other['id']}", json={"phone": None})
    assert "warnings" not in cleared.json() and cleared.json()["phone_e164"] is None


@pytest.mark.parametrize("raw", ["12345", "555-CALL-NOW"])  # a lead's phone is 5 or more
async def test_a_lead_phone_that_is_not_valid_is_kept_and_warned_about(tenant, raw):
    created = await tenant.post("/v1/leads", json={"phone": raw, "source": "Zillow"})
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["phone"] == raw
    phone_warning(body)
    narrowed = await tenant.post(
        "/v1/leads", json={"phone": raw, "source": "Zillow"}, params={"fields": "phone"}
    )
    assert set(narrowed.json()) == {"id", "pii_masked", "phone", "warnings"}


async def test_a_lead_shows_phone_e164_masked_as_phone_is(tenant, make):
    created = await tenant.post("/v1/leads", json={"phone": "415.555.0142", "source": "Zillow"})
    body = created.json()
    assert "warnings" not in body
    assert body["phone"] == "415.555.0142" and body["phone_e164"] == "+14155550142"
    assert (await tenant.get(f"/v1/leads/{body['id']}")).json()["phone_e164"] == "+14155550142"
    contact = (await tenant.get(f"/v1/contacts/{body['contact_id']}")).json()
    assert contact["phone_e164"] == "+14155550142"
    masked = await make(["leads:write"])
    mine = (await masked.post("/v1/leads", json={"phone": "415.555.0142", "source": "x"})).json()
    assert mine["phone"] == "***.***.0142" and mine["phone_e164"] == "+*******0142"
    (item,) = (await masked.get("/v1/leads")).json()["data"]
    assert item["phone_e164"] == "+*******0142"


async def test_the_default_phone_region_reads_numbers_without_a_country_code(runtime, tenant):
    london = "020 7946 0958"
    us = (await tenant.post("/v1/contacts", json={"phone": london})).json()
    assert us["phone_e164"] is None
    phone_warning(us)
    await set_region(runtime, tenant.id, "GB")
    gb = (await tenant.post("/v1/contacts", json={"phone": london})).json()
    assert gb["phone_e164"] == "+442079460958" and "warnings" not in gb
    manchester = {"phone": "0161 496 0000"}
    patched = (await tenant.patch(f"/v1/contacts/{us['id']}", json=manchester)).json()
    assert patched["phone_e164"] == "+441614960000" and "warnings" not in patched
    # a number with its country code reads the same in any region
    assert (await tenant.post("/v1/contacts", json={"phone": "+14155550142"})).json()[
        "phone_e164"
    ] == "+14155550142"
    lead = (await tenant.post("/v1/leads", json={"phone": london, "source": "Rightmove"})).json()
    assert lead["phone_e164"] == "+442079460958" and "warnings" not in lead
    assert lead["contact_id"] == gb["id"]  # linked by the same E.164 number
    # a search by the number as written in the region finds it
    found = (await tenant.get("/v1/contacts", params={"q": "020 7946 0958"})).json()["data"]
    assert [item["id"] for item in found] == [gb["id"]]
    us_number = (await tenant.post("/v1/contacts", json={"phone": "(415) 555-0100"})).json()
    assert us_number["phone_e164"] is not None and us_number["phone_e164"].startswith("+44")
    phone_warning(us_number)  # 415... is no number in GB


@pytest.mark.parametrize("region", ["ZZ", "USA", "", "001", 7])
async def test_an_unknown_region_is_refused_naming_the_setting(runtime, tenant, region):
    with pytest.raises(AdminError, match="default_phone_region"):
        await set_region(runtime, tenant.id, region)


async def test_a_region_in_lower_case_is_kept_in_upper_case(runtime, tenant):
    await set_region(runtime, tenant.id, "gb")
    body = (await tenant.post("/v1/contacts", json={"phone": "07400 123456"})).json()
    assert body["phone_e164"] == "+447400123456" and "warnings" not in body


FORMATS = [
    "(415) 555-0100",
    "+14155550100",
    "415-555-0100",
    "415.555.0100",
    "+1 415 555 0100",
    "4155550100",
    "1 (415) 555-0100",
]


@pytest.mark.parametrize("stored", FORMATS)
async def test_a_search_by_phone_matches_any_format(tenant, make, runtime, stored):
    contact = (
        await tenant.post("/v1/contacts", json={"last_name": "Dial", "phone": stored})
    ).json()
    await tenant.post("/v1/contacts", json={"last_name": "Other", "phone": "+14155550199"})
    for q in FORMATS:
        data = (await tenant.get("/v1/contacts", params={"q": q})).json()["data"]
        assert [item["id"] for item in data] == [contact["id"]], (stored, q)


async def test_a_masked_search_finds_a_number_in_any_format_but_no_part_of_one(runtime, make):
    masked = await make(["contacts:write"])
    contact = (await masked.post("/v1/contacts", json={"phone": "(415) 555-0100"})).json()
    for q in FORMATS:
        data = (await masked.get("/v1/contacts", params={"q": q})).json()["data"]
        assert [item["id"] for item in data] == [contact["id"]], q
    assert (await masked.get("/v1/contacts", params={"q": "555-0100"})).json()["data"] == []


async def test_a_search_for_something_else_is_no_number(tenant):
    await tenant.post("/v1/contacts", json={"last_name": "Dial", "phone": "+14155550100"})
    refused = await tenant.get("/v1/contacts", params={"q": "x" * 121})
    assert_error(refused, 400, "validation_failed")
    assert (await tenant.get("/v1/contacts", params={"q": "Dial"})).json()["data"]


async def test_events_carry_phone_e164_masked_as_phone(runtime, tenant):
    await tenant.post("/v1/contacts", json={"phone": "(415) 555-0142"})
    await tenant.post("/v1/leads", json={"phone": "415 555 0143", "source": "Zillow"})
    seen = []
    for event in await outbox(runtime, tenant.id):  # as a webhook delivery carries it
        data = event["data"]
        for shown in (data, data.get("lead") or {}):
            if shown.get("phone_e164"):
                seen.append(event["type"])
                assert shown["phone_e164"] in ("+*******0142", "+*******0143"), event
    assert {"contact.created", "lead.created"} <= set(seen)


def test_webhook_payloads_mask_phone_e164_whole():
    assert masked({"phone_e164": "+14155550142"}) == {"phone_e164": "+*******0142"}


def _numbers_of_every_region() -> list[str]:
    """Each region's example numbers of every type, each also with its last digit
    changed and with one digit too few or too many: valid and invalid numbers, of
    shared country codes (+1, +7, +44, +590...) and single ones."""
    found = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        for kind in (PhoneNumberType.FIXED_LINE, PhoneNumberType.MOBILE, PhoneNumberType.TOLL_FREE):
            number = phonenumbers.example_number_for_type(region, kind)
            if number is None:
                continue
            text = phonenumbers.format_number(number, PhoneNumberFormat.E164)
            last = int(text[-1])
            found += [text, text[:-1] + str((last + 5) % 10), text[:-1], text + "7"]
    return found


def test_is_valid_number_answers_as_phonenumbers_does_for_every_region():
    """is_valid_number tries a shared country code's main region first (kit/phones.py,
    _main_region): its answers are phonenumbers' own, for numbers with their country
    code and for +1 numbers without it, read in another +1 region."""
    asked = [(text, "US") for text in _numbers_of_every_region()]
    asked += [(text[2:], "JM") for text, _ in asked if text.startswith("+1")]
    assert len(asked) > 1500
    valid = 0
    for raw, region in asked:
        expected = phonenumbers.is_valid_number(phonenumbers.parse(raw, region))
        valid += expected
        assert is_valid_number(raw, region) is expected, (raw, region)
    assert 0.2 * len(asked) < valid < 0.8 * len(asked)  # both answers were asked about
