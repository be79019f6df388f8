"""Every scrubber an erasure runs, in order, with the tables and stored things it covers,
and every table about a contact it leaves as it is, with why: the one list
erasure/service.py reads. Nothing registers itself by being imported; a new table or
stored file that holds a contact's data is a line here (tests/erasure/test_registry.py
walks the models and fails on a table about a contact that is on neither list).

Order: the contact's own row first, then what hangs off it, then the stored
idempotency answers (deleted, not scrubbed: a scrubbed answer could not be replayed as
the same one), and the stored events last, after anything above could have emitted one.
Each scrubber is idempotent: a repeated DELETE runs them all again and scrubs whatever a
path wrote after the first erasure.
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from homebase.ai import outreach as ai_outreach
from homebase.ai import service as ai
from homebase.appointments import service as appointments
from homebase.automations import campaign_service as campaigns
from homebase.automations import service as automations
from homebase.calls import service as calls
from homebase.contacts import service as contacts
from homebase.custom_fields import service as custom_fields
from homebase.db.tenancy import TenantSession
from homebase.exports import service as exports
from homebase.idempotency import store as idempotency
from homebase.imports import service as imports
from homebase.inbox import service as inbox
from homebase.leads import service as leads
from homebase.messaging import service as messaging
from homebase.outbox import service as outbox
from homebase.tasks import service as tasks
from homebase.voice import finish as voice


@dataclass(frozen=True)
class Scrubber:
    name: str
    run: Callable[[TenantSession, str], Awaitable[object]]  # (session, contact_id)
    tables: tuple[str, ...]  # the tables whose rows about the contact it scrubs
    stored: str | None = None  # what it does to data kept outside the database


SCRUBBERS: tuple[Scrubber, ...] = (
    Scrubber("contacts", contacts.scrub_contact, ("contacts",)),
    Scrubber("timeline", contacts.scrub_timeline, ("timeline_events",)),
    # Every custom value of the contact: its `custom_fields` JSON (on contacts) and the
    # typed rows the list filters read. A deal's custom values stay with the deal (KEPT).
    Scrubber("custom_fields", custom_fields.scrub_contact_custom_fields, ("custom_field_values",)),
    Scrubber("leads", leads.scrub_contact_leads, ("leads", "consent_artifacts")),
    Scrubber("messages", messaging.scrub_contact_messages, ("messages",)),
    # When each member last read the contact's conversation (the console's inbox).
    Scrubber("conversation_reads", inbox.scrub_contact_conversation_reads, ("conversation_reads",)),
    Scrubber(
        "calls",
        calls.scrub_contact_calls,
        ("calls",),
        stored="recordings: the call forgets its file (no link is issued again); the file "
        "stays in HOMEBASE_RECORDINGS_DIR for the operator to purge, because deleting it "
        "could not roll back with the request's transaction",
    ),
    Scrubber(
        "voice_calls",
        voice.scrub_contact_voice_calls,
        ("voice_calls",),
        stored="recordings of the AI's calls: deleted at the provider (its REST API's "
        "DELETE) and the copy in HOMEBASE_RECORDINGS_DIR removed, by the worker right "
        "after the erasure commits (voice/jobs.erase_recordings)",
    ),
    Scrubber(
        "appointments",
        appointments.scrub_contact_appointments,
        ("appointments",),
        stored="members' calendars: each appointment already pushed is pushed again, "
        "scrubbed (calendar_pushes)",
    ),
    Scrubber("tasks", tasks.scrub_contact_tasks, ("tasks", "task_dedupe")),
    Scrubber("automations", automations.scrub_contact_enrolments, ("automation_enrolments",)),
    # Ids, states and times only: the pending ones are skipped (erased), so no campaign
    # reaches the contact; the others stay as the campaign's record.
    Scrubber(
        "campaigns",
        campaigns.scrub_contact_campaign_enrolments,
        ("campaign_enrolments",),
    ),
    # Jobs hold ids, counts and outcomes, never a text or a prompt; the open one ends.
    Scrubber("ai", ai.scrub_contact_ai_jobs, ("ai_jobs", "ai_actions")),
    # What the AI owed the contact unasked: ids, times and outcomes; the open one ends.
    Scrubber("ai_outreach", ai_outreach.scrub_contact_ai_outreach, ("ai_outreach",)),
    Scrubber(
        "exports",
        exports.scrub_contact_exports,
        ("exports",),
        stored="export files in HOMEBASE_STORAGE_DIR: every completed export of a list that "
        "can carry a person's data (contacts, leads, messages, tasks, appointments) is "
        "expired in this transaction (its download refused from the commit on) and its file "
        "removed by the worker right after (exports.expire); a running one is queued again "
        "and made from scratch from the erased data",
    ),
    # An import's rows already written (to contacts and leads, scrubbed above) leave the
    # payload of a queued or running one; a finished one kept none. Its refused rows are
    # KEPT (below).
    Scrubber(
        "imports",
        imports.scrub_processed_rows,
        ("imports",),
        stored="CSV files uploaded in the console (HOMEBASE_STORAGE_DIR, imports/uploads/) "
        "are not read: each lives at most 24 hours (for the mapping, a dry run, the start "
        "and its refused rows' CSV, built from the upload on request and never stored), "
        "deleted by the worker's exports.expire 24 hours after the upload "
        "(imports/uploads.py). The "
        "rows files of the imports a CSV file started (imports/rows/) are not read either: "
        "the worker overwrites each batch's rows once it is committed, so they hold only "
        "rows not yet written, and deletes the file when the import finishes "
        "(imports/row_files.py)",
    ),
    Scrubber("idempotency", idempotency.scrub_contact_responses, ("idempotency_keys",)),
    Scrubber(
        "events",
        outbox.scrub_contact_events,
        ("outbox_events",),
        stored="webhook receivers: pending deliveries, retries and redeliveries are built "
        "from the scrubbed events; what a receiver already got is theirs",
    ),
)

# Tables about a contact (or holding a person's address) that no scrubber changes.
KEPT: dict[str, str] = {
    "deals": "a deal is the agency's business record (value, commission, stage); the spec "
    "keeps deals and commissions pointing at the anonymized contact, and the title is the "
    "agency's name for the deal (docs/decisions.md)",
    "suppressions": "an erased person's STOP must still be honoured: the number or email "
    "and the evidence of the opt-out stay (docs/messaging.md)",
    "call_revocations": "an erased person's \"don't call me\" must still be honoured, as a "
    "STOP is: the number, the phrase and the text that said it stay as evidence "
    '(docs/messaging.md, "Requests not to be called")',
    "automation_step_runs": "the outcome of each step in the service's own words (queued, "
    "a gate's refusal, a stage); message texts and task titles live in messages and tasks, "
    "which are scrubbed",
    "calendar_pushes": "the push job's state and the calendar server's status; the "
    "appointment's text is read from appointments at push time",
    "webhook_deliveries": "which event went to which subscription, and the receiver's "
    "status; the body is built from outbox_events at send time",
    "webhook_attempts": "status, latency and transport error of each POST; no event data",
    "users": "members of the workspace: their email is their sign-in, not a contact's",
    "member_invitations": "a member's invitation of a person to become a member: its email "
    "is a member's (or member-to-be's), never a contact's, and it is kept as the record of "
    'who invited whom (docs/console.md, "Decisions")',
    "dnc_registrations": "the workspace's extract of the National Do Not Call Registry: "
    "numbers whose owners asked not to be called, as the registry publishes them, not a "
    "contact's data; an erased person's registration must still be honoured, as a STOP is",
    "listings": "`address` is a property's, not a person's",
    "personas": "`phone` is the workspace's own business number that AI replies may carry, "
    "not a contact's (docs/decisions.md, \"A persona's phone\")",
    "import_errors": "a refused row made no contact to erase, and its row holds no personal "
    "data: the row's index in its import and the {field, message} items, which name the "
    "field and the rule and never repeat a submitted value (kit/validation.py, "
    "tests/test_errors_never_echo.py); pruned with its import by retention",
}
