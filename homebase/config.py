"""All configuration, read once from HOMEBASE_* environment variables."""

import ipaddress
import os
import secrets
import time
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from homebase.db import settle
from homebase.kit.client_address import Network, parse_networks
from homebase.kit.emails import EMAIL_PATTERN
from homebase.kit.keys import Keyring
from homebase.kit.origins import parse_origins

VAR_DIR = Path("var")
PLACEHOLDER_SECRETS = {"", "change-me", "changeme", "secret", "dev"}
# len(secrets.token_urlsafe(32)): 256 random bits, the least production accepts.
MIN_PRODUCTION_SECRET_LENGTH = 43
# Length alone lets 43 copies of one character through, so a key must also hold this many
# distinct characters. Estimated as length x log2(distinct characters), the two minimums
# give 43 x 3 = 129 bits, over the 128 production asks (tests/test_config.py holds that);
# token_urlsafe(32) (about 30 distinct of 64) and `openssl rand -hex 32` (16) give over 200.
MIN_PRODUCTION_SECRET_DISTINCT = 8
MIN_PRODUCTION_SECRET_BITS = 128
# HOMEBASE_PUBLIC_URL when it is unset, outside production: `homebase serve` sets it to the
# address it listens on (cli/listen.py) before its processes read the settings; other
# commands (worker, admin) use this one.
DEFAULT_PUBLIC_URL = "http://127.0.0.1:8000"
# The databases homebase runs on: any SQLite URL (on homebase's own driver, db/sqlite.py)
# and PostgreSQL through asyncpg.
SUPPORTED_DATABASES = (
    "sqlite:///PATH (or sqlite+aiosqlite:///PATH)",
    "postgresql+asyncpg://USER:PASSWORD@HOST:PORT/DATABASE",
)
GENERATE_SECRET = (
    'generate one with: python -c "import secrets; print(secrets.token_urlsafe(32))" '
    "(or: openssl rand -hex 32)"
)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HOMEBASE_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    database_url: str = f"sqlite+aiosqlite:///{VAR_DIR}/homebase.sqlite3"
    redis_url: str | None = None
    secret_key: str = ""
    # The key before the current one: still verifies and opens what it made (kit/keys.py).
    secret_key_previous: str = ""
    # Unset (empty): DEFAULT_PUBLIC_URL, or what `serve` listens on; production requires it.
    public_url: str = ""

    rate_limit_api_key_per_min: int = Field(120, ge=1)
    rate_limit_app_per_min: int = Field(300, ge=1)
    # Per client address: API requests answered 401, failed client authentication at
    # /oauth/token and /oauth/revoke, failed console sign-ins (docs/decisions.md
    # "Unauthenticated budget").
    rate_limit_unauthenticated_per_min: int = Field(60, ge=1)
    # Comma-separated addresses or CIDR ranges whose X-Forwarded-For is believed
    # (kit/client_address.py); unset: the peer is the client.
    trusted_proxies: str = ""
    # Comma-separated web origins (`https://app.example.com`) whose pages may call the API,
    # /oauth/token, /oauth/revoke and the OAuth discovery document from a browser (CORS,
    # http/cors.py); unset: no cross-origin access, and no CORS code on any request.
    cors_origins: str = ""
    # While Redis is unreachable the limiter falls back to per-instance counting and
    # retries Redis after this many seconds.
    redis_retry_seconds: float = Field(5.0, ge=0)

    api_key_default_ttl_days: int = Field(90, ge=0)
    # How long a member's invitation link works (workspaces/invitations.py), counted on
    # the runtime's clock from when it is made; fractions allowed.
    member_invitation_ttl_hours: float = Field(72, gt=0, le=8760)

    # The largest request body on any route (http/body_limit.py): larger is 413 before it
    # is read. At least 1 KiB, so no limit can refuse the service's own small forms.
    max_body_bytes: int = Field(1_048_576, ge=1024, le=1 << 30)
    # The largest CSV file the console's import upload takes (/console/imports/new, the one
    # route the body limit lets past HOMEBASE_MAX_BODY_BYTES; docs/imports-exports.md).
    import_max_bytes: int = Field(33_554_432, ge=1024, le=1 << 30)

    webhook_timeout_seconds: float = Field(10, gt=0)
    webhook_backoff_unit_seconds: float = Field(60, ge=0)
    webhook_allow_private_urls: bool = False
    worker_poll_seconds: float = Field(1, gt=0)
    # The scheduling priority (niceness, 0-19) a standalone `homebase worker` lowers itself
    # to: on a host it shares with `homebase serve`, the requests' CPU comes first and the
    # worker's bulk work (imports, exports, fan-out) takes what is left (root/worker.py;
    # docs/performance.md, "Bulk imports"). 0: as started.
    worker_nice: int = Field(10, ge=0, le=19)
    # Webhook delivery (docs/webhooks.md). A claimed delivery is leased for this long; it
    # must outlast the timeout so a live worker never loses a lease mid-attempt.
    webhook_lease_seconds: float = Field(60, gt=0)
    webhook_max_response_bytes: int = Field(65536, ge=0)  # read at most this much of a reply
    webhook_fanout_batch: int = Field(500, ge=1)  # outbox rows fanned out per transaction
    webhook_delivery_batch: int = Field(50, ge=1)  # deliveries claimed and sent at once
    # Longest wait for a webhook host's DNS answer, at creation (then 400 naming url) and
    # at each attempt (then a failed attempt). Never inside a database transaction.
    webhook_dns_timeout_seconds: float = Field(2, gt=0, le=30)
    # A subscription whose every attempt failed (none succeeded) for this many days since
    # the first of them is disabled: no new deliveries until re-enabled (docs/webhooks.md,
    # "Subscriptions that keep failing"). Fractions allowed (tests use seconds' worth); at
    # most 100 years, which in effect never disables.
    webhook_disable_after_days: float = Field(5, gt=0, le=36500)
    # Testing hook: resolve host names with kit/dns.py's loopback_only_resolver (localhost
    # only, every other name does not exist) so a served process never asks the machine's
    # resolver (tests/kit/test_schemathesis.py). Refused in production.
    testing_loopback_resolver: bool = False

    # Calls (docs/deals-listings-calls.md): recordings are streamed from this folder by the
    # signed-link proxy; provider callbacks are HMAC-signed with this secret (unset: refused).
    recordings_dir: Path = VAR_DIR / "recordings"
    calls_provider_secret: str = ""
    # Files the service makes for later download (bulk exports, docs/imports-exports.md):
    # every instance and worker must reach the same folder (a shared volume), since a
    # worker writes a file that any instance serves.
    storage_dir: Path = VAR_DIR / "storage"

    # Messaging providers (docs/messaging.md). "local" records sends in-process, so the
    # embedded default works offline; twilio speaks the Twilio REST API at the base URL.
    sms_provider: Literal["local", "twilio"] = "local"
    email_provider: Literal["local", "smtp"] = "local"
    # It becomes the From header and the envelope sender: one bare address, no line break.
    email_from: str = Field("no-reply@homebase.invalid", pattern=EMAIL_PATTERN)
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

    # The AI responder (docs/ai.md). "local" is an offline, deterministic stand-in, the
    # default outside production; production refuses to start unless a provider is named.
    # "openai" speaks the Chat Completions protocol (OpenAI, Ollama, vLLM, llama.cpp's
    # server, LiteLLM) at the base URL, with the key, model and timeout given here only.
    ai_provider: Literal["local", "openai"] | None = None
    ai_base_url: str = Field("https://api.openai.com/v1", min_length=1, max_length=2048)
    ai_api_key: str = Field("", max_length=4096)
    ai_model: str = Field("gpt-4o-mini", min_length=1, max_length=200)
    ai_timeout_seconds: float = Field(20, gt=0, le=300)
    # A failed model call is tried again after 1, then 4 units, then the lead is handed off.
    ai_retry_unit_seconds: float = Field(5, ge=0, le=3600)
    ai_concurrency: int = Field(4, ge=1, le=64)  # model calls at once per worker
    ai_max_replies_per_day: int = Field(10, ge=1, le=1000)  # per contact, rolling 24 hours
    # SMS segments an AI text may take, disclosure and signature included (3: 459 GSM-7
    # or 201 UCS-2 characters; messaging/segments.py).
    ai_max_segments: int = Field(3, ge=1, le=10)
    # A job being composed is leased this long; it must outlast the model's timeout.
    ai_lease_seconds: float = Field(60, gt=0, le=3600)
    # The reply waits until the lead has been quiet this long after their latest text
    # (0: no wait), at most max_wait after the first text it answers: a burst of texts
    # gets one reply that answers them all (docs/ai.md, "The quiet window"). At most 300
    # s: a reply still comes well within 10 minutes of the latest text (a reply, not
    # proactive); the longest wait only ever brings the due time earlier.
    ai_quiet_seconds: float = Field(4, ge=0, le=300)
    ai_max_wait_seconds: float = Field(20, ge=0, le=600)
    # An import that asks for first touches (docs/ai.md, "First touch and follow-ups")
    # spaces them at most this many a minute per workspace.
    ai_first_touch_per_minute: int = Field(20, ge=1, le=10000)

    # AI phone calls (docs/voice.md): "local" is an in-process stand-in for the demo;
    # "twilio" places calls through the Calls API at HOMEBASE_TWILIO_BASE_URL (the SMS
    # provider's account and token) and speaks ConversationRelay on /providers/voice/relay.
    voice_provider: Literal["local", "twilio"] = "local"
    # A line silent this long is prompted once, then the call ends politely.
    voice_silence_seconds: float = Field(8, gt=0, le=120)
    # A call ends politely after this many minutes.
    voice_max_minutes: float = Field(10, gt=0, le=120)
    # A call being placed is leased this long (the Calls API request must fit in it).
    voice_lease_seconds: float = Field(60, gt=0, le=3600)

    # Calendar push (docs/appointments.md): PUT to the creator's CalDAV calendar by the
    # worker after commit; a failure is retried after 1, 2, 4, ... units until the attempts
    # run out. The lease must outlast the timeout.
    calendar_push_timeout_seconds: float = Field(10, gt=0)
    calendar_push_backoff_unit_seconds: float = Field(60, ge=0)
    calendar_push_max_attempts: int = Field(8, ge=1)
    calendar_push_lease_seconds: float = Field(60, gt=0)
    calendar_push_batch: int = Field(20, ge=1)

    # Retention (docs/operations.md, "Retention"): dispatched webhook events, their
    # deliveries and attempts are kept this many days after they finished; the worker
    # prunes at most every interval, in batches of batch_size rows (one short transaction
    # each), at most max_batches batches of each kind per run.
    retention_events_days: int = Field(30, ge=1, le=3650)
    retention_interval_minutes: float = Field(10, gt=0, le=1440)
    retention_batch_size: int = Field(500, ge=1, le=10000)
    retention_max_batches: int = Field(20, ge=1, le=10000)
    # Idempotency-Key (homebase/idempotency/): a stored answer is replayed this long; a
    # request's claim on its key lapses after the lease, so a killed request frees it.
    idempotency_ttl_hours: int = Field(24, ge=1, le=720)
    idempotency_lease_seconds: float = Field(60, ge=1, le=3600)

    # SQLite connection pool: read requests each take a connection and run side by side
    # (WAL); writes go one at a time whatever the size (db/engine.py, docs/performance.md).
    sqlite_pool_size: int = Field(4, ge=1)

    # GET /metrics (homebase/metrics/endpoint.py): when set, `Authorization: Bearer
    # <token>` is required. Unset (empty): open, for a scraper on a private network.
    metrics_token: str = Field("", max_length=512)
    # A standalone `homebase worker` answers GET /metrics (same token) on this port when it
    # is set; unset: no listener (root/worker_metrics.py). Loopback unless told otherwise.
    worker_metrics_port: int | None = Field(None, ge=1, le=65535)
    worker_metrics_host: str = Field("127.0.0.1", min_length=1, max_length=255)
    # Operations (docs/operations.md). Log lines: `text` for people, `json` one
    # object per line for collectors (kit/logs.py).
    log_format: Literal["text", "json"] = "text"
    # PostgreSQL bounds: a statement running longer is cancelled by the server; a request
    # waits at most the pool timeout for a connection and the connect timeout for a new
    # one; past any of them it is answered 503 with Retry-After (http/errors.py).
    database_statement_timeout_seconds: float = Field(30, gt=0, le=3600)
    database_pool_timeout_seconds: float = Field(10, gt=0, le=300)
    # PostgreSQL connections per process and engine (reads, writes): a request waiting
    # for one costs more than its statement (docs/performance.md).
    database_pool_size: int = Field(20, ge=1, le=200)
    database_connect_timeout_seconds: float = Field(5, gt=0, le=120)
    # A write transaction still running after this long is rolled back rather than
    # committed (503, retry); `updated_after` lists and GET /v1/events serve only changes
    # older than the settle interval, which must exceed it by db/settle.MARGIN_SECONDS:
    # together, a late commit never lands behind what a walking client has passed
    # (docs/sync.md).
    database_write_timeout_seconds: float = Field(3, gt=0, le=600)
    sync_settle_seconds: float = Field(5, ge=0, le=3600)
    # /readyz waits at most this long for the database's and Redis's answers.
    readiness_timeout_seconds: float = Field(2, gt=0, le=30)
    # On SIGTERM: requests in flight get this long to finish, then the worker gets as
    # long again to record its batch (releasing its leases) before the process exits.
    shutdown_timeout_seconds: float = Field(10, gt=0, le=300)

    @model_validator(mode="after")
    def _secret_key(self) -> "Settings":
        if self.secret_key in PLACEHOLDER_SECRETS:
            if self.env == "production":
                raise ValueError("HOMEBASE_SECRET_KEY must be set to a real secret in production")
            self.secret_key = _local_secret_key()
        if self.env == "production":
            for name, value in (
                ("HOMEBASE_SECRET_KEY", self.secret_key),
                ("HOMEBASE_SECRET_KEY_PREVIOUS", self.secret_key_previous),
            ):
                weakness = secret_weakness(value) if value else None
                if weakness is not None:
                    raise ValueError(f"{name} {weakness} in production; {GENERATE_SECRET}")
        if self.secret_key_previous == self.secret_key:
            raise ValueError("HOMEBASE_SECRET_KEY_PREVIOUS must differ from HOMEBASE_SECRET_KEY")
        return self

    @model_validator(mode="after")
    def _settle(self) -> "Settings":
        least = self.database_write_timeout_seconds + settle.MARGIN_SECONDS
        if self.sync_settle_seconds < least and self.env != "test":
            raise ValueError(
                "HOMEBASE_SYNC_SETTLE_SECONDS must be at least "
                f"HOMEBASE_DATABASE_WRITE_TIMEOUT_SECONDS + {settle.MARGIN_SECONDS:g} ({least:g})"
            )
        return self

    @model_validator(mode="after")
    def _public_url_for_email(self) -> "Settings":
        # Every email carries a one-click unsubscribe link built from the public URL, and
        # RFC 8058 (and the mailbox providers holding senders to it) want it to be HTTPS.
        if (
            self.env == "production"
            and self.email_provider == "smtp"
            and not self.public_url.startswith("https://")
        ):
            raise ValueError(
                "HOMEBASE_PUBLIC_URL must be an https:// address in production when "
                "HOMEBASE_EMAIL_PROVIDER=smtp: it is the base of every email's one-click "
                "unsubscribe link"
            )
        return self

    @model_validator(mode="after")
    def _testing_hooks(self) -> "Settings":
        if self.testing_loopback_resolver and self.env == "production":
            raise ValueError(
                "HOMEBASE_TESTING_LOOPBACK_RESOLVER is a testing hook; it is refused in production"
            )
        return self

    @model_validator(mode="after")
    def _ai(self) -> "Settings":
        if self.env == "production" and self.ai_provider is None:
            raise ValueError(
                "HOMEBASE_AI_PROVIDER must be set in production: 'openai' (with "
                "HOMEBASE_AI_BASE_URL, HOMEBASE_AI_API_KEY and HOMEBASE_AI_MODEL) or, "
                "knowingly, 'local' (the offline stand-in; docs/ai.md)"
            )
        if self.ai_lease_seconds <= self.ai_timeout_seconds:
            raise ValueError("HOMEBASE_AI_LEASE_SECONDS must exceed HOMEBASE_AI_TIMEOUT_SECONDS")
        if self.ai_max_wait_seconds < self.ai_quiet_seconds:
            raise ValueError(
                "HOMEBASE_AI_MAX_WAIT_SECONDS must be at least HOMEBASE_AI_QUIET_SECONDS"
            )
        return self

    @property
    def ai_provider_name(self) -> str:
        return self.ai_provider or "local"

    @model_validator(mode="after")
    def _webhook_lease(self) -> "Settings":
        if self.webhook_lease_seconds <= self.webhook_timeout_seconds:
            raise ValueError(
                "HOMEBASE_WEBHOOK_LEASE_SECONDS must exceed HOMEBASE_WEBHOOK_TIMEOUT_SECONDS"
            )
        return self

    @field_validator("worker_metrics_port", mode="before")
    @classmethod
    def _worker_metrics_port(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value  # "": off

    @field_validator("trusted_proxies")
    @classmethod
    def _trusted_proxies(cls, value: str) -> str:
        try:
            parse_networks(value)
        except ValueError as error:
            raise ValueError(f"HOMEBASE_TRUSTED_PROXIES: {error}") from None
        return value

    @field_validator("cors_origins")
    @classmethod
    def _cors_origins(cls, value: str) -> str:
        try:
            parse_origins(value)
        except ValueError as error:
            raise ValueError(f"HOMEBASE_CORS_ORIGINS: {error}") from None
        return value

    @property
    def cors_allowed_origins(self) -> tuple[str, ...]:
        """Each as a browser's Origin header writes it (kit/origins.py)."""
        return parse_origins(self.cors_origins)

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, value: str) -> str:
        problem = database_url_problem(value)
        if problem is not None:
            raise ValueError(f"{problem}; supported: {' or '.join(SUPPORTED_DATABASES)}")
        return value

    @model_validator(mode="after")
    def _public_url_default_and_scheme(self) -> "Settings":
        # Last of the validators: a production setting refused above is named first.
        if not self.public_url.strip():
            self.public_url = DEFAULT_PUBLIC_URL
        if self.env == "production":
            problem = public_url_problem(self.public_url)
            if problem is not None:
                raise ValueError(f"HOMEBASE_PUBLIC_URL {problem} in production")
        return self

    @property
    def trusted_networks(self) -> tuple[Network, ...]:
        return parse_networks(self.trusted_proxies)  # cached per value

    @property
    def keys(self) -> Keyring:
        """Sign and seal with the current key; verify and open with it, then the previous."""
        return Keyring(self.secret_key, self.secret_key_previous or None)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


def database_url_problem(url: str) -> str | None:
    """Why homebase cannot run on `url`, or None. The URL itself is never quoted: it may
    hold a password."""
    try:
        driver = make_url(url).drivername
    except ArgumentError:
        return "is not a database URL"
    backend = driver.partition("+")[0]
    if backend == "sqlite" or driver == "postgresql+asyncpg":
        return None
    if backend in ("postgresql", "postgres"):
        return f"names PostgreSQL through {driver!r}, which homebase does not use"
    return f"names a database homebase does not run on ({driver!r})"


def is_loopback_host(host: str) -> bool:
    """localhost, 127.0.0.0/8 or ::1."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def public_url_problem(url: str) -> str | None:
    """Why `url` cannot be production's public address, or None. Plain http is allowed
    only on loopback: console session cookies are marked Secure only under https
    (console/sessions.py), and links and cookies would otherwise cross a network in the
    clear."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018  (a port that is not a number raises here)
    except ValueError:
        return "must be an https:// address"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "must be an https:// address"
    if parts.scheme == "http" and not is_loopback_host(parts.hostname):
        return (
            "must be https:// (http:// only on loopback: localhost, 127.0.0.0/8, ::1): "
            "console cookies are marked Secure only under https"
        )
    return None


def secret_weakness(value: str) -> str | None:
    """Why `value` is too weak for a production key, or None when it is strong enough."""
    if len(value) < MIN_PRODUCTION_SECRET_LENGTH:
        return f"must be at least {MIN_PRODUCTION_SECRET_LENGTH} characters"
    distinct = len(set(value))
    if distinct < MIN_PRODUCTION_SECRET_DISTINCT:
        return (
            f"must hold at least {MIN_PRODUCTION_SECRET_DISTINCT} distinct characters "
            f"(it holds {distinct})"
        )
    return None


def _local_secret_key() -> str:
    """Generated once and kept under ./var so restarts keep cursors and links valid."""
    path = VAR_DIR / "secret_key"
    if path.exists():
        return _read_key(path)
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(48)
    try:  # created 0600: never readable by others, not even between a write and a chmod
        descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:  # another process starting at the same time made it first
        return _read_key(path)
    with os.fdopen(descriptor, "w") as file:
        file.write(key)
    return key


def _read_key(path: Path) -> str:
    for _ in range(50):  # the other process may not have written it yet
        key = path.read_text().strip()
        if key:
            return key
        time.sleep(0.01)
    raise RuntimeError(f"{path} is empty; delete it to generate a new key")


@lru_cache
def get_settings() -> Settings:
    return Settings()
