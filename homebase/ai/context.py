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

from pydantic import JsonValue

from homebase.ai import repository, rules
from homebase.ai.prompt import ListingFacts, Prompt, Speaker, Turn
from homebase.ai.records import LatestLead, Text
from homebase.automations.records import PersonaRecord
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.kit.masking import mask_freeform
from homebase.listings.records import ListingRecord
from homebase.messaging.keywords import words

CONVERSATION_TURNS = 20
LISTINGS = 5
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
    }
)


def _speaker(row: Text) -> Speaker:
    if row["direction"] == "INBOUND":
        return "lead"
    return "assistant" if row["ai_job_id"] is not None else "agent"


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


def _listing(row: ListingRecord) -> ListingFacts:
    cents = row["price_cents"]
    return ListingFacts(
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
    fixed: str,
) -> Prompt:
    """The prompt for a reply to `contact`; `fixed` is what the service adds around the
    reply (disclosure, signature), whose length the model's budget leaves out."""
    lead = await repository.latest_lead(session, contact["id"])
    listings: tuple[ListingFacts, ...] = ()
    if about_property([row["body"] or "" for row in conversation[-4:]]):
        listings = tuple(
            _listing(row) for row in await repository.active_listings(session, LISTINGS)
        )
    return Prompt(
        instructions=persona["instructions"] or "",
        persona_name=persona["name"],
        tone=persona["tone"],
        first_name=contact["first_name"],
        stage=contact["stage"],
        lead_source=lead["source"] if lead else None,
        lead_context=_lead_context(lead),
        conversation=tuple(Turn(_speaker(row), row["body"] or "") for row in conversation),
        listings=listings,
        links=tuple(persona["links"] or ()),
        phone=persona["phone"],
        max_characters=rules.characters_left(fixed),
        today=session.now().date(),
    )
