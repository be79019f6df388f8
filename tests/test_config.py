"""Settings: HOMEBASE_* variables, refused placeholder secrets, and bounds that keep a
mistyped value from starting a service that cannot work (a zero timeout fails every
webhook; a zero poll interval spins the worker)."""

import math
import os
import secrets
import shutil
import stat
import subprocess
import sys

import pytest
from pydantic import ValidationError

from homebase.config import (
    DEFAULT_PUBLIC_URL,
    MIN_PRODUCTION_SECRET_BITS,
    MIN_PRODUCTION_SECRET_DISTINCT,
    MIN_PRODUCTION_SECRET_LENGTH,
    PLACEHOLDER_SECRETS,
    Settings,
)

# What secrets.token_urlsafe(32) printed once: 43 characters, the shortest production takes.
REAL_SECRET = "q2Xn8VbK3tLw0Pz7Ry5JcA1mHs9Ue4FgDk6Io_Nv-Yh"
OTHER_SECRET = "Zr4Tq9Wm2Xk7Vb1Nc8Ls3Hd6Jf0Gp5Ay_Ue-Oi2Bw7E"


PUBLIC_URL = "https://crm.example.com"


@pytest.fixture(autouse=True)
def _named_ai_provider(monkeypatch):
    """Production refuses to start without HOMEBASE_AI_PROVIDER (tested below); the other
    production rules here are tested with it and an https:// public URL named."""
    monkeypatch.setenv("HOMEBASE_AI_PROVIDER", "local")
    monkeypatch.setenv("HOMEBASE_PUBLIC_URL", PUBLIC_URL)


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


def test_the_ai_quiet_window_fits_in_the_longest_wait():
    defaults = Settings(env="test")
    assert (defaults.ai_quiet_seconds, defaults.ai_max_wait_seconds) == (4, 20)
    assert Settings(env="test", ai_quiet_seconds=0).ai_quiet_seconds == 0  # no wait
    same = Settings(env="test", ai_quiet_seconds=7, ai_max_wait_seconds=7)
    assert same.ai_max_wait_seconds == same.ai_quiet_seconds
    with pytest.raises(ValidationError, match="HOMEBASE_AI_MAX_WAIT_SECONDS must be at least"):
        Settings(env="test", ai_quiet_seconds=10, ai_max_wait_seconds=5)
    with pytest.raises(ValidationError, match="ai_quiet_seconds"):
        Settings(env="test", ai_quiet_seconds=-1)


# -- The public URL in production ------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://crm.example.com",
        "http://crm.example.com:8000/",
        "http://10.0.0.5:8000",
        "http://192.168.1.20",
        "http://[2001:db8::1]:8000",
        "http://128.0.0.1",  # just outside 127.0.0.0/8
        "http://localhost.example.com",
    ],
)
def test_production_refuses_plain_http_off_loopback(url):
    with pytest.raises(ValidationError) as raised:
        Settings(env="production", secret_key=REAL_SECRET, public_url=url)
    [error] = raised.value.errors()
    assert error["msg"] == (
        "Value error, HOMEBASE_PUBLIC_URL must be https:// (http:// only on loopback: "
        "localhost, 127.0.0.0/8, ::1): console cookies are marked Secure only under https "
        "in production"
    )


@pytest.mark.parametrize(
    "url",
    [
        PUBLIC_URL,
        "https://10.0.0.5:8443/",
        "http://localhost:8000",
        "http://LOCALHOST",
        "http://127.0.0.1:8000",
        "http://127.5.6.7:9000",
        "http://[::1]:8000",
    ],
)
def test_production_takes_https_anywhere_and_http_on_loopback(url):
    assert Settings(env="production", secret_key=REAL_SECRET, public_url=url).public_url == url


@pytest.mark.parametrize(
    "url", ["crm.example.com", "ftp://crm.example.com", "https://", "http://[::1"]
)
def test_production_refuses_a_public_url_that_is_no_web_address(url):
    with pytest.raises(ValidationError, match="HOMEBASE_PUBLIC_URL must be an https:// address"):
        Settings(env="production", secret_key=REAL_SECRET, public_url=url)


@pytest.mark.parametrize("unset", [None, "", "  "], ids=["absent", "empty", "blank"])
def test_an_unset_public_url_is_the_loopback_default_in_every_env(monkeypatch, unset):
    if unset is None:
        monkeypatch.delenv("HOMEBASE_PUBLIC_URL", raising=False)
    else:
        monkeypatch.setenv("HOMEBASE_PUBLIC_URL", unset)
    # Production too: the default is loopback, which the https:// rule allows.
    production = Settings(env="production", secret_key=REAL_SECRET, ai_provider="local")
    assert production.public_url == DEFAULT_PUBLIC_URL
    assert Settings(env="development").public_url == DEFAULT_PUBLIC_URL
    assert Settings(env="test").public_url == DEFAULT_PUBLIC_URL


def test_a_refused_public_url_stops_a_command_with_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOMEBASE_")}
    env.update(
        HOMEBASE_ENV="production",
        HOMEBASE_SECRET_KEY=REAL_SECRET,
        HOMEBASE_AI_PROVIDER="local",
        HOMEBASE_PUBLIC_URL="http://crm.example.com",
        HOMEBASE_DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3",
    )
    done = subprocess.run(
        [sys.executable, "-m", "homebase", "migrate"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "error: HOMEBASE_PUBLIC_URL must be https:// (http:// only on loopback: localhost, "
        "127.0.0.0/8, ::1): console cookies are marked Secure only under https in production"
    ]
    assert not (tmp_path / "db.sqlite3").exists()


# -- The database URL --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///var/homebase.sqlite3",
        "sqlite+aiosqlite:///var/homebase.sqlite3",
        "sqlite+aiosqlite:///:memory:",
        "postgresql+asyncpg://homebase:pw@127.0.0.1:5432/homebase",
    ],
)
def test_the_supported_database_urls_are_taken(url):
    assert Settings(env="test", database_url=url).database_url == url


@pytest.mark.parametrize(
    "url, reason",
    [
        ("mysql://u:secret-pw@h/db", "names a database homebase does not run on ('mysql')"),
        ("mysql+aiomysql://u@h/db", "names a database homebase does not run on ('mysql+aiomysql')"),
        ("foo://", "names a database homebase does not run on ('foo')"),
        (
            "postgresql://u@h/db",
            "names PostgreSQL through 'postgresql', which homebase does not use",
        ),
        ("postgresql+psycopg://u@h/db", "names PostgreSQL through 'postgresql+psycopg'"),
        ("homebase.sqlite3", "is not a database URL"),
    ],
)
def test_another_database_url_is_refused_naming_the_supported_kinds(url, reason):
    with pytest.raises(ValidationError) as raised:
        Settings(env="test", database_url=url)
    [error] = raised.value.errors()
    assert error["loc"] == ("database_url",)
    assert reason in error["msg"]
    assert error["msg"].endswith(
        "; supported: sqlite:///PATH (or sqlite+aiosqlite:///PATH) or "
        "postgresql+asyncpg://USER:PASSWORD@HOST:PORT/DATABASE"
    )
    assert "secret-pw" not in error["msg"]  # the one line the commands print
