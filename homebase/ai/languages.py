"""The lead's language (docs/ai.md, "The lead's language").

The model names the conversation's language in its answer (`language`, ISO 639-1). The
persona's `languages` (DEFAULT when unset) are those the AI answers in: any other hands
the lead to a person (reason LANGUAGE). The persona's texts the service adds (`disclosure`,
`handoff_reply`, `signature`, and the opt-out's confirmation) have a text per language in
its `translations`; a language without one, or an answer that names none, uses the
persona's own fields (and the workspace's confirmation).
"""

import re
from typing import Literal

from homebase.automations.records import PersonaRecord

DEFAULT = ("en", "es")
LANGUAGE = "language"  # the handoff's reason
TEXTS = ("disclosure", "handoff_reply", "signature", "opt_out_confirmation")
Text = Literal["disclosure", "handoff_reply", "signature", "opt_out_confirmation"]
_CODE = re.compile(r"[a-z]{2}")


def code(value: object) -> str | None:
    """An answer's `language` as an ISO 639-1 code (`es`, `ES`, `es-MX` read as `es`),
    or None when it names none."""
    if not isinstance(value, str):
        return None
    head = value.strip().lower().replace("_", "-").split("-")[0]
    return head if _CODE.fullmatch(head) else None


def allowed(persona: PersonaRecord) -> tuple[str, ...]:
    return tuple(persona["languages"] or DEFAULT)


def refused(persona: PersonaRecord, language: str | None) -> bool:
    """The lead writes in a language the persona does not answer in."""
    return language is not None and language not in allowed(persona)


def text(persona: PersonaRecord, name: Text, language: str | None) -> str | None:
    """The persona's `name` text in `language`: its translation, else its own field
    (None for the confirmation, whose own text is the workspace's)."""
    translated = (persona["translations"] or {}).get(language or "", {}).get(name)
    if translated:
        return translated
    if name == "opt_out_confirmation":
        return None
    own: str | None = persona[name]
    return own


def every(persona: PersonaRecord, name: Text) -> list[str]:
    """The persona's `name` text in every language it has (its own field first)."""
    found = [persona[name]] if name != "opt_out_confirmation" and persona[name] else []
    for texts in (persona["translations"] or {}).values():
        if texts.get(name):
            found.append(texts[name])
    return [str(item) for item in found if item]
