"""Masking in exports, both databases: every list's file is the list as it shows to the
credential that asked (free text masked by value exactly where the list masks it), and an
export made unmasked is readable, its status and its link, only with contacts:read:pii;
another workspace's export stays 404. The deals leak reproduced: a deals:read key without
the PII scope fetched a deals export a PII key made and got its custom text in full."""

import pytest

from homebase.exports.objects import OBJECTS
from homebase.kit.links import LinkKind
from tests import calendar_support
from tests.exports.support import as_key, download, export, listed, ndjson, path_of
from tests.support import assert_error

EMAIL, PHONE = "pia.quint@example.com", "+14155550199"
SECRET = f"call {PHONE} or write {EMAIL}"
READ = {name: item.scope.value for name, item in OBJECTS.items()}
MISSING_PII = {"missing_scope": "contacts:read:pii"}


async def _field(tenant, object: str) -> None:
    body = {"object": object, "key": "memo", "label": "Memo", "type": "text"}
    response = await tenant.post("/v1/custom-fields", json=body)
    assert response.status_code == 201, response.text


@pytest.fixture
async def records(tenant):
    """A record of every list, each holding the phone and the address in its free text."""
    await _field(tenant, "contacts")
    await _field(tenant, "deals")
    person = await tenant.post(
        "/v1/contacts",
        json={
            "first_name": "Pia",
            "email": EMAIL,
            "phone": PHONE,
            "notes": SECRET,
            "custom_fields": {"memo": SECRET},
        },
    )
    assert person.status_code == 201, person.text
    pipelines = (await tenant.get("/v1/pipelines")).json()["data"]
    deal = await tenant.post(
        "/v1/deals",
        json={
            "title": "Elm St",
            "pipeline_id": pipelines[0]["id"],
            "contact_id": person.json()["id"],
            "custom_fields": {"memo": SECRET},
        },
    )
    assert deal.status_code == 201, deal.text
    lead = await tenant.post(
        "/v1/leads",
        json={"source": "web", "email": EMAIL, "phone": PHONE, "context": {"note": SECRET}},
    )
    assert lead.status_code == 201, lead.text
    message = await tenant.post(
        "/v1/messages", json={"channel": "email", "to": EMAIL, "subject": "Hi", "body": SECRET}
    )
    assert message.status_code == 201, message.text
    task = await tenant.post(
        "/v1/tasks", json={"title": "Call Pia", "contact_id": person.json()["id"], "notes": SECRET}
    )
    assert task.status_code == 201, task.text
    await calendar_support.book(tenant, person.json()["id"], notes=SECRET)
    return person.json()["id"]


@pytest.mark.parametrize("name", list(OBJECTS))
async def test_every_file_masks_exactly_as_its_list(tenant, runtime, client, records, name):
    masked = await as_key(runtime, tenant, [READ[name]])
    unmasked = await as_key(runtime, tenant, [READ[name], "contacts:read:pii"])
    for reader, pii in ((masked, False), (unmasked, True)):
        exported = await export(reader, runtime, object=name)
        assert exported["pii_masked"] is not pii
        lines = ndjson(await download(client, exported))
        expected = await listed(reader, f"/v1/{name}")
        assert lines == expected and lines, (name, pii)
    # The data holds what a list masks: without the scope it is gone wherever the list
    # masks it (contacts, leads, deals: custom text and context by value; messages: the
    # addresses), and every list shows it whole with the scope.
    shown = str(await listed(unmasked, f"/v1/{name}"))
    assert EMAIL in shown
    if name in ("contacts", "leads", "messages", "deals"):
        hidden = str(ndjson(await download(client, await export(masked, runtime, object=name))))
        assert str(await listed(masked, f"/v1/{name}")) == hidden
        if name in ("leads", "deals"):
            assert EMAIL not in hidden and PHONE not in hidden


async def test_a_deals_export_made_with_pii_is_refused_to_a_deals_key_without_it(
    tenant, runtime, client, records
):
    """The reported leak: the deal's custom text came out in full to such a key."""
    reader = await as_key(runtime, tenant, ["deals:read"])
    listed_deals = await listed(reader, "/v1/deals")
    assert listed_deals[0]["custom_fields"]["memo"] != SECRET  # the list masks it
    made = await export(tenant, runtime, object="deals")
    assert made["pii_masked"] is False
    assert SECRET in (await download(client, made)).text  # made unmasked, as asked
    refused = await reader.get(f"/v1/exports/{made['id']}")
    assert assert_error(refused, 403, "insufficient_scope")["details"] == MISSING_PII
    assert made["id"] not in {e["id"] for e in (await reader.get("/v1/exports")).json()["data"]}
    own = await export(reader, runtime, object="deals")
    assert own["pii_masked"] is True
    assert ndjson(await download(client, own)) == listed_deals
    assert SECRET not in (await download(client, own)).text


@pytest.mark.parametrize("name", list(OBJECTS))
async def test_an_unmasked_export_is_read_only_with_pii(
    tenant, other_tenant, runtime, client, name
):
    made = await export(tenant, runtime, object=name)
    masked = await as_key(runtime, tenant, [READ[name]])
    refused = await masked.get(f"/v1/exports/{made['id']}")
    assert assert_error(refused, 403, "insufficient_scope")["details"] == MISSING_PII
    assert (await masked.get("/v1/exports")).json()["data"] == []
    with_pii = await as_key(runtime, tenant, [READ[name], "contacts:read:pii"])
    seen = await with_pii.get(f"/v1/exports/{made['id']}")
    assert seen.status_code == 200 and seen.json()["download_url"]
    assert (await client.get(path_of(seen.json()["download_url"]))).status_code == 200
    own = await export(masked, runtime, object=name)
    assert [e["id"] for e in (await masked.get("/v1/exports")).json()["data"]] == [own["id"]]
    # Another workspace's export stays 404, for a key with every scope too.
    assert_error(await other_tenant.get(f"/v1/exports/{made['id']}"), 404, "not_found")


async def test_a_link_signed_under_the_earlier_rule_opens_nothing(tenant, runtime, client):
    """Links are issued only after the rule's check; one issued before the rule changed
    (under the purpose links had then) does not verify, so none outlives it."""
    made = await export(tenant, runtime, object="deals")
    settings = runtime.settings
    earlier = LinkKind(purpose="export-link", route="exports").issue(
        settings.keys, settings.public_url, tenant.id, made["id"], runtime.clock()
    )
    assert_error(await client.get(path_of(earlier.url)), 403, "export_link_invalid")
    assert (await client.get(path_of(made["download_url"]))).status_code == 200
