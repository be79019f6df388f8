"""Schemathesis hooks for tests/kit/test_schemathesis.py (loaded through SCHEMATHESIS_HOOKS).

A distinct Idempotency-Key per request. The document gives the header one example value;
sent with every generated body, every request after the first would be answered 422
idempotency_key_reused, which is the contract (../shared/CONTRACT.md, "Idempotency"), not a
disagreement between the document and the service. A key that is itself invalid (empty,
over 255 characters) is left as generated, so its 400 is still checked.

No U+0000 below the top level of a free-form member (lead `context`, consent
`form_snapshot`, each of an import's `rows`): the service refuses it there, and the
document, which states it for every other string and for those members' own keys, lists
it among the rules no schema states (homebase/kit/openapi_requests.py UNSTATED_RULES),
whose free-form members this reads. A body breaking it is not generated rather than its
400 accepted.
"""

import uuid

import schemathesis

from homebase.kit.nul import json_fields_holding_nul
from homebase.kit.openapi_requests import UNSTATED_RULES

HEADER = "idempotency-key"
FREE_FORM = [
    member.split(".") for rule in UNSTATED_RULES if rule.free_form for member in rule.members
]


def _member(body, path):
    for name in path:
        if not isinstance(body, dict):
            return None
        body = body.get(name)
    return body


@schemathesis.hook
def filter_body(context, body):
    for path in FREE_FORM:
        value = _member(body, path)
        # A free-form object, or a list of them (an import's rows).
        for member in value if isinstance(value, list) else [value]:
            if isinstance(member, dict) and any(
                json_fields_holding_nul(item) for item in member.values()
            ):
                return False
    return True


@schemathesis.hook
def before_call(context, case, kwargs):
    for headers in (case.headers, kwargs.get("headers")):
        if not headers:
            continue
        for name in list(headers):
            if name.lower() == HEADER and 1 <= len(str(headers[name])) <= 255:
                headers[name] = f"st-{uuid.uuid4().hex}"
