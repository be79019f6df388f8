"""Schemathesis hooks for tests/kit/test_schemathesis.py (loaded through SCHEMATHESIS_HOOKS).

A distinct Idempotency-Key per request. The document gives the header one example value;
sent with every generated body, every request after the first would be answered 422
idempotency_key_reused, which is the contract (../shared/CONTRACT.md, "Idempotency"), not a
disagreement between the document and the service. A key that is itself invalid (empty,
over 255 characters) is left as generated, so its 400 is still checked.
"""

import uuid

import schemathesis

HEADER = "idempotency-key"


@schemathesis.hook
def before_call(context, case, kwargs):
    for headers in (case.headers, kwargs.get("headers")):
        if not headers:
            continue
        for name in list(headers):
            if name.lower() == HEADER and 1 <= len(str(headers[name])) <= 255:
                headers[name] = f"st-{uuid.uuid4().hex}"
