"""What a request may hold, as the OpenAPI document says it: the U+0000 rule declared on
every string a request carries, and the one list of rules no schema can state.

The document declares exactly what the service accepts (docs/decisions.md, "The document
declares what the service accepts"): a request it allows is not refused, except for the
rules in UNSTATED_RULES, which are rendered into the document's description and which the
tests consult (tests/kit/test_request_rules.py, tests/schemathesis.toml)."""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from homebase.kit import freeform
from homebase.kit.openapi import operations

# No U+0000 anywhere in the text (kit/nul.py). Valid in ECMA-262 and Python `re`.
NO_NUL = r"^[^\x00]*$"
_SCHEMA_REF = "#/components/schemas/"
# Members holding schemas; `not` is left alone (a schema there says what is refused).
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SUBSCHEMAS = ("items", "additionalProperties", "propertyNames", "contains")


@dataclass(frozen=True)
class UnstatedRule:
    """A rule the service checks and no schema states: a schema-valid request breaking it
    is 400 validation_failed naming one of `members`."""

    operations: tuple[str, ...]  # "POST /v1/deals", as the document's paths spell them
    members: tuple[str, ...]  # the members a refusal names
    rule: str
    reference: bool = False  # True: the rule compares with this workspace's records
    # True: the members are free-form JSON, whose generated values a fuzzer is kept from
    # breaking the rule with (tests/schemathesis_hooks.py) rather than allowed a 400.
    free_form: bool = False


UNSTATED_RULES: tuple[UnstatedRule, ...] = (
    UnstatedRule(
        ("POST /v1/messages",),
        ("to",),
        "`to` on SMS and WHATSAPP is a phone number: E.164 or a US national number, read "
        "the way the phone number parser reads it (no pattern says which digits dial).",
    ),
    UnstatedRule(
        ("POST /v1/messages",),
        ("contact_id", "from"),
        "`contact_id` names a contact of this workspace holding a phone (texts) or email; "
        "`from` one of this workspace's sender numbers for the channel.",
        reference=True,
    ),
    UnstatedRule(
        ("POST /v1/appointments", "PATCH /v1/appointments/{id}"),
        ("ends_at",),
        "`ends_at` after `starts_at`.",
    ),
    UnstatedRule(
        ("POST /v1/appointments", "PATCH /v1/appointments/{id}", "POST /v1/tasks"),
        ("contact_id", "assignee_id", "created_by"),
        "`contact_id` names a contact of this workspace (not anonymized); `assignee_id` "
        "and `created_by` members of it.",
        reference=True,
    ),
    UnstatedRule(
        ("POST /v1/deals", "PATCH /v1/deals/{id}"),
        ("pipeline_id", "stage_id", "contact_id", "owner_id"),
        "`pipeline_id` names a pipeline of this workspace, `stage_id` a stage of it, "
        "`contact_id` a contact of it, `owner_id` a member of it (or is null).",
        reference=True,
    ),
    UnstatedRule(
        ("POST /v1/contacts", "PATCH /v1/contacts/{id}"),
        ("owner_id",),
        "`owner_id` names a member of this workspace (or is null).",
        reference=True,
    ),
    UnstatedRule(
        (
            "POST /v1/contacts",
            "PATCH /v1/contacts/{id}",
            "POST /v1/deals",
            "PATCH /v1/deals/{id}",
        ),
        ("custom_fields",),
        "Each key of `custom_fields` names a live custom field of the object and its value "
        "fits the field's type (400 naming `custom_fields.<key>`); and the record's "
        # custom_fields/definitions.py MAX_VALUES_BYTES (kit/ imports no domain; a test in
        # tests/custom_fields holds the two equal).
        "custom_fields after the write are at most 32768 bytes (32 KiB) as compact UTF-8 "
        "JSON, unless the write does not grow a record already past it (400 naming "
        "`custom_fields`).",
        reference=True,
    ),
    UnstatedRule(
        ("POST /v1/leads/{id}/assign",),
        ("assignee_id",),
        "`assignee_id` names a member of this workspace.",
        reference=True,
    ),
    UnstatedRule(
        ("POST /v1/automations/{id}/enroll",),
        ("contact_id",),
        "`contact_id` names a contact of this workspace.",
        reference=True,
    ),
    UnstatedRule(
        ("GET /v1/events",),
        ("after",),
        "`after` names an event of this workspace within the retention period.",
        reference=True,
    ),
    UnstatedRule(
        ("GET /v1/ai/stats",),
        ("from", "to", "persona_id"),
        "`from` before `to` (by default `to` is now and `from` 30 days before it), at most "
        "92 days apart (400 naming `from`, then `to`); `persona_id` names a persona of "
        "this workspace.",
        reference=True,
    ),
    UnstatedRule(
        ("POST /v1/webhooks",),
        ("url",),
        "The `url` host resolves, only to public addresses (unless the operator allows "
        "private ones), and is https in production.",
        reference=True,
    ),
    UnstatedRule(
        ("PATCH /v1/custom-fields/{id}",),
        ("choices",),
        "`choices` only for a `single_select` or `multi_select` field, as the field's "
        "stored type says (POST /v1/custom-fields states it by `type`); a choice records "
        "hold may not be removed (409).",
        reference=True,
    ),
    UnstatedRule(
        ("POST /v1/leads",),
        ("context", "consent.form_snapshot"),
        f"Free-form members: at most {freeform.MAX_BYTES} bytes as compact JSON, depth "
        f"{freeform.MAX_DEPTH}, {freeform.MAX_VALUES} values, and below the top level keys "
        f"of at most {freeform.MAX_KEY_LENGTH} characters without U+0000 and text without "
        "U+0000 (the top level's keys are stated with propertyNames; deeper levels would "
        "need a recursive schema, which client generators turn into untyped code).",
        free_form=True,
    ),
    UnstatedRule(
        ("POST /v1/imports",),
        ("rows",),
        "Each row is a free-form object, checked later by the worker as its single create's "
        "body: its own keys are stated (propertyNames); below its top level, no key or text "
        "holds U+0000, which every request refuses (a recursive schema would make the rows "
        "untyped in generated clients).",
        free_form=True,
    ),
)


def describe_unstated_rules() -> str:
    """The list as the document's description shows it (Markdown)."""
    lines = [
        "## Rules no schema states",
        "",
        "A request the document allows is accepted, except when it breaks one of these "
        "(answered 400 validation_failed naming the member):",
        "",
    ]
    lines.extend(f"- {', '.join(rule.operations)}: {rule.rule}" for rule in UNSTATED_RULES)
    return "\n".join(lines)


def declare_no_nul(document: dict[str, Any], prefix: str) -> None:
    """U+0000 is refused in every path and query parameter and every body value and key
    (kit/nul.py, http/v1_route.py refuse_nul): say so on each string a request under
    `prefix` carries, as a `pattern`, and on the keys of free-form objects, as
    `propertyNames`. A string with a pattern of its own keeps it (each excludes U+0000
    itself; tests/kit/test_request_rules.py holds them to it). Components reached from a
    request are changed where they are, so a response sharing one says the same (true:
    nothing stored holds U+0000)."""
    schemas = document.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    for schema in _request_schemas(document, prefix):
        for node in _nodes(schema, schemas, seen):
            _declare(node)


def _request_schemas(document: dict[str, Any], prefix: str) -> Iterator[dict[str, Any]]:
    for operation in operations(document, prefix):
        for parameter in operation.get("parameters", []):
            if parameter.get("in") in ("path", "query") and "schema" in parameter:
                yield parameter["schema"]
        content = operation.get("requestBody", {}).get("content", {})
        if "schema" in content.get("application/json", {}):
            yield content["application/json"]["schema"]


def _nodes(schema: Any, schemas: dict[str, Any], seen: set[str]) -> Iterator[dict[str, Any]]:
    """Every schema object within `schema`, through references (each component once)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_SCHEMA_REF):
            name = ref.removeprefix(_SCHEMA_REF)
            if name not in seen and name in schemas:
                seen.add(name)
                stack.append(schemas[name])
            continue
        yield node
        stack.extend(node.get("properties", {}).values())
        stack.extend(node.get("patternProperties", {}).values())
        stack.extend(node.get(key) for key in _SUBSCHEMAS)
        for key in _SUBSCHEMA_LISTS:
            stack.extend(node.get(key, []))


def _declare(node: dict[str, Any]) -> None:
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "string" in kinds and not {"enum", "const", "pattern"} & node.keys():
        node["pattern"] = NO_NUL
    free_form = node.get("additionalProperties") in (True, {}) and not node.get("properties")
    if "object" in kinds and free_form:
        # Every free-form member a request takes is bounded by kit/freeform.py (every
        # input has a bound); its key length is the one bound a schema can state.
        names = node.setdefault("propertyNames", {})
        names.setdefault("pattern", NO_NUL)
        names.setdefault("maxLength", freeform.MAX_KEY_LENGTH)
