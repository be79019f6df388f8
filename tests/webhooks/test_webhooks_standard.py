"""Standard Webhooks signing (docs/webhooks.md, "Signatures"): the reference library from
PyPI (`standardwebhooks`) and the hand-written receiver helper (clients/python) verify
deliveries a real worker made to a real receiver on 127.0.0.1; the older timestamped pair
stops at its sunset. SQLite and PostgreSQL."""

import base64
from datetime import UTC, datetime, timedelta

import homebase_webhooks
import orjson
import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from homebase.kit.clock import FrozenClock
from homebase.kit.sealed import seal
from homebase.webhooks import dispatcher, verify
from homebase.webhooks.service import SEAL_PURPOSE
from homebase.webhooks.signing import LEGACY_SUNSET
from tests.webhook_receiver import Receiver, script
from tests.webhooks_support import subscribe, work

LEGACY = ("x-webhook-timestamp", "x-webhook-signature-timestamped")


@pytest.fixture
async def receiver():
    receiver = await Receiver().start()
    yield receiver
    await receiver.stop()


async def test_the_standard_webhooks_library_verifies_real_deliveries(tenant, runtime, receiver):
    """Two attempts of one delivery (the first answered 500), made a minute apart ending
    now: both verify with the secret exactly as the API returned it, with the same
    webhook-id (the event id) and each its own timestamp."""
    now = datetime.now(UTC).replace(microsecond=0)
    runtime.clock = clock = FrozenClock(now - timedelta(minutes=1))
    receiver.respond = script(500, 200)
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Dana"})
    await work(runtime)
    clock.advance(minutes=1)
    await work(runtime)
    first, second = await receiver.wait_for(2)

    library = Webhook(hook["secret"])
    for request in (first, second):
        payload = library.verify(request.body, request.headers)
        assert payload == orjson.loads(request.body)
        assert request.headers["webhook-id"] == payload["data"]["event_id"]
        assert request.headers["webhook-signature"].startswith("v1,")
        # The hand-written helper receivers may copy agrees, and so does the server's.
        homebase_webhooks.verify(hook["secret"], request.body, request.headers)
        verify(hook["secret"], request.body, request.headers)
    assert first.headers["webhook-id"] == second.headers["webhook-id"]
    assert int(second.headers["webhook-timestamp"]) - int(first.headers["webhook-timestamp"]) == 60

    altered = second.body.replace(b'"Dana"', b'"Eve"')
    assert altered != second.body
    for body, headers in (
        (altered, second.headers),
        (second.body, {**second.headers, "webhook-id": "evt_another"}),
        (second.body, {**second.headers, "webhook-signature": first.headers["webhook-signature"]}),
    ):
        with pytest.raises(WebhookVerificationError):
            library.verify(body, headers)
        with pytest.raises(homebase_webhooks.SignatureMismatch):
            homebase_webhooks.verify(hook["secret"], body, headers)
    with pytest.raises(WebhookVerificationError):
        Webhook("whsec_" + base64.b64encode(b"another secret!!").decode()).verify(
            second.body, second.headers
        )


async def test_an_old_delivery_is_refused(tenant, runtime, receiver):
    """A genuine delivery signed ten minutes ago (a captured one replayed now)."""
    runtime.clock = FrozenClock(datetime.now(UTC) - timedelta(minutes=10))
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Dana"})
    await work(runtime)
    [request] = await receiver.wait_for(1)
    with pytest.raises(WebhookVerificationError, match="too old"):
        Webhook(hook["secret"]).verify(request.body, request.headers)
    with pytest.raises(homebase_webhooks.SignatureMismatch, match="at most 300 s"):
        homebase_webhooks.verify(hook["secret"], request.body, request.headers)
    # Its body signature is still the spec's, which carries no time.
    homebase_webhooks.verify(hook["secret"], request.body, request.headers, tolerance_seconds=None)


async def test_every_secret_made_is_standard_base64(tenant):
    for _ in range(20):
        secret = (await subscribe(tenant, "http://127.0.0.1:9/hook"))["secret"]
        assert secret.startswith("whsec_")
        assert len(base64.b64decode(secret[len("whsec_") :], validate=True)) == 30


async def test_a_secret_of_another_form_is_keyed_by_its_bytes(tenant, runtime, receiver):
    """No secret made has another form; a hand-made one still signs, and its receivers pass
    `whsec_` + base64 of the secret to the library (docs/webhooks.md)."""
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    odd = "an old secret, not base64!"
    table = dispatcher.subscriptions
    async with runtime.db.transaction() as connection:
        await connection.execute(
            table.update()
            .where(table.c.id == hook["id"])
            .values(secret_encrypted=seal(runtime.settings.keys, SEAL_PURPOSE, odd, hook["id"]))
        )
    await tenant.post("/v1/contacts", {"first_name": "Dana"})
    await work(runtime)
    [request] = await receiver.wait_for(1)
    Webhook("whsec_" + base64.b64encode(odd.encode()).decode()).verify(
        request.body, request.headers
    )
    homebase_webhooks.verify(odd, request.body, request.headers)


@pytest.mark.parametrize(
    ("at", "legacy_sent"),
    [(LEGACY_SUNSET - timedelta(seconds=1), True), (LEGACY_SUNSET, False)],
)
async def test_the_older_timestamped_pair_stops_at_its_sunset(
    tenant, runtime, receiver, at, legacy_sent
):
    hook = await subscribe(tenant, receiver.url, ["contact.created"])
    await tenant.post("/v1/contacts", {"first_name": "Dana"})
    runtime.clock = FrozenClock(at)  # the attempt's clock (the test key expires before)
    await work(runtime)
    [request] = await receiver.wait_for(1)
    stamp = int(at.timestamp())
    assert request.headers["webhook-timestamp"] == str(stamp)
    assert request.headers["x-webhook-signature"].startswith("sha256=")
    verify(hook["secret"], request.body, request.headers, now=stamp)
    assert all((name in request.headers) is legacy_sent for name in LEGACY)
    if legacy_sent:
        assert request.headers["x-webhook-timestamp"] == str(stamp)
        expected = homebase_webhooks.sign(hook["secret"], f"{stamp}.".encode() + request.body)
        assert request.headers["x-webhook-signature-timestamped"] == expected
