"""Signatures (against GitHub's published example), the receiver helper, sealed secrets,
and the URL/IP policy (the retry schedule: tests/worker/test_leased_queue.py)."""

import base64
import ipaddress
import secrets
from datetime import UTC, datetime

import pytest

from homebase.config import Settings
from homebase.kit.keys import Keyring
from homebase.kit.sealed import SealBroken, seal, unseal
from homebase.webhooks import SignatureMismatch, verify
from homebase.webhooks.render import envelope, masked
from homebase.webhooks.safety import (
    UnsafeUrl,
    address_refusal,
    bounded_lookup,
    check_url,
    check_url_syntax,
    checked_addresses,
)
from homebase.webhooks.signing import signature, signature_headers, standard_key
from tests.dns_support import StubResolver

GITHUB_SECRET = "It's a Secret to Everybody"
GITHUB_SIGNATURE = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"


def test_signature_matches_githubs_example():
    assert signature(GITHUB_SECRET, b"Hello, World!") == GITHUB_SIGNATURE


def test_verify_accepts_authentic_and_refuses_the_rest():
    body = b'{"event":"contact.created"}'
    secret = "whsec_" + "Ab1" * 13 + "x"
    at = datetime.fromtimestamp(1_800_000_000, UTC)
    headers = signature_headers(secret, body, "evt_1", at)
    verify(secret, body, headers, now=1_800_000_100)
    verify(secret, body, {k.lower(): v for k, v in headers.items()}, now=1_800_000_000)
    verify(
        secret,
        body,
        {"X-Webhook-Signature": headers["X-Webhook-Signature"]},
        tolerance_seconds=None,
    )
    # Several signatures (as while a secret rotates): one matching is enough.
    verify(
        secret,
        body,
        {**headers, "webhook-signature": "v1,AAAA " + headers["webhook-signature"]},
        now=1_800_000_000,
    )
    cases = [
        ("whsec_y", body, headers, 1_800_000_000),  # wrong secret
        (secret, body + b" ", headers, 1_800_000_000),  # re-serialized body
        (secret, body, headers, 1_800_000_301),  # replayed too late
        (secret, body, headers, 1_799_999_699),  # from the future
        (
            secret,
            body,
            {**headers, "webhook-timestamp": "1800000200"},
            1_800_000_200,
        ),  # timestamp moved without re-signing
        (secret, body, {**headers, "webhook-id": "evt_2"}, 1_800_000_000),  # another event's id
        (secret, body, {"X-Webhook-Signature": headers["X-Webhook-Signature"]}, 1_800_000_000),
    ]  # Standard Webhooks headers stripped
    for key, raw, sent, now in cases:
        with pytest.raises(SignatureMismatch):
            verify(key, raw, sent, now=now)


def test_standard_key_is_the_base64_of_the_secret_and_never_fails():
    made = "whsec_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"
    assert standard_key(made) == base64.b64decode(made[6:]) and len(standard_key(made)) == 30
    # Not base64 after whsec_ (no secret made has this form): keyed by its own bytes.
    for odd in ("whsec_x", "whsec_", "plain", "whsec_ab$d"):
        assert standard_key(odd) == odd.encode()


def test_sealed_secret_round_trip_and_binding():
    one, two = Keyring("key-one"), Keyring("key-two")
    sealed = seal(one, "webhook-secret", "whsec_abc", "whk_1")
    assert "whsec_abc" not in sealed and sealed.startswith("v1.")
    assert unseal(one, "webhook-secret", sealed, "whk_1") == "whsec_abc"
    assert seal(one, "webhook-secret", "whsec_abc", "whk_1") != sealed  # fresh nonce
    for key, purpose, bound in (
        (two, "webhook-secret", "whk_1"),
        (one, "other", "whk_1"),
        (one, "webhook-secret", "whk_2"),
    ):
        with pytest.raises(SealBroken):
            unseal(key, purpose, sealed, bound)


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.0.0.1",
        "172.16.5.4",
        "192.168.1.1",
        "169.254.169.254",
        "169.254.1.1",
        "100.64.0.1",
        "::1",
        "fe80::1",
        "fc00::1",
        "::ffff:127.0.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "fd00:ec2::254",
        "fec0::1",
        "2002:7f00:1::",
        "2002:a00:1::",
        "64:ff9b::7f00:1",
    ],
)
def test_internal_addresses_are_refused(address):
    assert address_refusal(ipaddress.ip_address(address), allow_private=False)


@pytest.mark.parametrize(
    "address", ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "2002:808:808::"]
)
def test_public_addresses_pass(address):
    assert address_refusal(ipaddress.ip_address(address), allow_private=False) is None


def test_allowing_private_urls_still_refuses_metadata():
    assert address_refusal(ipaddress.ip_address("10.0.0.1"), allow_private=True) is None
    # Also where an IPv6 form carries it (IPv4-mapped, 6to4, NAT64).
    for address in (
        "169.254.169.254",
        "::ffff:169.254.169.254",
        "2002:a9fe:a9fe::",
        "64:ff9b::a9fe:a9fe",
    ):
        assert address_refusal(ipaddress.ip_address(address), allow_private=True), address


def test_url_syntax_rules():
    development = Settings(env="test", secret_key="k" * 20)
    production = Settings(
        env="production",
        secret_key=secrets.token_urlsafe(32),
        ai_provider="local",
        public_url="https://crm.example.com",
    )
    assert check_url_syntax("http://example.com/x", development) == ("example.com", 80)
    assert check_url_syntax("https://example.com:8443/x", production) == ("example.com", 8443)
    for url in (
        "http://example.com/x",
        "ftp://example.com",
        "https://",
        "https://u:p@x.com/",
        "https://metadata.google.internal/",
        "https://x.com/#frag",
    ):
        with pytest.raises(UnsafeUrl):
            check_url_syntax(url, production)


async def test_resolution_checks_every_address():
    lookup = bounded_lookup(StubResolver(), 2)
    assert await checked_addresses("127.0.0.1", 80, allow_private=True, lookup=lookup)
    with pytest.raises(UnsafeUrl, match="loopback"):
        await checked_addresses("localhost", 80, allow_private=False, lookup=lookup)
    with pytest.raises(UnsafeUrl, match="does not resolve"):
        await check_url(
            "http://no-such-host.invalid/x", Settings(env="test", secret_key="k" * 20), lookup
        )


async def test_one_internal_address_among_many_refuses_the_host():
    lookup = bounded_lookup(StubResolver({"split.example": ["93.184.215.14", "10.1.2.3"]}), 2)
    with pytest.raises(UnsafeUrl, match="resolves to an address that is a private or internal"):
        await checked_addresses("split.example", 443, allow_private=False, lookup=lookup)
    assert (
        len(await checked_addresses("split.example", 443, allow_private=True, lookup=lookup)) == 2
    )


def test_payload_phone_numbers_are_always_masked():
    data = {
        "phone": "+14155550142",
        "to": "+1 (415) 555-0199",
        "nested": [{"from": "4155550100"}],
        "email": "x***@example.com",
        "tags": ["+14155550142"],
        "caller": "555-0100",  # too short for the matcher, masked whole as a phone member
    }
    result = masked(data)
    assert result["phone"].endswith("0142") and "555" not in result["phone"]
    assert "555" not in result["to"] and "555" not in str(result["nested"])
    assert result["email"] == "x***@example.com"  # masking twice changes nothing
    assert result["tags"] == ["+*******0142"]  # a number is masked wherever it is
    assert result["caller"] == "***-0100"


def test_phone_numbers_and_addresses_are_masked_by_value_not_by_name():
    """Free-form objects (a lead's context) and free text (notes, a call's summary, a
    message body) hold numbers under any name, or none."""
    context = {
        "alt_phone": "+1 (415) 555-0100",
        "tel": "415.555.0101",
        "sms": "sms:+14155550102",
        "contact_number": "4155550103",
        "office": "415 555 0104",
        "phone_verified": True,
        "phone_verified_at": "2026-11-20T17:04:05.123Z",
        "phone_count": "2",
        "reply_to": "dana@example.com",
    }
    result = masked({"context": context, "body": "call 4155550105, dana@example.com"})
    for name in ("alt_phone", "tel", "sms", "contact_number", "office"):
        assert "555" not in result["context"][name], name
        assert result["context"][name].endswith(context[name][-4:]), name
    for name in ("phone_verified", "phone_verified_at", "phone_count"):
        assert result["context"][name] == context[name], name  # not phone numbers
    assert result["context"]["reply_to"] == "d***@example.com"
    assert result["body"] == "call ******0105, d***@example.com"


def test_envelope_keeps_event_id_and_occurred_at():
    from datetime import UTC, datetime

    body = envelope(
        "contact.created",
        "wsp_1",
        "evt_1",
        datetime(2026, 1, 1, tzinfo=UTC),
        {"id": "con_1", "event_id": "spoof"},
    )
    assert body == (
        b'{"event":"contact.created","tenantId":"wsp_1","occurredAt":'
        b'"2026-01-01T00:00:00.000Z","data":{"event_id":"evt_1","occurred_at":'
        b'"2026-01-01T00:00:00.000Z","id":"con_1"}}'
    )


def test_the_worker_runs_the_webhook_jobs():
    """One registry serves `homebase worker` and the worker inside `homebase serve`."""
    from homebase.root.jobs import JOBS

    assert {"webhooks.fan_out", "webhooks.deliver", "webhooks.sweep"} <= {job.name for job in JOBS}


def test_lease_must_outlast_the_timeout():
    with pytest.raises(ValueError, match="LEASE"):
        Settings(
            env="test", secret_key="k" * 20, webhook_timeout_seconds=10, webhook_lease_seconds=5
        )
