from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
    with_config,
)
from pydantic.config import JsonDict
from typing_extensions import TypedDict

from homebase.kit.schema_rules import absent
from homebase.kit.wire import WireTime
from homebase.outbox.catalogue import EVENT_TYPES

# What webhooks/safety.py checks before any lookup, for the document: http(s) in any case,
# a host, no user information, no fragment; and no U+0000, refused everywhere (kit/nul.py).
URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@\s\x00]+([/?][^#\s\x00]*)?$"
_CREATED = "2026-11-20T17:04:05.123Z"
_SUBSCRIPTION: JsonDict = {
    "id": "whk_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "url": "https://crm.example.com/hooks/homebase",
    "event_types": ["contact.created", "contact.stage_changed"],
    "secret_hint": "whsec_Ab",
    "status": "active",
    "disabled_reason": None,
    "disabled_at": None,
    "failing_since": None,
    "created_at": _CREATED,
}
_URL_DOC = (
    "The receiving address: an absolute http or https URL with a host, without user name, "
    "password or fragment. https is required in production; addresses on loopback, "
    "private, link-local or metadata networks are refused, and so is a host that does not "
    "resolve, or not within the server's DNS time limit (2 s unless configured)."
)
_URL_SCHEMA: JsonDict = {"format": "uri", "pattern": URL_PATTERN}
_EVENT_TYPES_SCHEMA: JsonDict = {"items": {"type": "string", "enum": list(EVENT_TYPES)}}
WebhookUrl = Annotated[str, StringConstraints(min_length=1, max_length=2048)]


def _known(names: list[str]) -> list[str]:
    # Named by index, never repeated: an error repeats no submitted value.
    unknown = [str(index) for index, name in enumerate(names) if name not in EVENT_TYPES]
    if unknown:
        raise ValueError(
            f"items {', '.join(unknown)} are not event types of the catalogue"
            if unknown[1:]
            else f"item {unknown[0]} is not an event type of the catalogue"
        )
    return list(dict.fromkeys(names))


class WebhookCreate(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "url": "https://crm.example.com/hooks/homebase",
                    "event_types": ["contact.created", "contact.stage_changed"],
                }
            ]
        },
    )

    url: WebhookUrl = Field(description=_URL_DOC, json_schema_extra=_URL_SCHEMA)
    event_types: list[str] = Field(
        default_factory=list,
        max_length=len(EVENT_TYPES),
        description="Event names from the catalogue; an empty array (the default) subscribes "
        "to every event the credential's scopes may read. Naming an event the "
        "credential may not read is refused (403, details.missing_scope).",
        json_schema_extra=_EVENT_TYPES_SCHEMA,
    )

    _known_types = field_validator("event_types")(_known)


_UPDATE_MEMBERS = ("status", "url", "event_types")


class WebhookUpdate(BaseModel):
    """Any of status, url and event_types; at least one. The secret never changes."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "required": [],
            "minProperties": 1,
            "examples": [
                {"status": "active"},
                {
                    "url": "https://crm.example.com/hooks/homebase-v2",
                    "event_types": ["contact.created"],
                },
                {"status": "disabled"},
            ],
        },
    )

    status: Literal["active", "disabled"] = absent(
        json_schema_extra={"type": "string"},
        description="active: re-enables a disabled subscription and clears its failure "
        "streak (deliveries are queued again for events from now on; what was cancelled "
        "stays cancelled); it needs the scopes the subscription carries (403 otherwise). "
        "disabled: pauses it, as the service does to one that keeps "
        "failing: nothing is queued and its pending deliveries are cancelled. Sending the "
        "status it already has changes nothing.",
    )
    url: WebhookUrl = absent(
        description=_URL_DOC + " Pending deliveries and retries go to the new address; a "
        "new address clears the failure streak. Needs the scopes the subscription carries "
        "(403 otherwise); an OAuth app may change it only on a subscription it created.",
        json_schema_extra={"type": "string", **_URL_SCHEMA},
    )
    event_types: list[str] = absent(
        max_length=len(EVENT_TYPES),
        description="As at creation ([] is every event the subscription may read); for "
        "events dispatched from now on. Naming or dropping an event the credential may not "
        "read is 403 (details.missing_scope); one the subscription itself may not read "
        "(its creator's scopes, or for an app's subscription its grant's) is 400: create "
        "another subscription for it.",
        json_schema_extra={"type": "array", **_EVENT_TYPES_SCHEMA},
    )

    _known_types = field_validator("event_types")(_known)

    @field_validator(*_UPDATE_MEMBERS, mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("may not be null")
        return value

    @model_validator(mode="after")
    def _something(self) -> "WebhookUpdate":
        if not self.model_fields_set:
            raise ValueError("send at least one of status, url, event_types")
        return self


# A subscription as GET /v1/webhooks/{id} sends it (render.subscription). No docstring:
# it would become the schema's description.
@with_config(json_schema_extra={"examples": [_SUBSCRIPTION]})
class Webhook(TypedDict):
    id: str
    url: str
    event_types: Annotated[
        list[str], Field(description="[] means every event the subscription may read.")
    ]
    secret_hint: Annotated[
        str,
        Field(
            description="The first characters of the secret, to tell "
            "subscriptions apart; the secret itself is shown once."
        ),
    ]
    status: Annotated[
        Literal["active", "disabled"],
        Field(
            description="disabled: no deliveries are queued for it (events still reach GET "
            "/v1/events); PATCH status active re-enables it."
        ),
    ]
    disabled_reason: Annotated[
        Literal["failing", "paused"] | None,
        Field(
            description="Why it is disabled; null while active. failing: every attempt failed, "
            "none succeeding, for HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS (5 days unless "
            "configured) from failing_since. paused: a client (PATCH status disabled) or a "
            "member in the console disabled it."
        ),
    ]
    disabled_at: Annotated[
        WireTime | None, Field(description="When it was disabled; null while active.")
    ]
    failing_since: Annotated[
        WireTime | None,
        Field(
            description="The first failed attempt since the last success (or creation, or "
            "re-enabling); null when the last attempt succeeded or none failed yet. A failed "
            "attempt HOMEBASE_WEBHOOK_DISABLE_AFTER_DAYS or more after it disables the "
            "subscription."
        ),
    ]
    created_at: WireTime


# pydantic's hook on the schema it made: JSON Schema as a dict (a boundary of its own)
def _created_schema(schema: dict[str, Any]) -> None:
    schema["examples"] = [
        {**_SUBSCRIPTION, "secret": "whsec_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"}
    ]
    # Present on the answer that created the subscription; an Idempotency-Key replay of it
    # leaves the secret out (it is never stored), so the document can't require it.
    schema["required"] = [name for name in schema.get("required", []) if name != "secret"]


@with_config(json_schema_extra=_created_schema)
class WebhookCreated(Webhook):
    secret: Annotated[
        str,
        Field(
            description="Signing secret: returned here once, never again. "
            "Absent from an `Idempotent-Replayed: true` answer: the "
            "secret is never stored, so a replay cannot show it."
        ),
    ]


@with_config(
    json_schema_extra={"examples": [{"id": "whk_01jd3v6k8h2k3m4n5p6q7r8s9t", "deleted": True}]}
)
class WebhookDeleted(TypedDict):
    id: str
    deleted: bool


_ATTEMPT: JsonDict = {
    "id": "wha_01jd3v6k8h2k3m4n5p6q7r8s9t",
    "number": 1,
    "outcome": "failed",
    "status_code": 503,
    "latency_ms": 41,
    "error": "receiver answered 503",
    "started_at": _CREATED,
    "finished_at": "2026-11-20T17:04:05.164Z",
}


@with_config(json_schema_extra={"examples": [_ATTEMPT]})
class Attempt(TypedDict):
    id: str
    number: Annotated[
        int, Field(description="1 for the first attempt; redeliveries continue counting.")
    ]
    outcome: Annotated[
        Literal["in_progress", "succeeded", "failed", "abandoned"],
        Field(
            description="abandoned: the worker making it stopped before it finished (its lease "
            "expired); the attempt counts as one of the six."
        ),
    ]
    status_code: int | None
    latency_ms: int | None
    error: str | None
    started_at: WireTime
    finished_at: WireTime | None


@with_config(
    json_schema_extra={
        "examples": [
            {
                "id": "whd_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "subscription_id": _SUBSCRIPTION["id"],
                "event_id": "evt_01jd3v6k8h2k3m4n5p6q7r8s9t",
                "event_type": "contact.created",
                "status": "pending",
                "attempts": 1,
                "next_attempt_at": "2026-11-20T17:05:05.500Z",
                "last_status_code": 503,
                "last_error": "receiver answered 503",
                "created_at": _CREATED,
                "completed_at": None,
                "attempt_log": [_ATTEMPT],
            }
        ]
    }
)
class Delivery(TypedDict):
    id: Annotated[str, Field(description="Sent as X-Webhook-Delivery; the same on every attempt.")]
    subscription_id: str
    event_id: str
    event_type: str
    status: Annotated[
        Literal["pending", "succeeded", "failed", "cancelled"],
        Field(
            description="failed: six attempts failed; cancelled: the subscription was deleted or "
            "disabled before it was made (last_error says which when disabled), or an app's "
            "grant no longer covers the event."
        ),
    ]
    attempts: Annotated[int, Field(description="Attempts in the current schedule (at most 6).")]
    next_attempt_at: WireTime | None
    last_status_code: int | None
    last_error: str | None
    created_at: WireTime
    completed_at: WireTime | None
    attempt_log: Annotated[list[Attempt], Field(description="Every attempt, newest first.")]
