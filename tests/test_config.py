"""Settings: HOMEBASE_* variables, refused placeholder secrets, and bounds that keep a
mistyped value from starting a service that cannot work (a zero timeout fails every
webhook; a zero poll interval spins the worker)."""

import pytest
from pydantic import ValidationError

from homebase.config import PLACEHOLDER_SECRETS, Settings

REAL_SECRET = "k" * 40


@pytest.mark.parametrize("placeholder", sorted(PLACEHOLDER_SECRETS))
def test_production_refuses_a_placeholder_secret(placeholder):
    with pytest.raises(ValidationError, match="HOMEBASE_SECRET_KEY must be set"):
        Settings(env="production", secret_key=placeholder)


def test_production_takes_a_real_secret():
    assert Settings(env="production", secret_key=REAL_SECRET).secret_key == REAL_SECRET


def test_variables_are_read_with_the_homebase_prefix(monkeypatch):
    monkeypatch.setenv("HOMEBASE_WEBHOOK_TIMEOUT_SECONDS", "3.5")
    monkeypatch.setenv("HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN", "7")
    settings = Settings(env="test", secret_key=REAL_SECRET)
    assert (settings.webhook_timeout_seconds, settings.rate_limit_api_key_per_min) == (3.5, 7)


@pytest.mark.parametrize("name, value", [
    ("webhook_timeout_seconds", 0), ("worker_poll_seconds", 0),
    ("webhook_backoff_unit_seconds", -1), ("redis_retry_seconds", -1),
    ("sqlite_pool_size", 0), ("rate_limit_api_key_per_min", 0),
    ("rate_limit_app_per_min", 0), ("messaging_provider_timeout_seconds", 0),
    ("calendar_push_timeout_seconds", 0),
])
def test_out_of_range_values_are_refused_naming_the_setting(name, value):
    with pytest.raises(ValidationError) as raised:
        Settings(env="test", secret_key=REAL_SECRET, **{name: value})
    assert [error["loc"] for error in raised.value.errors()] == [(name,)]


def test_zero_backoff_and_retry_are_allowed():
    settings = Settings(env="test", secret_key=REAL_SECRET, webhook_backoff_unit_seconds=0,
                        redis_retry_seconds=0)
    assert (settings.webhook_backoff_unit_seconds, settings.redis_retry_seconds) == (0, 0)
