"""The offline responder: HOMEBASE_AI_PROVIDER=local, the default outside production."""

import re

from homebase.ai.prompt import ListingFacts, ModelAnswer, Prompt

# Checked in this order: a request for a person wins over everything (handing off is
# never wrong), a showing over a price ("how much, and can I see it?" wants the showing),
# and a greeting only when the text asks nothing else ("Hi, what's the price?").
_PERSON = re.compile(r"\b(human|real person|agent|someone|somebody|call me)\b", re.IGNORECASE)
_SHOWING = re.compile(
    r"\b(tours?|showings?|visit(ing)?|viewings?"
    r"|see (the|this|that|your) (house|place|property|home|listing)|see it)\b",
    re.IGNORECASE,
)
_PRICE = re.compile(r"\b(price[ds]?|pricing|how much|costs?|asking)\b", re.IGNORECASE)
_GREETING = re.compile(
    r"\b(hi|hiya|hello|hey|howdy|good (morning|afternoon|evening))\b", re.IGNORECASE
)


class LocalResponder:
    """A stand-in for a language model: offline, deterministic, free, no network and no
    I/O. It reads the lead's unanswered texts (the last run of lead turns) and picks one
    of a few fixed answers by keyword: a request for a person hands off, a showing request
    offers a showing of the first listing, a price question gives its price, a greeting
    asks whether they are buying or selling, anything else asks their timeline and area.

    It is there so that the whole flow (queue, rules, sending, handing off) runs in a demo
    and in tests without a model server; it is not a conversational agent. Its replies are
    short, quote no text of the lead, and carry no URL but a listing's own and no phone
    number, so they pass the same rules a model's reply must.
    """

    name: str = "local"

    async def answer(self, prompt: Prompt) -> ModelAnswer:
        text = _unanswered(prompt)
        if _PERSON.search(text):
            return ModelAnswer(reply=None, handoff=True, handoff_reason="asked for a person")
        listing = prompt.listings[0] if prompt.listings else None
        if _SHOWING.search(text):
            reply = _showing(listing, prompt.max_characters)
        elif _PRICE.search(text):
            reply = _price(listing)
        elif _GREETING.search(text):
            name = f" {prompt.first_name}" if prompt.first_name else " there"
            reply = f"Hi{name}, this is {prompt.persona_name}! Are you looking to buy or to sell?"
        else:
            reply = "Thanks! What's your timeline, and which area are you looking in?"
        return ModelAnswer(reply=_fit(reply, prompt.max_characters))


def _unanswered(prompt: Prompt) -> str:
    """The lead's texts since the last reply; the last lead text when the conversation
    ends with a reply (a retry); "" when the lead has said nothing."""
    trailing: list[str] = []
    for turn in reversed(prompt.conversation):
        if turn.speaker != "lead":
            break
        trailing.append(turn.text)
    if trailing:
        return "\n".join(reversed(trailing))
    said = [turn.text for turn in prompt.conversation if turn.speaker == "lead"]
    return said[-1] if said else ""


def _showing(listing: ListingFacts | None, limit: int) -> str:
    if listing is None:
        return "I'd be glad to set up a showing. Which property, and what day suits you?"
    where = f"{listing.address}, {listing.city}"
    offer = f"I'd be glad to set up a showing of {where}. What day and time suit you?"
    # The link last, with nothing stuck to it (a checker or a phone would take a
    # trailing ")" or "." as part of it); left out rather than cut when it does not fit.
    if listing.url and len(linked := f"{offer} Details: {listing.url}") <= limit:
        return linked
    return offer


def _price(listing: ListingFacts | None) -> str:
    if listing is None or listing.price is None:
        return "Happy to help! What price range do you have in mind?"
    return f"{listing.address} is listed at {listing.price}. Would you like to see it?"


def _fit(reply: str, limit: int) -> str:
    """Cut at a word so the reply stays within the limit even for a long address or
    persona name (a link never reaches here cut: _showing drops it first); the fixed
    texts are far below the default 306 characters."""
    if len(reply) <= limit:
        return reply
    cut = reply[: max(limit - 1, 0)].rsplit(" ", 1)[0]
    return cut + "…"
