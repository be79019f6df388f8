"""A webhook URL's DNS lookup: made before the request's transaction (a slow resolver
stalls no other request, even on SQLite's one connection), bounded by
HOMEBASE_WEBHOOK_DNS_TIMEOUT_SECONDS, asked only for a credential that may create
webhooks, and the same injected resolver at send time. Every answer comes from the
suite's StubResolver: no test asks the machine's resolver."""

import asyncio
import ipaddress
import socket

import pytest
from pydantic import ValidationError

from homebase.auth.api_keys import revoke_api_key
from homebase.auth.scopes import Scope
from homebase.config import Settings
from tests.console_support import make_member, member_browser, post_form
from tests.dns_support import PUBLIC_ADDRESS, StubResolver, UnknownTestHost
from tests.support import assert_error, failing_fields
from tests.webhooks_support import subscribe, work


class GatedLookup:
    """A DNS answer that waits: until `release` (or `seconds`, so code that waits for it
    in the wrong place still ends), recording in `order` when it answered."""

    def __init__(self, order: list[str], seconds: float = 1.5):
        self.entered, self.release = asyncio.Event(), asyncio.Event()
        self.order, self.seconds = order, seconds

    async def __call__(self, host, port):
        self.entered.set()
        try:
            await asyncio.wait_for(self.release.wait(), self.seconds)
        except TimeoutError:
            pass
        self.order.append("lookup answered")
        return [ipaddress.ip_address(PUBLIC_ADDRESS)]


async def hang(host, port):
    await asyncio.Event().wait()


async def five_seconds(host, port):
    await asyncio.sleep(5)
    return [ipaddress.ip_address(PUBLIC_ADDRESS)]


async def stored_hooks(tenant) -> list:
    return (await tenant.get("/v1/webhooks")).json()["data"]


async def test_a_slow_lookup_stalls_no_other_workspace(tenant, other_tenant, resolver):
    """Another workspace's list answers while the lookup is still pending. Before the
    lookup moved out of the transaction, on SQLite the list waited for the connection
    the creation held, and the lookup answered first."""
    order: list[str] = []
    lookup = resolver.names["slow.test"] = GatedLookup(order)
    creating = asyncio.create_task(tenant.post("/v1/webhooks", {"url": "http://slow.test/h"}))
    await lookup.entered.wait()
    listing = await other_tenant.get("/v1/contacts")
    order.append("list answered")
    lookup.release.set()
    assert listing.status_code == 200, listing.text
    created = await creating
    assert created.status_code == 201, created.text
    assert order == ["list answered", "lookup answered"]
    assert [hook["url"] for hook in await stored_hooks(tenant)] == ["http://slow.test/h"]


async def test_a_slow_lookup_from_the_console_stalls_no_other_workspace(
    app, runtime, tenant, other_tenant, resolver
):
    order: list[str] = []
    lookup = resolver.names["slow.test"] = GatedLookup(order)
    member = await make_member(runtime, tenant.id)
    async with member_browser(app, runtime, member) as console:
        creating = asyncio.create_task(
            post_form(
                console, "/console/webhooks", "/console/webhooks", {"url": "http://slow.test/h"}
            )
        )
        await lookup.entered.wait()
        listing = await other_tenant.get("/v1/contacts")
        order.append("list answered")
        lookup.release.set()
        assert listing.status_code == 200
        assert (await creating).status_code == 200
    assert order == ["list answered", "lookup answered"]
    assert [hook["url"] for hook in await stored_hooks(tenant)] == ["http://slow.test/h"]


@pytest.mark.parametrize("settings_overrides", [{"webhook_dns_timeout_seconds": 0.2}])
async def test_a_lookup_past_the_timeout_is_400_naming_url(tenant, resolver):
    resolver.names["hang.test"] = five_seconds
    response = await tenant.post("/v1/webhooks", {"url": "https://hang.test/hook"})
    assert failing_fields(response) == {"url"}
    [item] = response.json()["error"]["details"]["errors"]
    assert item["message"].startswith("its host did not resolve within 0.2 s"), item
    assert "hang.test" not in response.text  # an error repeats no value that was sent
    assert await stored_hooks(tenant) == []


async def test_a_name_that_does_not_resolve_is_400_naming_url(tenant):
    response = await tenant.post("/v1/webhooks", {"url": "http://no-such-host.invalid/h"})
    assert failing_fields(response) == {"url"}
    assert "does not resolve" in response.text


async def test_a_name_resolving_inside_is_refused_when_private_urls_are(tenant, runtime):
    runtime.settings.webhook_allow_private_urls = False
    response = await tenant.post("/v1/webhooks", {"url": "http://localhost:9/h"})
    assert failing_fields(response) == {"url"}
    assert "loopback" in response.text
    assert (await tenant.post("/v1/webhooks", {"url": "http://public.test/h"})).status_code == 201


async def test_only_a_credential_that_may_create_webhooks_makes_a_lookup(client, make, resolver):
    """No credential, a key without webhooks:manage, or a body that validation refuses
    anyway: DNS is never asked."""
    url = {"url": "http://public.test/h"}
    assert_error(await client.post("/v1/webhooks", json=url), 401, "unauthenticated")
    reader = await make([Scope.contacts_read])
    assert (await reader.post("/v1/webhooks", url)).status_code == 403
    manager = await make([Scope.webhooks_manage])
    for body in ({"url": 5}, ["http://public.test/h"], {"url": "ftp://public.test/h"}):
        assert failing_fields(await manager.post("/v1/webhooks", body)), body
    assert resolver.asked == []
    assert (await manager.post("/v1/webhooks", url)).status_code == 201
    assert resolver.asked == ["public.test"]


async def test_a_key_revoked_during_the_lookup_creates_nothing(tenant, runtime, resolver):
    """The credential is checked again when the transaction opens after the lookup."""
    lookup = resolver.names["slow.test"] = GatedLookup([])
    creating = asyncio.create_task(tenant.post("/v1/webhooks", {"url": "http://slow.test/h"}))
    await lookup.entered.wait()
    async with runtime.db.transaction() as connection:
        assert await revoke_api_key(connection, tenant.key_id, runtime.clock())
    lookup.release.set()
    assert_error(await creating, 401, "unauthenticated")
    async with runtime.db.transaction(write=False) as connection:
        count = (
            await connection.exec_driver_sql("SELECT count(*) FROM webhook_subscriptions")
        ).scalar()
    assert count == 0


@pytest.mark.parametrize("settings_overrides", [{"webhook_dns_timeout_seconds": 0.2}])
async def test_send_time_lookups_use_the_resolver_and_its_bound(tenant, runtime, resolver):
    """The attempt resolves through the same injected resolver, bounded the same way: a
    host whose DNS stops answering after creation fails the attempt, not the worker."""
    resolver.names["flaky.test"] = [PUBLIC_ADDRESS]
    hook = await subscribe(tenant, "http://flaky.test/h", ["contact.created"])
    resolver.names["flaky.test"] = hang
    assert (await tenant.post("/v1/contacts", {"first_name": "Ana"})).status_code == 201
    await work(runtime)
    [delivery] = (await tenant.get(f"/v1/webhooks/{hook['id']}/deliveries")).json()["data"]
    [attempt] = delivery["attempt_log"]
    assert attempt["outcome"] == "failed", attempt
    assert "its host did not resolve within 0.2 s" in attempt["error"], attempt
    assert resolver.asked == ["flaky.test", "flaky.test"]


async def test_no_test_can_ask_the_machines_resolver():
    """The backstop for code that skips runtime.resolver: getaddrinfo, directly or
    through the event loop, refuses every name but localhost; the stub refuses names it
    was not told about."""
    with pytest.raises(UnknownTestHost):
        socket.getaddrinfo("example.com", 80)
    with pytest.raises(UnknownTestHost):
        await asyncio.get_running_loop().getaddrinfo("example.com", 80)
    assert socket.getaddrinfo("127.0.0.1", 80) and socket.getaddrinfo("localhost", 80)
    with pytest.raises(UnknownTestHost):
        await StubResolver()("example.com", 80)


def test_the_dns_timeout_is_bounded():
    assert Settings(secret_key="k" * 20).webhook_dns_timeout_seconds == 2
    for value in (0, 31):
        with pytest.raises(ValidationError):
            Settings(secret_key="k" * 20, webhook_dns_timeout_seconds=value)
