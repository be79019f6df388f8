"""All configuration, read once from HOMEBASE_* environment variables."""

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

VAR_DIR = Path("var")
PLACEHOLDER_SECRETS = {"", "change-me", "changeme", "secret", "dev"}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HOMEBASE_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    database_url: str = f"sqlite+aiosqlite:///{VAR_DIR}/homebase.sqlite3"
    redis_url: str | None = None
    secret_key: str = ""
    public_url: str = "http://127.0.0.1:8000"

    rate_limit_api_key_per_min: int = Field(120, ge=1)
    rate_limit_app_per_min: int = Field(300, ge=1)
    # While Redis is unreachable the limiter falls back to per-instance counting and
    # retries Redis after this many seconds.
    redis_retry_seconds: float = Field(5.0, ge=0)

    api_key_default_ttl_days: int = Field(90, ge=0)

    webhook_timeout_seconds: float = Field(10, gt=0)
    webhook_backoff_unit_seconds: float = Field(60, ge=0)
    webhook_allow_private_urls: bool = False
    worker_poll_seconds: float = Field(1, gt=0)
    # Webhook delivery (docs/webhooks.md). A claimed delivery is leased for this long; it
    # must outlast the timeout so a live worker never loses a lease mid-attempt.
    webhook_lease_seconds: float = Field(60, gt=0)
    webhook_max_response_bytes: int = Field(65536, ge=0)  # read at most this much of a reply
    webhook_fanout_batch: int = Field(500, ge=1)  # outbox rows fanned out per transaction
    webhook_delivery_batch: int = Field(50, ge=1)  # deliveries claimed and sent at once

    # Calls (docs/deals-listings-calls.md): recordings are streamed from this folder by the
    # signed-link proxy; provider callbacks are HMAC-signed with this secret (unset: refused).
    recordings_dir: Path = VAR_DIR / "recordings"
    calls_provider_secret: str = ""

    # Messaging providers (docs/messaging.md). "local" records sends in-process, so the
    # embedded default works offline; twilio speaks the Twilio REST API at the base URL.
    sms_provider: Literal["local", "twilio"] = "local"
    email_provider: Literal["local", "smtp"] = "local"
    email_from: str = "no-reply@homebase.invalid"
    twilio_base_url: str = "https://api.twilio.com"
    twilio_account_sid: str = ""
    twilio_auth_token: str = ""  # also keys the signatures of inbound provider requests
    smtp_host: str = "127.0.0.1"
    smtp_port: int = Field(25, ge=1, le=65535)
    smtp_username: str = ""
    smtp_password: str = ""
    smtp_starttls: bool = False
    messaging_provider_timeout_seconds: float = Field(10, gt=0)
    # A message claimed for sending is leased this long; an expired lease means the
    # worker died mid-send, and the message is failed rather than risk a duplicate.
    messaging_lease_seconds: float = Field(120, gt=0)
    messaging_send_batch: int = Field(20, ge=1)

    # Calendar push (docs/appointments.md): PUT to the creator's CalDAV calendar by the
    # worker after commit; a failure is retried after 1, 2, 4, ... units until the attempts
    # run out. The lease must outlast the timeout.
    calendar_push_timeout_seconds: float = Field(10, gt=0)
    calendar_push_backoff_unit_seconds: float = Field(60, ge=0)
    calendar_push_max_attempts: int = Field(8, ge=1)
    calendar_push_lease_seconds: float = Field(60, gt=0)
    calendar_push_batch: int = Field(20, ge=1)

    # SQLite connection pool: one connection serialises this process's access, which
    # measured fastest for aiosqlite (see docs/performance.md).
    sqlite_pool_size: int = Field(1, ge=1)

    @model_validator(mode="after")
    def _secret_key(self) -> "Settings":
        if self.secret_key in PLACEHOLDER_SECRETS:
            if self.env == "production":
                raise ValueError("HOMEBASE_SECRET_KEY must be set to a real secret in production")
            self.secret_key = _local_secret_key()
        return self

    @model_validator(mode="after")
    def _webhook_lease(self) -> "Settings":
        if self.webhook_lease_seconds <= self.webhook_timeout_seconds:
            raise ValueError("HOMEBASE_WEBHOOK_LEASE_SECONDS must exceed "
                             "HOMEBASE_WEBHOOK_TIMEOUT_SECONDS")
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def _local_secret_key() -> str:
    """Generated once and kept under ./var so restarts keep cursors and links valid."""
    path = VAR_DIR / "secret_key"
    if path.exists():
        return path.read_text().strip()
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    path.write_text(key)
    path.chmod(0o600)
    return key


@lru_cache
def get_settings() -> Settings:
    return Settings()
