"""What to do next after each error: the one table, by error code.

Every error body carries its code's remedy in `details.remedy` (http/envelope.py, where
every error is rendered); the message stays the error's own. A compliance refusal's
remedy is its gate reason's (compliance/remedies.py); the `compliance_blocked` line below
only for a reason that table lacks. Text only, so kit holds it: the errors themselves are
defined in kit/errors.py and in the domains. tests/test_remedies.py walks every
ApiError subclass in homebase and fails on a code with no line here.
"""

ERROR_REMEDIES: dict[str, str] = {
    # 400
    "validation_failed": (
        "Fix each field named in details.errors (`field` is its dotted path, `in` where it "
        "was sent, `message` why it failed) and send the request again."
    ),
    "invalid_json": (
        "Send a well-formed JSON document in UTF-8 (no NaN, Infinity or lone surrogates); "
        "the message gives the parser's position."
    ),
    "unsupported_content_type": (
        "Send the body as JSON with the header Content-Type: application/json."
    ),
    # 401
    "unauthenticated": (
        "Send a valid credential as `Authorization: token <API_KEY>` (or `Authorization: "
        "Bearer <ACCESS_TOKEN>` for an OAuth app). If the key expired or was revoked, "
        "create a new one in the console (API keys) or with `homebase admin create-api-key`."
    ),
    "invalid_signature": (
        "Sign the callback as Twilio does (X-Twilio-Signature over the full URL and the form "
        "parameters, keyed by HOMEBASE_TWILIO_AUTH_TOKEN), to the URL exactly as configured."
    ),
    # 403
    "insufficient_scope": (
        "Use a credential that has the scope named in details.missing_scope: create an API "
        "key with it, or have the workspace authorize the app for it."
    ),
    "not_the_apps_subscription": (
        "Create a subscription of the app's own (POST /v1/webhooks) for its receiver; the "
        "workspace changes this one with an API key."
    ),
    "export_link_invalid": (
        "Use the download_url exactly as GET /v1/exports/{id} returned it; fetch the export "
        "again for a fresh link."
    ),
    "export_link_expired": (
        "Download links last five minutes: GET /v1/exports/{id} again for a fresh download_url."
    ),
    "recording_link_invalid": (
        "Use the recording_url exactly as GET /v1/calls/{id} returned it; fetch the call "
        "again for a fresh link."
    ),
    "recording_link_expired": (
        "Recording links expire: GET /v1/calls/{id} again for a fresh recording_url."
    ),
    # 404, 405
    "not_found": (
        "Check the id and the path: the object may have been deleted, or belong to another "
        "workspace than the credential's."
    ),
    "method_not_allowed": "Use one of the methods the Allow header lists for this path.",
    # 409
    "conflict": (
        "Read the object again, reconcile with its current state (details may name what is "
        "in the way) and retry."
    ),
    "contact_erased": (
        "The contact was erased and takes no new data: create a new contact if the person "
        "comes back."
    ),
    "automation_disabled": (
        "Enroll the contact in an enabled automation (GET /v1/automations lists `enabled`), "
        "or have the automation enabled: it is defined by `homebase admin load-fixtures` "
        "(kind automations, `enabled: true`)."
    ),
    "idempotency_key_in_use": (
        "Wait the seconds in Retry-After and send the same request with the same "
        "Idempotency-Key: you get its answer once it has finished."
    ),
    # 413
    "payload_too_large": (
        "Send a body of at most details.max_body_bytes bytes: split the work into smaller "
        "requests (for many records, POST /v1/imports)."
    ),
    # 422
    "idempotency_key_reused": (
        "Use a new Idempotency-Key for a different request; reuse a key only to repeat the "
        "same method, path and body."
    ),
    "compliance_blocked": (
        "The refusal is recorded (details.message_id): do not retry it in a loop; "
        "details.reason names the gate that refused."
    ),
    # 429
    "rate_limited": (
        "Wait the seconds in the Retry-After header before sending again; the "
        "X-RateLimit-* headers tell the budget left."
    ),
    # 500, 503
    "internal_error": (
        "Retry later (with the same Idempotency-Key for a POST); if it persists, report "
        "the request_id."
    ),
    "service_unavailable": (
        "Wait the seconds in Retry-After and retry (with the same Idempotency-Key for a "
        "POST: the outcome may be unknown)."
    ),
    # Any other HTTP error the framework raises (http/errors.py)
    "http_error": "Check the method, path and headers against the API description (/v1/docs).",
}
