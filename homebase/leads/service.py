"""The lead rules: capture with consent, linking to a contact, routing and assignment.

Linking: a lead joins the workspace's contact with the same E.164 number, else the same
email; with no match a contact is created from the lead. A lead whose phone is not a
possible number and that has no email stays unlinked (contact_id null): nothing
identifies the person reliably, and `unlinked_only=true` lists exactly these for triage.
"""

from homebase.ai import outreach
from homebase.consent import service as consent
from homebase.consent.schemas import ConsentIn
from homebase.contacts import render as contacts_render
from homebase.contacts import repository as contacts_repository
from homebase.contacts import service as contacts
from homebase.contacts import timeline
from homebase.contacts.records import ContactChanges, ContactRecord, TimelineRecord
from homebase.contacts.schemas import ContactCreate
from homebase.db.tenancy import TenantSession
from homebase.kit.errors import NotFound, ValidationFailed
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164
from homebase.leads import render, repository
from homebase.leads.facts import lead_facts
from homebase.leads.records import LeadAssignment, LeadChanges, LeadRecord
from homebase.leads.schemas import Lead, LeadCreate
from homebase.outbox.service import Event, emit_many
from homebase.routing import repository as routing_repository
from homebase.routing import service as routing
from homebase.routing.cache import routing_inputs
from homebase.routing.engine import Decision, Member
from homebase.workspaces.lead_policy import phone_region

MANUAL = "manual"


async def get_or_404(session: TenantSession, lead_id: str) -> LeadRecord:
    row = await repository.get(session, lead_id)
    if row is None:
        raise NotFound("No such lead.")
    return row


def _event_data(row: LeadRecord, session: TenantSession) -> Lead:
    """Outbox payloads never carry full phone numbers or addresses."""
    return render.lead(row, pii=True, now=session.now())


async def create_lead(
    session: TenantSession,
    data: LeadCreate,
    *,
    first_touch: bool = False,
    first_touch_per_minute: int | None = None,
    origin: str = "lead",
) -> LeadRecord:
    """`first_touch`: queue the AI's first text when the lead's consent allows AI outreach
    and the responder persona texts first (ai/outreach.py: one indexed read, one insert);
    POST /v1/leads asks for it, an import only when it asks (`origin` import, spaced
    `first_touch_per_minute`); a fixture load never does."""
    now = session.now()
    phone_e164 = to_e164(data.phone, await phone_region(session))
    email_lower = data.email.lower() if data.email else None
    contact = await repository.matching_contact(session, phone_e164, email_lower)
    row: LeadRecord = {
        "id": new_id("lea"),
        "contact_id": None,
        "first_name": data.first_name,
        "last_name": data.last_name,
        "email": data.email,
        "phone": data.phone,
        "phone_e164": phone_e164,
        "source": data.source,
        "source_ref": data.source_ref,
        "context": data.context,
        "consent_id": None,
        "consent_expires_at": None,
        "routing_status": "skipped",
        "assignee_id": None,
        "assigned_at": None,
        "routing_rule_id": None,
        "routing_method": None,
        "rotation_turn": None,
        "routing_reason": None,
        "created_at": now,
        "updated_at": now,
    }
    if not data.skip_routing:
        facts = lead_facts(
            data.source, data.context, phone_e164, contact["stage"] if contact else None
        )
        decision, _ = await routing.route(session, facts, preview=False)
        row = {**row, **_routing_columns(decision, session)}
    if data.consent is not None:
        await _record_consent(session, data, data.consent, row)
    events = Changes()
    contact = await _link_contact(
        session, data, contact, phone_e164, email_lower, row["assignee_id"], events
    )
    row["contact_id"] = contact["id"] if contact else None
    await repository.insert(session, row)
    _record_created(session, row, events)
    if row["assignee_id"] is not None:
        _record_assigned(session, row, None, row["routing_reason"], events)
    await events.write(session)
    if first_touch:
        await outreach.first_touch(
            session,
            contact_id=row["contact_id"],
            lead_id=row["id"],
            allowed=render.ai_outbound_allowed(row, now),
            origin=origin,
            per_minute=first_touch_per_minute,
        )
    return row


class Changes:
    """Timeline entries and outbox events of one operation, gathered and written as one
    multi-row INSERT each."""

    def __init__(self) -> None:
        self.timeline: list[TimelineRecord] = []
        self.events: list[Event] = []

    async def write(self, session: TenantSession) -> None:
        if self.timeline:
            await timeline.record_many(session, self.timeline)
        if self.events:
            await emit_many(session, self.events)


async def _record_consent(
    session: TenantSession, data: LeadCreate, evidence: ConsentIn, row: LeadRecord
) -> None:
    """The new consent covers every earlier lead of the number, whatever contact they
    were linked to: a lead linked by email keeps its own number while its contact holds
    another, and a contact's number can change or be erased, so the contact matched now
    says nothing about which earlier leads share the number."""
    validity = (await routing_inputs(session)).settings.consent_validity_days
    artifact = await consent.record(
        session,
        evidence,
        phone=data.phone,
        phone_e164=row["phone_e164"],
        lead_id=row["id"],
        validity_days=validity,
    )
    row["consent_id"], row["consent_expires_at"] = artifact["id"], artifact["expires_at"]
    if row["phone_e164"]:
        await repository.attach_consent(
            session, row["phone_e164"], artifact["id"], artifact["expires_at"]
        )


def _routing_columns(decision: Decision, session: TenantSession) -> LeadChanges:
    assigned = decision.assignee_id is not None
    return {
        "routing_status": "assigned" if assigned else "unassigned",
        "assignee_id": decision.assignee_id,
        "assigned_at": session.now() if assigned else None,
        "routing_rule_id": decision.rule.id if decision.rule else None,
        "routing_method": decision.method,
        "rotation_turn": decision.rotation_turn,
        "routing_reason": decision.reason[:500],
    }


async def _link_contact(
    session: TenantSession,
    data: LeadCreate,
    contact: ContactRecord | None,
    phone_e164: str | None,
    email_lower: str | None,
    assignee_id: str | None,
    changes: Changes,
) -> ContactRecord | None:
    if contact is None:
        if not (phone_e164 or email_lower):
            return None
        return await contacts.create_contact(
            session,
            ContactCreate(
                first_name=data.first_name,
                last_name=data.last_name,
                email=data.email,
                phone=data.phone,
                source=data.source,
                owner_id=assignee_id,
            ),
            owner_is_member=True,
        )
    if assignee_id is not None:
        await _set_owner(session, contact, assignee_id, changes)
    return contact


async def _set_owner(
    session: TenantSession,
    contact: ContactRecord,
    owner_id: str,
    changes: Changes,
) -> None:
    """Routing a lead hands its contact to the assignee (its event goes with `changes`)."""
    if contact["owner_id"] == owner_id:
        return
    now = session.now()
    values: ContactChanges = {"owner_id": owner_id, "updated_at": now}
    await contacts_repository.set_owner(session, contact["id"], owner_id, now)
    fields = await contacts.definitions(session)
    shown = contacts_render.contact({**contact, **values}, pii=True, custom=fields)
    changes.events.append(("contact.updated", {**shown, "changed": ["owner_id"]}))


def _record_created(session: TenantSession, row: LeadRecord, changes: Changes) -> None:
    if row["contact_id"] is not None:
        changes.timeline.append(
            timeline.entry(
                session,
                row["contact_id"],
                "lead_created",
                f"Lead from {row['source']}",
                data={
                    "lead_id": row["id"],
                    "source": row["source"],
                    "source_ref": row["source_ref"],
                },
            )
        )
    changes.events.append(("lead.created", _event_data(row, session)))


def _record_assigned(
    session: TenantSession,
    row: LeadRecord,
    previous: str | None,
    reason: str | None,
    changes: Changes,
) -> None:
    data = {
        "lead_id": row["id"],
        "contact_id": row["contact_id"],
        "assignee_id": row["assignee_id"],
        "previous_assignee_id": previous,
        "rule_id": row["routing_rule_id"],
        "method": row["routing_method"],
        "reason": reason,
    }
    if row["contact_id"] is not None:
        changes.timeline.append(
            timeline.entry(
                session, row["contact_id"], "lead_assigned", "Lead assigned", body=reason, data=data
            )
        )
    changes.events.append(("lead.assigned", {**data, "lead": _event_data(row, session)}))


async def assign_lead(
    session: TenantSession, lead_id: str, *, assignee_id: str | None
) -> LeadAssignment:
    """With assignee_id: that member, by hand. Without: re-route through the rules (a
    round-robin rule takes a turn). When re-routing finds nobody the lead is unchanged."""
    lead = await get_or_404(session, lead_id)
    if assignee_id is not None:
        member = await routing_repository.get_member(session, assignee_id)
        if member is None:
            raise ValidationFailed.for_field("assignee_id", "is not a member of this workspace")
        reason = f"Assigned by hand to {member['name']} ({member['id']})."
        columns: LeadChanges = {
            "routing_status": "assigned",
            "assignee_id": member["id"],
            "routing_rule_id": None,
            "routing_method": MANUAL,
            "rotation_turn": None,
            "routing_reason": reason,
        }
        decision = None
    else:
        decision, members = await _reroute(session, lead)
        columns = _routing_columns(decision, session)
        if decision.assignee_id is None:  # keep whoever has it
            columns = {"routing_reason": decision.reason[:500]}
        reason = decision.reason
    return await _apply_assignment(session, lead, columns, decision, reason)


async def _reroute(session: TenantSession, lead: LeadRecord) -> tuple[Decision, dict[str, Member]]:
    contact = (
        await contacts_repository.get(session, lead["contact_id"]) if lead["contact_id"] else None
    )
    facts = lead_facts(
        lead["source"], lead["context"], lead["phone_e164"], contact["stage"] if contact else None
    )
    return await routing.route(session, facts, preview=False)


async def _apply_assignment(
    session: TenantSession,
    lead: LeadRecord,
    columns: LeadChanges,
    decision: Decision | None,
    reason: str,
) -> LeadAssignment:
    previous = lead["assignee_id"]
    new_assignee = columns.get("assignee_id", previous)
    changed = new_assignee is not None and new_assignee != previous
    now = session.now()
    columns = {**columns, "updated_at": now}
    if changed:
        columns["assigned_at"] = now
    elif "assigned_at" in columns:
        columns["assigned_at"] = lead["assigned_at"]
    await repository.update(session, lead["id"], columns)
    updated: LeadRecord = {**lead, **columns}
    if changed and new_assignee is not None:
        changes = Changes()
        if updated["contact_id"] is not None:
            contact = await contacts_repository.get(session, updated["contact_id"])
            if contact is not None:
                await _set_owner(session, contact, new_assignee, changes)
        _record_assigned(session, updated, previous, reason, changes)
        await changes.write(session)
    return {
        "lead": updated,
        "assignee_id": updated["assignee_id"],
        "previous_assignee_id": previous,
        "changed": changed,
        "method": decision.method if decision else MANUAL,
        "rule": routing.rule_ref(decision) if decision else None,
        "rotation_turn": decision.rotation_turn if decision else None,
        "reason": reason,
    }


async def scrub_contact_leads(session: TenantSession, contact_id: str) -> None:
    """DELETE /contacts/{id}: the contact's leads and their consent evidence lose the
    person's data in place (docs/leads.md, Anonymization)."""
    rows = await repository.lead_rows_of(session, contact_id)
    revoked = await consent.erase_for_leads(session, [row["id"] for row in rows])
    await repository.erase(session, rows)
    if not revoked:
        return
    # Other leads of the number that relied on a revoked artifact take the best one left.
    for phone_e164 in await repository.numbers_relying_on(session, revoked):
        artifact = await consent.valid_consent(session, phone_e164, now=session.now())
        await repository.set_consent(session, phone_e164, revoked, artifact)
