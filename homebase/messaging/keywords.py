"""What an inbound text asks for: an opt-out, an opt-in (START, UNSTOP), HELP, or nothing.

The FCC's TCPA rules (in force since April 2025) name stop, quit, end, revoke, opt out,
cancel and unsubscribe as revoking consent, and count revocation "by any reasonable means",
so an opt-out is read from the words of the text, not only from a whole-message keyword
(docs/messaging.md, "Inbound and opt-out keywords", has the rule and its table):

1. Normalise: Unicode NFKC (full-width letters become ASCII ones), case-fold, delete
   apostrophes (so don't, don’t and dont are one word) and format characters (a zero-width
   space inside a word), delete combining marks, and turn every other character that is
   not a letter or a digit (punctuation, hyphens, symbols, emoji) into a space; split on
   spaces. A text of single letters only (`s t o p`, `S.T.O.P.`) is read as the word they
   spell.
2. The whole text, alone, is one of ALONE: an opt-out.
3. Otherwise a text of at most MAX_WORDS words holding one of WITHIN as whole words, not
   directly after don't, do not or never, is an opt-out. cancel and end count only alone:
   "cancel my showing" and "can we end at 5" are ordinary texts.

START, UNSTOP and HELP keep their older rule, the whole text in any case with surrounding
spaces and punctuation ignored, and are checked first; none of them holds an opt-out word.
The work is bounded: a text longer than MAX_CLASSIFIED characters (after trimming
surrounding spaces) is longer than any text the carrier delivers and is no keyword.
"""

import re
import unicodedata
from dataclasses import dataclass

OPT_OUT = "opt_out"
OPT_IN = "opt_in"
HELP = "help"

ALONE = frozenset(
    {
        "stop",
        "stop all",
        "stopall",
        "unsubscribe",
        "cancel",
        "end",
        "quit",
        "revoke",
        "opt out",
        "optout",
    }
)
WITHIN = (("opt", "out"), ("stop",), ("unsubscribe",), ("revoke",), ("optout",), ("quit",))
NEGATIONS = (("dont",), ("do", "not"), ("never",))
MAX_WORDS = 6
# Twilio delivers a text of at most 1600 characters (ten segments); anything longer is
# hostile or not a text, and is not worth normalising.
MAX_CLASSIFIED = 1600

_WHOLE = {"START": OPT_IN, "UNSTOP": OPT_IN, "HELP": HELP}
_EDGES = re.compile(r"^[\s\W_]+|[\s\W_]+$")
_APOSTROPHES = frozenset("'\u2018\u2019\u201b\u02bc\u02b9\u0060\u00b4\u2032\uff07")


@dataclass(frozen=True)
class Keyword:
    kind: str  # OPT_OUT | OPT_IN | HELP
    word: str  # what matched, upper case ("STOP", "OPT OUT", "UNSTOP"), kept as evidence


def words(text: str) -> list[str]:
    """The normalised words of a text (step 1 above)."""
    kept = []
    for char in unicodedata.normalize("NFKC", text).casefold():
        if char in _APOSTROPHES:
            continue
        category = unicodedata.category(char)
        if category[0] in "LN":
            kept.append(char)
        elif category[0] == "M" or category == "Cf":
            continue  # a mark left uncomposed, a variation selector, a zero-width joiner
        else:
            kept.append(" ")
    split = "".join(kept).split()
    if len(split) > 1 and all(len(word) == 1 for word in split):
        return ["".join(split)]
    return split


def _negated(split: list[str], at: int) -> bool:
    return any(
        at >= len(negation) and tuple(split[at - len(negation) : at]) == negation
        for negation in NEGATIONS
    )


def _opt_out_word(split: list[str]) -> str | None:
    whole = " ".join(split)
    if whole in ALONE:
        return whole
    if len(split) > MAX_WORDS:
        return None
    for term in WITHIN:
        for at in range(len(split) - len(term) + 1):
            if tuple(split[at : at + len(term)]) == term and not _negated(split, at):
                return " ".join(term)
    return None


def classify(body: str | None) -> Keyword | None:
    text = (body or "").strip()
    if not text or len(text) > MAX_CLASSIFIED:
        return None
    whole = _EDGES.sub("", text).upper()
    if whole in _WHOLE:
        return Keyword(_WHOLE[whole], whole)
    word = _opt_out_word(words(text))
    return Keyword(OPT_OUT, word.upper()) if word is not None else None
