"""Every send passes one gate: messaging/service.py `decide` (compliance/gates.py
`evaluate` over the workspace, the recipient and the clock), whose first gate refuses
everything for a suspended workspace. Held here by where the names are used, so a send
path added later (a campaign runner, an AI reply job) fails this test until it goes
through the same functions: the behaviour of each path is tested at the HTTP level
(tests/test_suspension.py, tests/messaging/test_messages.py, tests/automations/)."""

from tests.source_support import users


def _outside(name: str, *skipped: str) -> dict[str, set[str]]:
    return {
        module: functions
        for module, functions in users(name).items()
        if not module.startswith(("providers/", *skipped))
    }


def test_only_the_send_job_reaches_a_provider_and_only_with_claims_the_gate_allowed():
    # A provider is picked and handed a message only in the send job, and a member's
    # invitation email: the service's own mail to a member-to-be, no message to a contact
    # (workspaces/invitations.py) ...
    invitation = {"workspaces/invitations.py": {"<module>", "send_email"}}
    assert _outside("provider_for") == {
        "messaging/jobs.py": {"<module>", "send_one"},
        **invitation,
    }
    assert _outside("Outbound") == {"messaging/jobs.py": {"<module>", "outbound"}, **invitation}
    # ... whose claims are the rows `claim` let through `_allowed` (in `allowed`, the
    # choice it hands the leased queue), the gate again just before the provider (a
    # suspension after the request still stops the message).
    assert users("_allowed") == {"messaging/jobs.py": {"claim", "allowed"}}
    assert users("send_one") == {"messaging/jobs.py": {"send_due"}}


def test_every_request_to_send_goes_through_the_same_gate():
    # The gate's one decision, and its callers: the request path and the send job.
    # The AI's calls ask the same evaluate (its account and suppression gates) before a
    # call is queued and again before it is dialled (voice/service.py; docs/voice.md).
    assert _outside("evaluate", "routing/") == {
        "messaging/service.py": {"<module>", "decide"},
        "voice/service.py": {"refusal"},
    }
    assert _outside("decide", "routing/", "ratelimit/") == {
        "messaging/service.py": {"send"},
        "messaging/jobs.py": {"_allowed"},
        "messaging/confirmation.py": {"confirm"},
        # the look before a text that waits for its lawful minute: records and sends
        # nothing (the AI's unasked texts, automations' text steps), the send then gated
        "messaging/lawful.py": {"waits"},
    }
    assert users("waits") == {
        "ai/outreach_jobs.py": {"_read", "_send"},
        "automations/actions.py": {"_lawful_wait"},
    }
    # The request path's callers: the API (through send_by_person, which adds the human
    # takeover's pause) and the automations' send step (AI texts among them). A message
    # queued any other way is still gated by the send job's claim.
    senders = {
        module: functions
        for module, functions in users("send").items()
        if module.startswith(("messaging/", "automations/", "leads/", "contacts/"))
        and module != "messaging/jobs.py"  # provider.send in send_one, held above
    }
    assert senders == {
        "messaging/service.py": {"send_by_person"},
        "automations/actions.py": {"send_message"},
    }
    # The console's reply (the inbox) is a person's message too.
    assert users("send_by_person") == {
        "messaging/endpoints.py": {"send_message"},
        "console/inbox.py": {"reply"},
    }


def test_an_opt_out_s_confirmation_takes_one_path_through_the_gate():
    """Every opt-out (a keyword or sentence in the inbound callback, the AI's reading) is
    confirmed by confirmation.confirm alone, which asks the gate with `confirmation` (every
    gate but the opt-out gate); the send job asks the same for a queued confirmation."""
    confirmers = {
        module: functions
        for module, functions in users("confirm").items()
        if module.startswith(("messaging/", "ai/"))
    }
    assert confirmers == {
        "messaging/opt_outs.py": {"opt_out"},
        "messaging/unsubscribe_endpoints.py": {"show_unsubscribe_page"},  # a page's value
    }
    # the opt-out path's callers: the inbound callback's keywords and the AI's reading
    # (GET /v1/ai/stats counts opt-outs: ai/stats.py reads the path's REASON and, as
    # ai/schemas.py, names the stats' `opt_outs` member; neither opts anyone out)
    counting = {"ai/stats.py", "ai/schemas.py"}
    callers = {module: f for module, f in users("opt_outs").items() if module not in counting}
    assert callers == {
        "messaging/inbound.py": {"<module>", "_revocation", "_keyword"},
        "ai/service.py": {"<module>", "opt_out"},
        # a call's "stop texting and calling me": suppressed under the path's REASON; no
        # confirmation text follows, the caller heard it said (docs/voice.md)
        "voice/conversation.py": {"<module>", "opt_out"},
    }
    assert users("confirmation") == {
        "compliance/gates.py": {"evaluate"},
        "messaging/service.py": {"decide"},
        "messaging/jobs.py": {"<module>", "_allowed"},
        "messaging/inbound.py": {"<module>", "_answer_again"},
        "messaging/opt_outs.py": {"<module>", "opt_out"},
    }


def test_the_one_send_outside_the_gate_is_the_carrier_required_keyword_reply():
    """HELP, START and UNSTOP replies travel in the answer to the provider's inbound
    callback (TwiML) and are recorded as sent without the gates: a carrier requires them,
    suspended or not (docs/messaging.md). An opt-out's confirmation is not among them."""
    assert users("_record_reply") == {"messaging/inbound.py": {"receive"}}
    assert users("_twiml") == {"messaging/provider_endpoints.py": {"receive_inbound_message"}}
