"""What to do next after each compliance refusal: the one table, by gate reason.

A refusal's answer keeps the spec's fixed form (`Blocked (<reason>): <text>`, details
message_id, status, recorded); the remedy goes in `details.remedy`, added where every
error is rendered (http/envelope.py). tests/test_remedies.py fails when a
reason a gate can return has no line here.
"""

REASON_REMEDIES: dict[str, str] = {
    "account_suspended": (
        "The workspace is suspended and sends nothing on any channel; nothing will go out "
        "until an operator makes it active again (`homebase admin set-workspace-status "
        "--status active`). Reads and other writes keep working. Do not retry until then."
    ),
    "opted_out": (
        "The recipient opted out (a STOP reply or an unsubscribe link), bounced, or was "
        "suppressed by hand: do not retry. A phone number's opt-out is lifted only by the "
        "recipient texting START or UNSTOP to the workspace."
    ),
    "a2p_not_approved": (
        "Register a carrier-approved sending number for this channel: once its A2P 10DLC "
        "registration is approved, an operator runs `homebase admin add-sender-number "
        "--workspace <id> --number <E.164> --channel sms|whatsapp --a2p-status approved`, "
        "then send again."
    ),
    "quiet_hours": (
        "Send again inside the workspace's sending window (sms_window_start to "
        "sms_window_end, default 08:00-20:00) in the recipient's local time, in every zone "
        "its area code maps to, and within the stricter hours and days of the number's state "
        '(docs/messaging.md, "Lawful hours by state": Texas 09:00-21:00, noon on Sunday; '
        "no Sunday texts in some states). A reply within reply_window_hours of the "
        "recipient's own text is not held to the window; a number with no known zone can "
        "only be replied to."
    ),
    "consent_missing": (
        "Capture the recipient's consent first: create the lead with a `consent` object "
        "(POST /v1/leads: captured_at, source_url, ip, form_snapshot) for this number; it "
        "is valid for the workspace's consent_validity_days. A reply within "
        "reply_window_hours of the recipient's own text needs no consent artifact."
    ),
    "attempt_limit": (
        "The recipient's state allows only a few proactive texts or calls per 24 hours on "
        "the same subject (Florida, Oklahoma, Maryland: 3), and this workspace has made "
        "them: wait until the oldest is 24 hours old, or until the recipient writes (a "
        "reply is not counted). Do not retry in a loop."
    ),
}
