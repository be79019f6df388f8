"""Recording consent artifacts and answering "may we contact this number?".

An artifact belongs to the workspace and the E.164 number, not to one lead: the
messaging consent gate calls `valid_consent(session, phone_e164, now)`.
"""

from datetime import UTC, datetime, timedelta
from typing import Any

from homebase.consent.schemas import ConsentIn
from homebase.db.tenancy import TenantSession
from homebase.kit.ids import new_id
from homebase.kit.masking import mask_phone
from homebase.models import ConsentArtifact

artifacts = ConsentArtifact.__table__


def _aware(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


async def record(
    session: TenantSession,
    consent: ConsentIn,
    *,
    phone: str,
    phone_e164: str | None,
    lead_id: str | None,
    validity_days: int,
) -> dict[str, Any]:
    """Validity runs from when the person consented, never from a later (future) claim."""
    now = session.now()
    captured_at = _aware(consent.captured_at) if consent.captured_at else now
    row = {
        "id": new_id("cns"),
        "phone": phone,
        "phone_e164": phone_e164,
        "lead_id": lead_id,
        "captured_at": captured_at,
        "source_url": consent.source_url,
        "ip": consent.ip,
        "form_snapshot": consent.form_snapshot,
        "recorded_at": now,
        "expires_at": min(captured_at, now) + timedelta(days=validity_days),
        "revoked_at": None,
        "ai_voice": consent.ai_voice,
    }
    await session.insert(artifacts, row)
    return row


async def valid_consent(
    session: TenantSession, phone_e164: str | None, *, now: datetime
) -> dict[str, Any] | None:
    """The longest-lived unexpired, unrevoked artifact for the number, or None."""
    if not phone_e164:
        return None
    return await session.fetch_one(
        session.select(artifacts)
        .where(
            artifacts.c.phone_e164 == phone_e164,
            artifacts.c.expires_at > now,
            artifacts.c.revoked_at.is_(None),
        )
        .order_by(artifacts.c.expires_at.desc())
        .limit(1)
    )


async def has_voice_consent(
    session: TenantSession, phone_e164: str | None, *, now: datetime
) -> bool:
    """Whether an unexpired, unrevoked artifact for the number says its person agreed to
    AI calls (`ai_voice` true): no AI call without one (docs/voice.md)."""
    if not phone_e164:
        return False
    found = await session.fetch_one(
        session.select(artifacts, artifacts.c.id)
        .where(
            artifacts.c.phone_e164 == phone_e164,
            artifacts.c.expires_at > now,
            artifacts.c.revoked_at.is_(None),
            artifacts.c.ai_voice.is_(True),
        )
        .limit(1)
    )
    return found is not None


async def erase_for_leads(session: TenantSession, lead_ids: list[str]) -> list[str]:
    """Contact erasure: the artifacts recorded with these leads are revoked (nobody may
    text an erased person on the strength of them) and lose the personal data they hold
    (the number, the IP address, the form as submitted); the dates and the form's URL
    stay as the record that consent once existed. Returns the artifacts' ids."""
    if not lead_ids:
        return []
    rows = await session.fetch_all(
        session.select(artifacts, artifacts.c.id, artifacts.c.phone, artifacts.c.revoked_at).where(
            artifacts.c.lead_id.in_(lead_ids)
        )
    )
    now = session.now()
    for row in rows:
        await session.execute(
            session.update(artifacts)
            .where(artifacts.c.id == row["id"])
            .values(
                phone=mask_phone(row["phone"]) or "",
                phone_e164=None,
                ip=None,
                form_snapshot=None,
                revoked_at=row["revoked_at"] or now,
            )
        )
    return [row["id"] for row in rows]
