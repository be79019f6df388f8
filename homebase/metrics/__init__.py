"""Prometheus metrics (prometheus-client): the instruments, and small helpers the areas
call when something worth counting happens. docs/operations.md ("Metrics") lists them all.

Import-time matters: prometheus_client decides at import whether values live in this
process's memory or in files under PROMETHEUS_MULTIPROC_DIR (`homebase serve --workers N`
sets it before its server processes start, metrics/multiprocess.py). Every gauge
declares how the processes' values combine (`multiprocess_mode`).

Labels are bounded: route templates, never a path with a record id; methods outside the
usual few become "other"; outcomes and gates are fixed words.
"""

from prometheus_client import Counter, Gauge, Histogram

# Seconds; the request buckets reach down to the sub-millisecond answers of a ping.
REQUEST_BUCKETS = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)
JOB_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 10.0, 30.0, 60.0)

HTTP_REQUESTS = Counter(
    "homebase_http_requests",
    "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
)
HTTP_DURATION = Histogram(
    "homebase_http_request_duration_seconds",
    "Time from the request's arrival to the end of its response, by method, route template "
    "and status.",
    ["method", "route", "status"],
    buckets=REQUEST_BUCKETS,
)

RATE_LIMIT_DECISIONS = Counter(
    "homebase_rate_limit_decisions",
    "Rate-limit decisions by limit (api_key, oauth_app, unauthenticated) and decision "
    "(allowed, refused).",
    ["limit", "decision"],
)

DB_POOL_IN_USE = Gauge(
    "homebase_db_pool_connections_in_use",
    "Database connections held by a transaction (reads and writes), summed over live processes.",
    multiprocess_mode="livesum",
)
DB_POOL_CAPACITY = Gauge(
    "homebase_db_pool_connections_max",
    "The most connections the pools may open (each engine's pool size), summed over live "
    "processes.",
    multiprocess_mode="livesum",
)

WEBHOOK_ATTEMPTS = Counter(
    "homebase_webhook_attempts",
    "Webhook delivery attempts by outcome (succeeded, failed, abandoned).",
    ["outcome"],
)
WEBHOOK_DELIVERIES = Counter(
    "homebase_webhook_deliveries_finished",
    "Webhook deliveries that reached a final state, by outcome (succeeded, failed: its "
    "attempts ran out, cancelled).",
    ["outcome"],
)

MESSAGE_SENDS = Counter(
    "homebase_message_sends",
    "Outbound messages that reached an outcome, by channel (SMS, WHATSAPP, EMAIL) and "
    "outcome (sent, provider_refused, blocked, interrupted, expired).",
    ["channel", "outcome"],
)
COMPLIANCE_REFUSALS = Counter(
    "homebase_compliance_refusals",
    "Sends refused by a compliance gate, by gate, channel and stage (request: when the "
    "send was asked for; send: the worker's check just before the provider).",
    ["gate", "channel", "stage"],
)

AI_OUTCOMES = Counter(
    "homebase_ai_outcomes",
    "AI responder jobs that ended, by outcome (replied, handed_off, skipped) and reason "
    "(the handoff's or the skip's reason; empty for a reply).",
    ["outcome", "reason"],
)
AI_MODEL_CALLS = Counter(
    "homebase_ai_model_calls",
    "Calls to the AI model, by provider (local, openai) and outcome (answered, failed).",
    ["provider", "outcome"],
)
AI_MODEL_DURATION = Histogram(
    "homebase_ai_model_duration_seconds",
    "Time the AI model took to answer (or fail), by provider.",
    ["provider"],
    buckets=JOB_BUCKETS,
)

WORKER_JOB_DURATION = Histogram(
    "homebase_worker_job_duration_seconds",
    "Duration of one run of a background worker job (one batch), by job and outcome (ok, failed).",
    ["job", "outcome"],
    buckets=JOB_BUCKETS,
)
WORKER_JOB_FAILURES = Counter(
    "homebase_worker_job_failures",
    "Background worker job runs that raised (the job runs again next round), by job.",
    ["job"],
)
WORKER_JOB_ITEMS = Counter(
    "homebase_worker_job_items", "Items of work a background worker job did, by job.", ["job"]
)


# Made once: labels() takes a lock and builds a key, a cost every /v1 request would pay.
_DECISION_CHILDREN = {
    (limit, allowed): RATE_LIMIT_DECISIONS.labels(limit, "allowed" if allowed else "refused")
    for limit in ("api_key", "oauth_app", "unauthenticated")
    for allowed in (True, False)
}


def rate_limit_decision(limit: str, allowed: bool) -> None:
    _DECISION_CHILDREN[limit, allowed].inc()


def webhook_outcomes(attempt_outcomes: list[str], finished: list[str]) -> None:
    for outcome in attempt_outcomes:
        WEBHOOK_ATTEMPTS.labels(outcome).inc()
    for outcome in finished:
        WEBHOOK_DELIVERIES.labels(outcome).inc()


def message_send(channel: str, outcome: str) -> None:
    MESSAGE_SENDS.labels(channel, outcome).inc()


def compliance_refusal(gate: str, channel: str, stage: str) -> None:
    COMPLIANCE_REFUSALS.labels(gate, channel, stage).inc()
