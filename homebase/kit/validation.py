"""Pydantic's validation errors as the envelope's items ({field, in, message, type}), the
same wherever the validation ran: a request's body or query (http/errors.py,
kit/listquery.py), a send built in code (messaging/service.py), a provider's callback
(calls/public.py), a console form (console/webhooks.py), an import's row (imports/rows.py).

A message names the field and the rule, never the value that was sent (docs/decisions.md,
"Errors never repeat a submitted value"): an error is read by credentials that may not
read the person's data (an import's errors, by any contacts:read key). Pydantic's own
messages say what is allowed ("Input should be 'a' or 'b'") and quote no input but a
discriminated union's tag (reworded below); our validators' messages are written that
way. `_repeats` is the backstop: an item whose message would still repeat the text that
was sent says only that the value is invalid."""

from collections.abc import Mapping, Sequence
from typing import Any

from homebase.kit.errors import ApiError, InvalidJson, ValidationFailed

REQUIRED = "is required"
_MESSAGES: dict[str, str | None] = {
    "missing": REQUIRED,
    "extra_forbidden": "is not a known field",
    "string_too_long": None,  # pydantic's own text names the limit
}


def _union_tag(error: Mapping[str, Any]) -> tuple[str, str, str] | None:
    """(member, type, message) for a discriminated union's tag error: the member that picks
    the variant is missing or names none, said as for any other member, not as the union."""
    member = str((error.get("ctx") or {}).get("discriminator", "")).strip("'")
    if not member:
        return None
    if error["type"] == "union_tag_not_found":
        return member, "missing", REQUIRED
    expected = [tag.strip() for tag in str(error["ctx"].get("expected_tags", "")).split(",")]
    listed = ", ".join(expected[:-1]) + f" or {expected[-1]}" if len(expected) > 1 else expected[0]
    return member, "enum", f"Input should be {listed}"


_UNKNOWN = object()  # the body was not given, or the path left what was sent
INVALID = "is invalid"
# Messages that list the allowed values: one of them may contain what was sent ("HOT" in
# 'HOT_LEAD') without repeating it.
_ALLOWED_LISTS = frozenset({"enum", "literal_error"})
_SHORTEST_REPEAT = 4  # shorter inputs ("1", "abc") occur in messages by chance


def _repeats(message: str, sent: Any) -> bool:
    """Whether the message holds the text (or number) that was sent."""
    if isinstance(sent, bool) or not isinstance(sent, str | int | float):
        return False
    text = sent if isinstance(sent, str) else str(sent)
    return len(text) >= _SHORTEST_REPEAT and text in message


def _members(path: list[Any], sent: Any) -> list[Any]:
    """The path less the union branches pydantic puts in it (a variant's tag `EMAIL`, or a
    model's name): a segment before the last that is not a member or index of what the
    client sent names a branch, not a member, so `subject` rather than `EMAIL.subject`."""
    members: list[Any] = []
    for index, part in enumerate(path):
        last = index == len(path) - 1
        if isinstance(sent, dict) and part in sent:
            sent = sent[part]
        elif isinstance(sent, list) and isinstance(part, int) and 0 <= part < len(sent):
            sent = sent[part]
        elif isinstance(part, str) and not last and sent is not _UNKNOWN:
            continue
        else:
            sent = _UNKNOWN
        members.append(part)
    return members


def field_errors(errors: Sequence[Mapping[str, Any]], body: Any = _UNKNOWN) -> list[dict[str, str]]:
    """Pydantic's errors as the envelope's items. `body`, the decoded request body when
    known, lets union branches be dropped from body paths (see _members)."""
    result = []
    for error in errors:
        location, *path = error.get("loc") or ("body",)
        kind = error["type"]
        message = _MESSAGES.get(kind) or str(error.get("msg", "is invalid"))
        if location == "body":
            path = _members(path, body)
            tag = _union_tag(error) if kind.startswith("union_tag_") else None
            if tag is not None:
                member, kind, message = tag
                path = [*path, member]
        field = ".".join(str(part) for part in path) or str(location)
        message = message.removeprefix("Value error, ")
        if kind not in _ALLOWED_LISTS and _repeats(message, error.get("input")):
            message = INVALID
        result.append({"field": field, "in": str(location), "message": message, "type": kind})
    return result


def validation_failed(errors: Sequence[Mapping[str, Any]], body: Any = _UNKNOWN) -> ApiError:
    if any(error["type"] == "json_invalid" for error in errors):
        return InvalidJson()
    fields = field_errors(errors, body)
    summary = "; ".join(f"{item['field']}: {item['message']}" for item in fields[:5])
    return ValidationFailed(f"Invalid request: {summary}", details={"errors": fields})
