"""What the model is shown: the service alone picks it (docs/ai.md, "What the model sees").

- the responder persona's instructions, name and tone;
- the contact's first name and stage (never the last name, phone or email);
- the source of the contact's latest lead and only the `context` keys LEAD_CONTEXT_KEYS
  names, passed through the masking function (kit/masking.mask_freeform);
- the last CONVERSATION_TURNS texts of this contact's conversation;
- the workspace's active listings (at most LISTINGS) when the lead's texts are about a
  property (PROPERTY_WORDS);
- the date.

The persona's text, the listings and the date are the workspace's own; the rest came
from the lead (a public form, a text) and a provider gives it to the model as data, never
as instructions (ai/prompt.py, `lead_data`).

Nothing of another contact or another workspace: every query is the contact's own,
through the workspace's session.
"""

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from pydantic import JsonValue

from homebase.ai import languages, repository, rules, safe_words, showings, tools
from homebase.ai.actions import Desk
from homebase.ai.prompt import ListingFacts, Prompt, Speaker, Turn
from homebase.ai.records import LatestLead, ListingFactsRow, Text
from homebase.automations.records import PersonaRecord
from homebase.compliance.timezones import zones_for_number
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.masking import mask_freeform
from homebase.messaging.keywords import words

CONVERSATION_TURNS = 20
LISTINGS = 5
RANKED_FROM = 50  # the newest active listings a persona with actions ranks
# The lead form's members a model may read (a lead's `context` is free-form: anything
# else a source sent stays out of the prompt).
LEAD_CONTEXT_KEYS = frozenset(
    {
        "intent",
        "timeline",
        "price_min",
        "price_max",
        "budget",
        "beds",
        "baths",
        "city",
        "zip",
        "neighborhood",
        "property_type",
        "listing_id",
        "listing_address",
        "pre_approved",
        "message",
    }
)
PROPERTY_WORDS = frozenset(
    {
        "house",
        "home",
        "homes",
        "listing",
        "listings",
        "property",
        "properties",
        "condo",
        "apartment",
        "townhouse",
        "showing",
        "tour",
        "price",
        "bedroom",
        "bedrooms",
        "beds",
        "baths",
        "address",
        "available",
        "sqft",
        "open",
        # the same in Spanish (words() drops accents)
        "casa",
        "casas",
        "propiedad",
        "departamento",
        "apartamento",
        "precio",
        "recamaras",
        "habitaciones",
        "visita",
        "disponible",
    }
)


def _speaker(row: Text) -> Speaker:
    if row["direction"] == "INBOUND":
        return "lead"
    return "assistant" if row["ai_job_id"] is not None else "agent"


def _turn(row: Text, added: tuple[str, ...]) -> Turn:
    """A message as the model sees it: what the service added to an outgoing one (the
    disclosure, the signature) left out."""
    speaker = _speaker(row)
    text = row["body"] or ""
    return Turn(speaker, text if speaker == "lead" else safe_words.strip_added(text, added))


def latest_lead_texts(conversation: list[Text]) -> list[str]:
    """The lead's texts since the last message to them: what this reply answers."""
    texts: list[str] = []
    for row in reversed(conversation):
        if row["direction"] != "INBOUND":
            break
        texts.append(row["body"] or "")
    return list(reversed(texts))


def about_property(texts: list[str]) -> bool:
    return any(PROPERTY_WORDS.intersection(words(text)) for text in texts if text)


def _listing(row: ListingFactsRow) -> ListingFacts:
    cents = row["price_cents"]
    return ListingFacts(
        id=row["id"],
        address=row["address"],
        city=row["city"],
        price=f"${cents // 100:,}" if cents is not None else None,
        beds=row["beds"],
        baths=row["baths"],
        url=row["url"],
    )


def _lead_context(lead: LatestLead | None) -> dict[str, JsonValue]:
    if lead is None or not isinstance(lead["context"], dict):
        return {}
    kept = {key: value for key, value in lead["context"].items() if key in LEAD_CONTEXT_KEYS}
    masked: dict[str, JsonValue] = mask_freeform(kept)
    return masked


async def build(
    session: TenantSession,
    contact: ContactRecord,
    persona: PersonaRecord,
    conversation: list[Text],
    fixed: Mapping[str, str],
    *,
    segments_allowed: int,
    added: tuple[str, ...] = (),
    desk: Desk | None = None,
) -> Prompt:
    """The prompt for a reply to `contact`; `fixed` is what the service adds around the
    reply (disclosure, signature) in each of the persona's languages, whose length the
    model's budgets of `segments_allowed` segments leave out, one per language (the
    smallest is the one every provider keeps to, the local stand-in's); `added` (those texts in
    every language) is taken out of the messages sent to the lead, so the model never
    sees, and never repeats, them (ai/safe_words.strip_added). With a `desk` (a persona
    with actions): the tools and what acting needs (`acting`)."""
    lead = await repository.latest_lead(session, contact["id"])
    listings: tuple[ListingFacts, ...] = ()
    if desk is not None:
        wanted = (lead["context"] or {}).get("listing_id") if lead is not None else None
        said = " ".join((row["body"] or "").lower() for row in conversation)
        listings = await ranked_listings(session, wanted=wanted, said=said)
    elif about_property([row["body"] or "" for row in conversation[-4:]]):
        listings = tuple(
            _listing(row) for row in await repository.active_listings(session, LISTINGS)
        )
    budgets = tuple(
        (language, *rules.characters_left(text, segments_allowed))
        for language, text in fixed.items()
    )
    prompt = Prompt(
        instructions=persona["instructions"] or "",
        persona_name=persona["name"],
        tone=persona["tone"],
        first_name=contact["first_name"],
        stage=contact["stage"],
        lead_source=lead["source"] if lead else None,
        lead_context=_lead_context(lead),
        conversation=tuple(_turn(row, added) for row in conversation),
        listings=listings,
        links=tuple(persona["links"] or ()),
        phone=persona["phone"],
        max_characters=min(gsm7 for _, gsm7, _ in budgets),
        max_characters_ucs2=min(ucs2 for _, _, ucs2 in budgets),
        budgets=budgets,
        languages=languages.allowed(persona),
        today=session.now().date(),
    )
    return prompt if desk is None else await acting(session, desk, prompt)


async def ranked_listings(
    session: TenantSession, *, wanted: object, said: str
) -> tuple[ListingFacts, ...]:
    """The workspace's active listings by relevance, at most LISTINGS: the lead's listing
    of interest (its form's `listing_id`), those the conversation names (by the address's
    number and street), then the newest."""
    rows = await repository.active_listings(session, RANKED_FROM)

    def rank(row: ListingFactsRow) -> int:
        if wanted and row["id"] == wanted:
            return 0
        street = " ".join(str(row["address"]).lower().split()[:2])
        return 1 if street and street in said else 2

    ordered = sorted(rows, key=rank)  # stable: newest first within a rank
    return tuple(_listing(row) for row in ordered[:LISTINGS])


def _local(moment: datetime, zone: ZoneInfo) -> str:
    return f"{moment.astimezone(zone):%A %d %B %Y, %H:%M} ({zone.key})"


async def acting(session: TenantSession, desk: Desk, prompt: Prompt) -> Prompt:
    """What a persona with actions is told besides: its tools, the time in the
    workspace's zone and in the lead's (by area code), the free showing slots of the
    next days, the contact's upcoming appointments and what earlier replies did."""
    contact, now = desk.contact, desk.now
    zones = zones_for_number(contact["phone_e164"])
    slots: list[datetime] = []
    if desk.shower is not None:
        horizon = now + timedelta(days=showings.HORIZON_DAYS + 1)
        busy = [
            (starts, ends)
            for starts, ends, _ in await repository.busy(session, desk.shower, now, horizon)
        ]
        slots = showings.free_slots(now, desk.zone, desk.hours, desk.minutes, busy)
    upcoming = await repository.upcoming(session, contact["id"], now)
    done = await repository.actions_done(session, contact["id"])
    return replace(
        prompt,
        tools=tools.definitions(
            desk.allowed, qualification_fields=desk.qualification_fields, tags=desk.tags
        ),
        now_local=_local(now, desk.zone),
        lead_time=_local(now, ZoneInfo(zones[0])) if len(zones) == 1 else None,
        slots=tuple(showings.describe(slots, desk.zone)),
        appointments=tuple(
            f"id {row['id']}: {row['title']}, {_local(row['starts_at'], desk.zone)}"
            for row in upcoming
        ),
        done=tuple(
            f"{row['tool']}" + (f" ({row['object_id']})" if row["object_id"] else "")
            for row in done
        ),
    )


async def call_summary(
    session: TenantSession,
    contact: ContactRecord | None,
    persona: PersonaRecord | None,
    conversation: tuple[Turn, ...],
    *,
    ending: str,
) -> Prompt:
    """The prompt of a finished AI call's summary (purpose `summary`, voice/summaries.py):
    the persona's name and tone, the lead's facts as a reply's prompt has them (first
    name, stage, the latest lead's source and allow-listed context, masked), the call's
    transcript as its `conversation` (the lead's words, quoted as data by every provider)
    and the service's line on how it ended. No listings, tools or links: the summary is
    for the team and is never sent to the lead."""
    lead = await repository.latest_lead(session, contact["id"]) if contact is not None else None
    return Prompt(
        instructions=(persona["instructions"] or "") if persona is not None else "",
        persona_name=persona["name"] if persona is not None else "the assistant",
        tone=persona["tone"] if persona is not None else "friendly",
        first_name=contact["first_name"] if contact is not None else None,
        stage=contact["stage"] if contact is not None else "unknown",
        lead_source=lead["source"] if lead else None,
        lead_context=_lead_context(lead),
        conversation=conversation,
        today=session.now().date(),
        purpose="summary",
        call_ending=ending,
    )
