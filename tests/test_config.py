"""Settings: HOMEBASE_* variables, refused placeholder secrets, and bounds that keep a
mistyped value from starting a service that cannot work (a zero timeout fails every
webhook; a zero poll interval spins the worker)."""

import math
import os
import secrets
import shutil
import stat
import subprocess

import pytest
from pydantic import ValidationError

from homebase.config import (
    MIN_PRODUCTION_SECRET_BITS,
    MIN_PRODUCTION_SECRET_DISTINCT,
    MIN_PRODUCTION_SECRET_LENGTH,
    PLACEHOLDER_SECRETS,
    Settings,
)

# What secrets.token_urlsafe(32) printed once: 43 characters, the shortest production takes.
REAL_SECRET = "q2Xn8VbK3tLw0Pz7Ry5JcA1mHs9Ue4FgDk6Io_Nv-Yh"
OTHER_SECRET = "Zr4Tq9Wm2Xk7Vb1Nc8Ls3Hd6Jf0Gp5Ay_Ue-Oi2Bw7E"


@pytest.fixture(autouse=True)
def _named_ai_provider(monkeypatch):
    """Production refuses to start without HOMEBASE_AI_PROVIDER (tested below); the
    other production rules here are tested with one named."""
    monkeypatch.setenv("HOMEBASE_AI_PROVIDER", "local")


@pytest.mark.parametrize("placeholder", sorted(PLACEHOLDER_SECRETS))
def test_production_refuses_a_placeholder_secret(placeholder):
    with pytest.raises(ValidationError, match="HOMEBASE_SECRET_KEY must be set"):
        Settings(env="production", secret_key=placeholder)


def test_production_takes_a_real_secret():
    assert Settings(env="production", secret_key=REAL_SECRET).secret_key == REAL_SECRET


def test_production_refuses_a_short_secret_naming_the_variable():
    with pytest.raises(ValidationError, match="HOMEBASE_SECRET_KEY must be at least 43"):
        Settings(env="production", secret_key=REAL_SECRET[:42])
    assert Settings(env="test", secret_key="short").secret_key == "short"  # tests, dev


def _openssl_rand_hex() -> str:
    """`openssl rand -hex 32` where the machine has it; the same 64 hex digits otherwise."""
    openssl = shutil.which("openssl")
    if openssl is None:
        return secrets.token_hex(32)
    printed = subprocess.run(
        [openssl, "rand", "-hex", "32"], capture_output=True, text=True, check=True
    )
    return printed.stdout.strip()


@pytest.mark.parametrize(
    "generate", [lambda: secrets.token_urlsafe(32), _openssl_rand_hex], ids=["urlsafe", "hex"]
)
def test_production_takes_the_generated_secrets_the_message_names(generate):
    for _ in range(20):
        key, previous = generate(), generate()
        settings = Settings(env="production", secret_key=key, secret_key_previous=previous)
        assert settings.keys.verifying == (key, previous)


@pytest.mark.parametrize(
    "weak, reason",
    [
        ("a" * 53, "must hold at least 8 distinct characters (it holds 1)"),
        ("abcdefg" * 8, "must hold at least 8 distinct characters (it holds 7)"),
        ("0123456789abcdef" * 2, "must be at least 43 characters"),
    ],
    ids=["one-character", "seven-characters", "short"],
)
@pytest.mark.parametrize("variable", ["HOMEBASE_SECRET_KEY", "HOMEBASE_SECRET_KEY_PREVIOUS"])
def test_production_refuses_a_weak_secret_saying_how_to_generate_one(weak, reason, variable):
    given = (
        {"secret_key": weak}
        if variable == "HOMEBASE_SECRET_KEY"
        else {"secret_key": REAL_SECRET, "secret_key_previous": weak}
    )
    with pytest.raises(ValidationError) as refused:
        Settings(env="production", **given)
    message = str(refused.value)
    assert f"{variable} {reason} in production; generate one with: " in message
    assert "secrets.token_urlsafe(32)" in message and "openssl rand -hex 32" in message
    assert Settings(env="test", **given)  # tests and development take any key


def test_the_minimums_give_128_bits_by_length_times_log2_distinct():
    """The rule is stated as at least 8 distinct characters and 128 bits estimated as
    length x log2(distinct characters); with 43 characters the first implies the second."""
    least = MIN_PRODUCTION_SECRET_LENGTH * math.log2(MIN_PRODUCTION_SECRET_DISTINCT)
    assert least >= MIN_PRODUCTION_SECRET_BITS == 128


def test_previous_secret_is_bounded_too_and_must_differ():
    with pytest.raises(ValidationError, match="HOMEBASE_SECRET_KEY_PREVIOUS must be at least 43"):
        Settings(env="production", secret_key=REAL_SECRET, secret_key_previous="old")
    with pytest.raises(ValidationError, match="HOMEBASE_SECRET_KEY_PREVIOUS must differ"):
        Settings(env="test", secret_key=REAL_SECRET, secret_key_previous=REAL_SECRET)
    settings = Settings(env="production", secret_key=REAL_SECRET, secret_key_previous=OTHER_SECRET)
    assert settings.keys.verifying == (REAL_SECRET, OTHER_SECRET)
    assert Settings(env="test", secret_key=REAL_SECRET).keys.verifying == (REAL_SECRET,)


def test_generated_development_key_file_is_created_0600(tmp_path, monkeypatch):
    """Created with mode 0600 by the open itself: the file never exists with looser bits,
    whatever the umask (a write then chmod leaves a window where others may read it)."""
    created_modes = []
    real_open = os.open

    def watching_open(path, flags, mode=0o777, *args, **kwargs):
        descriptor = real_open(path, flags, mode, *args, **kwargs)
        if str(path).endswith("secret_key"):
            created_modes.append(stat.S_IMODE(os.fstat(descriptor).st_mode))
        return descriptor

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("HOMEBASE_SECRET_KEY", raising=False)
    monkeypatch.setattr(os, "open", watching_open)
    old_umask = os.umask(0o022)
    try:
        key = Settings(env="development").secret_key
    finally:
        os.umask(old_umask)
    path = tmp_path / "var" / "secret_key"
    assert created_modes == [0o600]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == key and len(key) >= 43
    assert Settings(env="development").secret_key == key  # kept across restarts


def test_variables_are_read_with_the_homebase_prefix(monkeypatch):
    monkeypatch.setenv("HOMEBASE_WEBHOOK_TIMEOUT_SECONDS", "3.5")
    monkeypatch.setenv("HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN", "7")
    settings = Settings(env="test", secret_key=REAL_SECRET)
    assert (settings.webhook_timeout_seconds, settings.rate_limit_api_key_per_min) == (3.5, 7)


@pytest.mark.parametrize(
    "name, value",
    [
        ("webhook_timeout_seconds", 0),
        ("worker_poll_seconds", 0),
        ("webhook_backoff_unit_seconds", -1),
        ("redis_retry_seconds", -1),
        ("sqlite_pool_size", 0),
        ("rate_limit_api_key_per_min", 0),
        ("rate_limit_app_per_min", 0),
        ("messaging_provider_timeout_seconds", 0),
        ("calendar_push_timeout_seconds", 0),
        ("retention_events_days", 0),
        ("retention_interval_minutes", 0),
        ("retention_batch_size", 0),
        ("retention_max_batches", 0),
        ("worker_metrics_port", 0),
        ("worker_metrics_port", 65536),
        ("worker_metrics_host", ""),
        ("email_from", "Homebase <no-reply@example.com>"),
        ("email_from", "a@example.com\nBcc: b@x.io"),
    ],
)
def test_out_of_range_values_are_refused_naming_the_setting(name, value):
    with pytest.raises(ValidationError) as raised:
        Settings(env="test", secret_key=REAL_SECRET, **{name: value})
    assert [error["loc"] for error in raised.value.errors()] == [(name,)]


def test_worker_metrics_port_is_off_unless_set(monkeypatch):
    assert Settings(env="test", secret_key=REAL_SECRET).worker_metrics_port is None
    monkeypatch.setenv("HOMEBASE_WORKER_METRICS_PORT", "")
    assert Settings(env="test", secret_key=REAL_SECRET).worker_metrics_port is None
    monkeypatch.setenv("HOMEBASE_WORKER_METRICS_PORT", "9464")
    settings = Settings(env="test", secret_key=REAL_SECRET)
    assert (settings.worker_metrics_host, settings.worker_metrics_port) == ("127.0.0.1", 9464)


def test_cors_origins_are_off_unless_set_and_kept_as_browsers_send_them(monkeypatch):
    assert Settings(env="test", secret_key=REAL_SECRET).cors_allowed_origins == ()
    monkeypatch.setenv(
        "HOMEBASE_CORS_ORIGINS",
        " https://app.example.com ,HTTPS://App.Example.COM:443, http://127.0.0.1:5173,"
        "http://[0:0::1]:8080,http://localhost:80,",
    )
    assert Settings(env="test", secret_key=REAL_SECRET).cors_allowed_origins == (
        "https://app.example.com",
        "http://127.0.0.1:5173",
        "http://[::1]:8080",
        "http://localhost",
    )


@pytest.mark.parametrize(
    "origin, problem",
    [
        ("https://app.example.com/", "no path"),
        ("https://app.example.com/app", "no path"),
        ("https://app.example.com?x=1", "no path, query"),
        ("https://app.example.com#top", "fragment"),
        ("app.example.com", "http:// or https://"),
        ("ftp://app.example.com", "http:// or https://"),
        ("null", "http:// or https://"),
        ("*", "wildcards"),
        ("https://*.example.com", "wildcards"),
        ("https://user:pw@app.example.com", "user name or password"),
        ("https://app.example.com:99999", "port"),
        ("https://", "no host"),
        ("https://bad_host.example.com", "not a valid host"),
        ("https://[::zz]", "IPv6"),
        ("https://bücher.example", "punycode"),
    ],
)
def test_cors_origins_refuse_what_is_not_an_origin(origin, problem):
    with pytest.raises(ValidationError, match="HOMEBASE_CORS_ORIGINS") as raised:
        Settings(env="test", secret_key=REAL_SECRET, cors_origins=f"https://ok.example, {origin}")
    assert problem in str(raised.value) and repr(origin) in str(raised.value)


def test_zero_backoff_and_retry_are_allowed():
    settings = Settings(
        env="test", secret_key=REAL_SECRET, webhook_backoff_unit_seconds=0, redis_retry_seconds=0
    )
    assert (settings.webhook_backoff_unit_seconds, settings.redis_retry_seconds) == (0, 0)


def test_production_refuses_to_start_without_a_named_ai_provider(monkeypatch):
    monkeypatch.delenv("HOMEBASE_AI_PROVIDER")
    with pytest.raises(ValidationError, match="HOMEBASE_AI_PROVIDER must be set in production"):
        Settings(env="production", secret_key=REAL_SECRET)
    assert Settings(env="development").ai_provider_name == "local"
    named = Settings(env="production", secret_key=REAL_SECRET, ai_provider="local")
    assert named.ai_provider_name == "local"


def test_the_ai_lease_must_outlast_the_model_timeout():
    with pytest.raises(ValidationError, match="HOMEBASE_AI_LEASE_SECONDS must exceed"):
        Settings(env="test", ai_timeout_seconds=30, ai_lease_seconds=30)
