"""The offline responder: HOMEBASE_AI_PROVIDER=local, the default outside production."""

import json
import re
from datetime import datetime

from homebase.ai.prompt import ListingFacts, ModelAnswer, Prompt, ToolCall

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
# A lead who writes Spanish (the persona allowing it) gets the same answers in Spanish.
_SPANISH = re.compile(
    r"\b(hola|gracias|quiero|queremos|casa|precio|cu[aá]nto|disponible|buenos d[ií]as"
    r"|buenas tardes|por favor|visita|verla|verlo)\b|[¿¡]",
    re.IGNORECASE,
)
_SHOWING_ES = re.compile(r"\b(visita[rs]?|verla|verlo|ver la casa|mostrar|recorrido)\b", re.I)
_PRICE_ES = re.compile(r"\b(precio|cu[aá]nto|cuesta|vale)\b", re.I)
_GREETING_ES = re.compile(r"\b(hola|buenos d[ií]as|buenas tardes|buenas noches)\b", re.I)
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
        if prompt.purpose == "summary":  # an AI call's, for the team (voice/summaries.py)
            return ModelAnswer(reply=call_summary(prompt))
        if prompt.purpose != "reply":  # a text the AI sends unasked (ai/outreach.py)
            return ModelAnswer(reply=_fit(unasked(prompt), prompt.max_characters))
        text = _unanswered(prompt)
        if _PERSON.search(text):
            return ModelAnswer(reply=None, handoff=True, handoff_reason="asked for a person")
        listing = prompt.listings[0] if prompt.listings else None
        if prompt.tools:  # a persona with actions: the stand-in books and qualifies too
            acted = acting(prompt, text, listing)
            if acted is not None:
                if acted.reply is not None:
                    return ModelAnswer(reply=_fit(acted.reply, prompt.max_characters))
                return acted
        if "es" in prompt.languages and _SPANISH.search(text):
            return ModelAnswer(
                reply=_fit(_spanish(prompt, text, listing), _es_limit(prompt)), language="es"
            )
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


# Follow-ups, each worded differently: the n-th is the first of these, from the n-th on,
# that no earlier text of the assistant said.
NUDGES = (
    "Just checking in: are you still looking for a home?",
    "Any questions I can answer for you about the area or the listings?",
    "Would a quick showing this week help you decide?",
    "New homes come up often. Want me to keep an eye out for you?",
    "Still happy to help whenever you're ready. What matters most to you in a home?",
    "Is now a good time to talk about your plans, or later this season?",
)


def unasked(prompt: Prompt) -> str:
    """A first touch naming the lead's listing of interest (or asking what they want), or
    the follow-up's nudge not said before."""
    name = f" {prompt.first_name}" if prompt.first_name else ""
    if prompt.purpose == "first_touch":
        listing = prompt.listings[0] if prompt.listings else None
        if listing is not None:
            return (
                f"Hi{name}, this is {prompt.persona_name}. Thanks for asking about "
                f"{listing.address}! Would you like to see it this week?"
            )
        return (
            f"Hi{name}, this is {prompt.persona_name}. Thanks for reaching out! Are you "
            "looking to buy or to sell?"
        )
    if prompt.purpose == "automation":
        return f"Hi{name}, this is {prompt.persona_name}. {prompt.brief or 'Just checking in!'}"
    said = {turn.text.strip() for turn in prompt.conversation if turn.speaker == "assistant"}
    start = max(prompt.follow_up - 1, 0)
    for offset in range(len(NUDGES)):
        nudge = NUDGES[(start + offset) % len(NUDGES)]
        if nudge not in said:
            return nudge
    return f"Hi{name}, still here if you need anything (follow-up {prompt.follow_up})."


# What the lead wanted, by the reply's own keywords, first match.
_WANTS = ((_PERSON, "to talk with a person"), (_SHOWING, "a showing"), (_PRICE, "a price"))
_LEARNED = ("intent", "timeline", "budget_max", "working_with_agent")
WANTS_CHARS = 100  # of the lead's own words, when no keyword says what they wanted


def call_summary(prompt: Prompt) -> str:
    """A finished call in the handoff summary's three lines (ai/handoff.py): `Wants:`
    (a showing, a price, a person, by keyword; else the lead's first words), `Learned:`
    (the obvious answers the stand-in reads when acting: intent, timeline, budget,
    another agent), `Promised:` (a transfer or a person's follow-up, as the call ended;
    a showing the AI said it booked; else nothing yet). Deterministic, from the
    transcript and `call_ending` alone."""
    said = [turn.text for turn in prompt.conversation if turn.speaker == "lead"]
    told = " ".join(turn.text for turn in prompt.conversation if turn.speaker == "assistant")
    text = "\n".join(said)
    wants = next((phrase for pattern, phrase in _WANTS if pattern.search(text)), None)
    if wants is None:
        wants = " ".join(said[0].split())[:WANTS_CHARS] if said else "nothing said"
    learned = ", ".join(
        f"{item['key'].replace('_', ' ')} {item['value']}"
        for item in _qualification(text, list(_LEARNED))
    )
    ending = prompt.call_ending or ""
    if "Transferred" in ending:
        promised = "a warm transfer to the agent's phone"
    elif "handed to a person" in ending:
        promised = "a follow-up from a person on the team"
    elif "booked" in told.lower():
        promised = "the showing booked on the call"
    else:
        promised = "nothing yet"
    return f"Wants: {wants}\nLearned: {learned or 'nothing new'}\nPromised: {promised}"


def _es_limit(prompt: Prompt) -> int:
    """The Spanish budget: a reply with á, í, ó, ú is UCS-2 (ai/rules.py)."""
    spanish = [ucs2 for language, _, ucs2 in prompt.budgets if language == "es"]
    return min(spanish or [prompt.max_characters_ucs2])


def _spanish(prompt: Prompt, text: str, listing: ListingFacts | None) -> str:
    """The same few answers, in Spanish, for a lead who writes Spanish."""
    if _SHOWING_ES.search(text):
        if listing is None:
            return "Con gusto le muestro una casa. ¿Cuál, y qué día le viene bien?"
        where = f"{listing.address}, {listing.city}"
        return f"Con gusto le muestro {where}. ¿Qué día y hora le vienen bien?"
    if _PRICE_ES.search(text):
        if listing is None or listing.price is None:
            return "¡Con gusto! ¿Qué rango de precio busca?"
        return f"{listing.address} está a la venta por {listing.price}. ¿Quiere verla?"
    if _GREETING_ES.search(text):
        name = f" {prompt.first_name}" if prompt.first_name else ""
        return f"¡Hola{name}! Soy {prompt.persona_name}. ¿Busca comprar o vender?"
    return "¡Gracias! ¿Para cuándo busca y en qué zona?"


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
    texts are far below the default budget). The cut ends with "...", GSM-7 as sent."""
    if len(reply) <= limit:
        return reply
    cut = reply[: max(limit - 3, 0)].rsplit(" ", 1)[0]
    return cut + "..."


# What the stand-in reads to act (docs/ai.md, "The stand-in acts too"): a day and a time
# the lead names ("Saturday at 11", "sat 2pm", "tomorrow 10:30"), and obvious answers.
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:\d{2})")
_DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY = re.compile(
    r"\b(monday|mon|tuesday|tues|tue|wednesday|wed|thursday|thurs|thu|friday|fri|saturday|sat"
    r"|sunday|sun)\b|\b(tomorrow)\b",
    re.IGNORECASE,
)
_TIME = re.compile(r"\b(1[0-2]|0?[1-9])(?::([0-5][0-9]))?\s*(am|pm|a\.m\.|p\.m\.)?(?!\d)", re.I)
_BUDGET = re.compile(r"\$?\s?(\d{2,3}(?:[.,]\d)?)\s?(k|m)\b|\$\s?(\d{3},\d{3}(?:,\d{3})?)", re.I)
_SOON = re.compile(
    r"\b(asap|right away|next month|this month|within (a|one|two|three|1|2|3) months?)\b", re.I
)
_AGENT = re.compile(
    r"\b(already (have|working with) an? (agent|realtor)|working with an? (agent|realtor))\b", re.I
)
_INTENT = {
    "buy": re.compile(r"\b(buy|buying)\b", re.I),
    "sell": re.compile(r"\b(sell|selling)\b", re.I),
}


def _offered(prompt: Prompt) -> dict[str, list[str]]:
    """The tools offered, each with the keys its `values` may name (set_qualification's)."""
    found: dict[str, list[str]] = {}
    for tool in prompt.tools:
        function = tool["function"]
        keys: list[str] = []
        if function["name"] == "set_qualification":
            text = json.dumps(function["parameters"])
            keys = re.findall(r'"enum": \[([^\]]*)\]', text)
            keys = json.loads("[" + keys[0] + "]") if keys else []
        found[function["name"]] = keys
    return found


def _wanted_slot(prompt: Prompt, text: str) -> datetime | None:
    """The free slot the lead named by day and time, if one is."""
    day, hour = _DAY.search(text), _hour(_DAY.sub(" ", text))
    if day is None or hour is None:
        return None
    number = int(hour.group(1)) % 12
    number += 12 if (hour.group(3) or "").lower().startswith("p") or number < 8 else 0
    minute = int(hour.group(2) or 0)
    starts = [
        datetime.fromisoformat(token) for line in prompt.slots for token in _ISO.findall(line)
    ]
    if not starts:
        return None
    first = starts[0].date()
    for start in starts:
        if (start.hour, start.minute) != (number, minute):
            continue
        if day.group(2) is not None and (start.date() - first).days == 1:
            return start  # "tomorrow": the day after the slots begin (today)
        if day.group(1) is not None and _DAYS[start.weekday()] == day.group(1).lower()[:3]:
            return start
    return None


def _hour(text: str) -> re.Match[str] | None:
    """The time the lead names: one with am/pm or minutes, or after "at" ("12 Elm St at
    11" is 11, not 12)."""
    for found in _TIME.finditer(text):
        before = text[: found.start()].rstrip().lower()
        if found.group(2) or found.group(3) or before.endswith(("at", "@", "around")):
            return found
    return None


def _qualification(text: str, keys: list[str]) -> list[dict[str, str]]:
    values: list[dict[str, str]] = []
    if "working_with_agent" in keys and _AGENT.search(text):
        values.append({"key": "working_with_agent", "value": "true"})
    if "timeline" in keys and _SOON.search(text):
        values.append({"key": "timeline", "value": "0-3 months"})
    if "intent" in keys:
        intents = [name for name, pattern in _INTENT.items() if pattern.search(text)]
        if intents:
            values.append({"key": "intent", "value": "both" if len(intents) == 2 else intents[0]})
    budget = _BUDGET.search(text)
    if "budget_max" in keys and budget is not None:
        if budget.group(3):
            amount = int(budget.group(3).replace(",", ""))
        else:
            scale = 1_000 if budget.group(2).lower() == "k" else 1_000_000
            amount = int(float(budget.group(1).replace(",", ".")) * scale)
        values.append({"key": "budget_max", "value": str(amount)})
    return values


def acting(prompt: Prompt, text: str, listing: ListingFacts | None) -> ModelAnswer | None:
    """One call at a time: book the showing the lead named, then record obvious answers;
    then a reply that says what was done (or why not). None: answer as without tools."""
    offered = _offered(prompt)
    called = {call.name for done in prompt.rounds for call in done.calls}
    slot = _wanted_slot(prompt, text)
    if "book_showing" in offered and "book_showing" not in called and slot is not None:
        if listing is not None and listing.id is not None:
            arguments = {"listing_id": listing.id, "starts_at": slot.isoformat()}
            return _call("book_showing", arguments)
    values = _qualification(text, offered.get("set_qualification", []))
    if values and "set_qualification" not in called and not prompt.last_round:
        return _call("set_qualification", {"values": values})
    for done in prompt.rounds:
        for call, result in zip(done.calls, done.results, strict=True):
            if call.name == "book_showing" and listing is not None and slot is not None:
                if json.loads(result).get("ok"):
                    when = f"{slot:%A %d %B at %H:%M}"
                    return ModelAnswer(
                        reply=f"You're booked for a showing of {listing.address} on {when}."
                    )
                return ModelAnswer(reply="That time isn't free. Which other day and time suit you?")
    if called:
        return ModelAnswer(reply="Thanks, noted! Would you like to see a home this week?")
    return None


def _call(name: str, arguments: object) -> ModelAnswer:
    return ModelAnswer(
        reply=None, tool_calls=(ToolCall(f"local_{name}", name, json.dumps(arguments)),)
    )
