"""What routing sees of a lead: its source and phone, plus the routing members of its
context (zip, city, price, tags, stage, office_id, team_id). Badly typed context values
are ignored rather than refused: context is the sender's free-form object."""

from typing import Any

from homebase.kit.wire import JsonObject
from homebase.routing.engine import LeadFacts


def _text(value: Any) -> str | None:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if value >= 0 else None
    if isinstance(value, str):
        try:
            number = float(value.replace(",", "").replace("$", "").strip())
        except ValueError:
            return None
        return number if number >= 0 else None
    return None


def lead_facts(
    source: str, context: JsonObject, phone_e164: str | None, contact_stage: str | None
) -> LeadFacts:
    tags = context.get("tags")
    tags = tuple(tag for tag in tags if isinstance(tag, str)) if isinstance(tags, list) else ()
    return LeadFacts(
        source=source,
        zip=_text(context.get("zip")),
        city=_text(context.get("city")),
        price=_number(context.get("price")),
        has_phone=phone_e164 is not None,
        tags=tags,
        stage=_text(context.get("stage")) or contact_stage,
        office_id=_text(context.get("office_id")),
        team_id=_text(context.get("team_id")),
    )
