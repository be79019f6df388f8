"""The client address (kit/client_address.py) and HOMEBASE_TRUSTED_PROXIES; `peek` of
each limiter (what a hit would answer, counting nothing)."""

import uuid

import pytest
from pydantic import ValidationError

from homebase.config import Settings
from homebase.kit.client_address import budget_key, client_address, parse_networks
from homebase.ratelimit import MemoryLimiter, RedisLimiter
from homebase.ratelimit.host import HostLimiter, prepare
from tests.ratelimit.test_ratelimit import WINDOW_START, HandClock, fresh_window
from tests.support import REDIS_URL, require_server

TRUSTED = parse_networks("203.0.113.10, 10.0.0.0/8, fd00::/8")


def test_networks_are_addresses_and_cidr_ranges_of_both_families():
    assert [str(n) for n in parse_networks(" 203.0.113.10 ,10.0.0.0/8,, fd00::/8 ")] == [
        "203.0.113.10/32",
        "10.0.0.0/8",
        "fd00::/8",
    ]
    assert parse_networks("") == ()


@pytest.mark.parametrize(
    "value", ["10.0.0.1/8", "proxy.internal", "10.0.0.300", "10.0.0.0/33", "fd00::/8/1"]
)
def test_a_bad_trusted_proxies_value_is_refused_at_start_naming_the_setting(monkeypatch, value):
    monkeypatch.setenv("HOMEBASE_TRUSTED_PROXIES", f"10.1.1.1, {value}")
    with pytest.raises(ValidationError) as raised:
        Settings(env="test", secret_key="k" * 43)
    (error,) = raised.value.errors()
    assert error["loc"] == ("trusted_proxies",)
    assert "HOMEBASE_TRUSTED_PROXIES" in error["msg"] and repr(value) in error["msg"]


def test_the_setting_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("HOMEBASE_TRUSTED_PROXIES", "10.0.0.0/8,::1")
    monkeypatch.setenv("HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN", "7")
    settings = Settings(env="test", secret_key="k" * 43)
    assert [str(n) for n in settings.trusted_networks] == ["10.0.0.0/8", "::1/128"]
    assert settings.rate_limit_unauthenticated_per_min == 7
    monkeypatch.delenv("HOMEBASE_TRUSTED_PROXIES")
    assert Settings(env="test", secret_key="k" * 43).trusted_networks == ()
    with pytest.raises(ValidationError):
        Settings(env="test", secret_key="k" * 43, rate_limit_unauthenticated_per_min=0)


@pytest.mark.parametrize(
    "peer, forwarded, expected",
    [
        # An untrusted peer: its header is ignored, however it is spelled.
        ("198.51.100.5", ["1.2.3.4"], "198.51.100.5"),
        ("198.51.100.5", ["10.0.0.1, 1.2.3.4"], "198.51.100.5"),
        # A trusted peer: the rightmost entry that is not a trusted proxy.
        ("10.0.0.2", ["1.2.3.4"], "1.2.3.4"),
        ("10.0.0.2", ["6.6.6.6, 1.2.3.4"], "1.2.3.4"),  # the client's own claim is left of it
        ("10.0.0.2", ["6.6.6.6, 1.2.3.4, 203.0.113.10, 10.9.9.9"], "1.2.3.4"),  # a chain
        ("10.0.0.2", ["6.6.6.6", "1.2.3.4, 10.9.9.9"], "1.2.3.4"),  # several header lines
        ("10.0.0.2", ["10.3.3.3, 10.4.4.4"], "10.3.3.3"),  # all trusted: the farthest hop
        ("10.0.0.2", [], "10.0.0.2"),  # a trusted peer that forwards nothing
        # Malformed entries stop the walk at the nearest trusted hop.
        ("10.0.0.2", ["garbage"], "10.0.0.2"),
        ("10.0.0.2", ["1.2.3.4, garbage, 10.9.9.9"], "10.9.9.9"),
        ("10.0.0.2", ["1.2.3.4, "], "10.0.0.2"),
        ("10.0.0.2", ["999.0.0.1"], "10.0.0.2"),
        # How proxies write addresses: ports, brackets, IPv6, IPv4-mapped IPv6.
        ("10.0.0.2", ["1.2.3.4:5678"], "1.2.3.4"),
        ("10.0.0.2", ["[2001:db8::1]:443"], "2001:db8::1"),
        ("10.0.0.2", ["2001:DB8:0::1"], "2001:db8::1"),
        ("fd00::1", ["2001:db8::7"], "2001:db8::7"),
        ("::ffff:10.0.0.2", ["1.2.3.4"], "1.2.3.4"),
        ("::ffff:198.51.100.5", ["1.2.3.4"], "198.51.100.5"),
        # A peer that is not an IP address (a test client, a Unix socket) is itself.
        ("testclient", ["1.2.3.4"], "testclient"),
        (None, ["1.2.3.4"], "unknown"),
    ],
)
def test_client_address(peer, forwarded, expected):
    assert client_address(peer, forwarded, TRUSTED) == expected


def test_without_trusted_proxies_the_peer_is_the_client():
    assert client_address("127.0.0.1", ["1.2.3.4"], ()) == "127.0.0.1"


def test_ipv6_is_counted_per_64():
    assert (
        budget_key("2001:db8:1:2:aaaa::1")
        == budget_key("2001:db8:1:2:bbbb::9")
        == "2001:db8:1:2::/64"
    )
    assert budget_key("2001:db8:1:3::1") != budget_key("2001:db8:1:2::1")
    assert budget_key("1.2.3.4") == "1.2.3.4"
    assert budget_key("testclient") == "testclient"


# --- peek -------------------------------------------------------------------------------


async def test_memory_peek_answers_as_a_hit_would_and_counts_nothing():
    clock = HandClock(WINDOW_START + 20.0)
    limiter = MemoryLimiter(clock=clock)
    assert (await limiter.peek("k", 2)).allowed
    await limiter.hit("k", 2)
    peeked = await limiter.peek("k", 2)
    assert (peeked.allowed, peeked.remaining) == (True, 0)
    await limiter.hit("k", 2)
    refused = await limiter.peek("k", 2)
    assert (refused.allowed, refused.retry_after, refused.reset_at) == (
        False,
        40,
        WINDOW_START + 60,
    )
    assert not (await limiter.peek("k", 2)).allowed
    assert (await limiter.hit("k", 2)).remaining == 0  # peeks counted nothing: third hit
    clock.now = WINDOW_START + 60.0
    assert (await limiter.peek("k", 2)).allowed  # a new window


async def test_host_file_peek(tmp_path):
    limiter = HostLimiter(prepare(tmp_path / "limits.sqlite3"), clock=HandClock(WINDOW_START + 5.0))
    try:
        assert (await limiter.peek("k", 1)).allowed
        assert (await limiter.hit("k", 1)).allowed
        assert not (await limiter.peek("k", 1)).allowed
        assert not (await limiter.hit("k", 1)).allowed  # the peek was not a hit
        assert (await limiter.peek("other", 1)).allowed
    finally:
        await limiter.close()


async def test_redis_peek_is_shared_and_counts_nothing():
    require_server("Redis", REDIS_URL, 6379)
    await fresh_window(5)
    first, second = RedisLimiter(REDIS_URL), RedisLimiter(REDIS_URL)
    bucket = f"test-peek:{uuid.uuid4().hex}"
    try:
        assert (await first.peek(bucket, 2)).allowed
        await first.hit(bucket, 2)
        assert (await second.peek(bucket, 2)).remaining == 0
        await second.hit(bucket, 2)
        assert not (await first.peek(bucket, 2)).allowed
        assert (await first.hit(bucket, 2)).remaining == 0
        assert not (await second.hit(bucket, 2)).allowed
    finally:
        await first.close()
        await second.close()
