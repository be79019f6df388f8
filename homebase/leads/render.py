"""Lead rows to wire payloads; masking follows the credential, as for contacts: the typed
members by kit/masking's mask_phone / mask_email, the free-form `context` by value
(mask_freeform: every phone number and address written anywhere inside it)."""

from datetime import datetime

from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_email, mask_freeform, mask_phone
from homebase.leads.records import LeadConsent, LeadRecord
from homebase.leads.schemas import Lead


def ai_outbound_allowed(row: LeadConsent | LeadRecord, now: datetime) -> bool:
    """Only with consent on record for a usable number, and only until it expires."""
    expires_at = row["consent_expires_at"]
    return bool(row["phone_e164"]) and expires_at is not None and expires_at > now


def lead(row: LeadRecord, *, pii: bool, now: datetime) -> Lead:
    return {
        "id": row["id"],
        "contact_id": row["contact_id"],
        "first_name": row["first_name"],
        "last_name": row["last_name"],
        "email": row["email"] if pii else mask_email(row["email"]),
        "phone": row["phone"] if pii else mask_phone(row["phone"]),
        "phone_e164": row["phone_e164"] if pii else mask_phone(row["phone_e164"]),
        "pii_masked": not pii,
        "source": row["source"],
        "source_ref": row["source_ref"],
        "context": row["context"] if pii else mask_freeform(row["context"]),
        "ai_outbound_allowed": ai_outbound_allowed(row, now),
        "consent_id": row["consent_id"],
        "consent_expires_at": isoformat(row["consent_expires_at"]),
        "routing_status": row["routing_status"],
        "assignee_id": row["assignee_id"],
        "assigned_at": isoformat(row["assigned_at"]),
        "routing_rule_id": row["routing_rule_id"],
        "routing_method": row["routing_method"],
        "routing_reason": row["routing_reason"],
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }
