"""What an inbound text asks for: an opt-out, a request not to be called, an opt-in
(START, UNSTOP), HELP, or nothing.

The FCC's TCPA rules (in force since April 2025) name stop, quit, end, revoke, opt out,
cancel and unsubscribe as revoking consent, and count revocation "by any reasonable means",
so an opt-out is read from the words of the text, not only from a whole-message keyword
(docs/messaging.md, "Inbound and opt-out keywords", has the rule and its table):

1. Normalise: Unicode NFKD (full-width letters become ASCII ones, accents come apart from
   their letters), case-fold, delete apostrophes (so don't, don’t and dont are one word),
   format characters (a zero-width space inside a word) and combining marks (accents:
   más reads mas), and turn every other character that is not a letter or a digit
   (punctuation, hyphens, symbols, emoji) into a space; split on spaces. A text of single
   letters only (`s t o p`, `S.T.O.P.`) is read as the word they spell. Sentence and
   clause punctuation (. , ; : ! ? and line breaks, CLAUSE_BREAKS) also ends a clause.
2. The whole text, alone, is one of ALONE: an opt-out.
3. A text of at most MAX_WORDS words holding one of WITHIN as whole words, not directly
   after don't, do not or never, is an opt-out. cancel and end count only alone:
   "cancel my showing" and "can we end at 5" are ordinary texts.
4. The first word is one of FIRST: an opt-out, whatever follows ("STOP!!! wrong number").
5. At any length, one of TEXT_PHRASES inside one clause, not negated (dont, never or not
   among the two words before it in its clause; a phrase that is itself a negation,
   "don't text me", is not negated again): an opt-out.
6. Otherwise a text holding one of CALL_PHRASES ("don't call me", "stop calling") asks
   only not to be called: NO_CALLS, which is no text opt-out. Rules 3 and 4 do not count
   a word that belongs to a call phrase (the stop of "stop calling"); an opt-out that also
   holds a call phrase carries it in `calls`.

START, UNSTOP and HELP keep their older rule, the whole text in any case with surrounding
spaces and punctuation ignored, and are checked first; none of them holds an opt-out word.
The work is bounded: a text longer than MAX_CLASSIFIED characters (after trimming
surrounding spaces) is longer than any text the carrier delivers and is no keyword.
"""

import re
import unicodedata
from dataclasses import dataclass

OPT_OUT = "opt_out"
NO_CALLS = "no_calls"
OPT_IN = "opt_in"
HELP = "help"

# Spanish, matched without accents ("no más" reads "no mas")
ALONE_SPANISH = frozenset({"alto", "para", "parar", "basta", "cancelar", "no mas"})
ALONE = ALONE_SPANISH | frozenset(
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
        "not interested",
    }
)
WITHIN = (("opt", "out"), ("stop",), ("unsubscribe",), ("revoke",), ("optout",), ("quit",))
NEGATIONS = (("dont",), ("do", "not"), ("never",))
MAX_WORDS = 6
FIRST = frozenset({"stop", "stopall", "unsubscribe", "quit", "revoke", "optout"})
# Any of these among the two words before a phrase, in its clause, negates it.
NEGATING = frozenset({"dont", "never", "not"})
# Twilio delivers a text of at most 1600 characters (ten segments); anything longer is
# hostile or not a text, and is not worth normalising.
MAX_CLASSIFIED = 1600
CLAUSE_BREAKS = frozenset(".,;:!?¡¿…。、\n\r\u2028\u2029—–")


@dataclass(frozen=True)
class Choice:
    """A slot of a phrase: one of these word sequences."""

    sequences: tuple[tuple[str, ...], ...]
    firsts: frozenset[str]  # the words a sequence starts with: most places fail on it


# A phrase is a sequence of slots: a Choice, or a number: up to that many words of any kind.
Slot = Choice | int


@dataclass(frozen=True)
class Phrase:
    slots: tuple[Slot, ...]
    negative: bool = False  # itself a negation ("don't text me"): never negated again
    language: str | None = None  # "es": Spanish (its opt-out is confirmed in Spanish)


def _any(*words: str) -> Choice:
    sequences = tuple(tuple(word.split()) for word in words)
    return Choice(sequences, frozenset(sequence[0] for sequence in sequences))


_NEGATIVE = _any("dont", "do not", "never")
_TEXTING = _any("text", "message", "contact")
TEXT_PHRASES = (
    Phrase(
        (
            _any("stop", "quit", "end"),
            2,
            _any("texting", "messaging", "texts", "messages", "text", "contacting"),
        )
    ),
    Phrase((_any("opt out"),)),
    Phrase((_any("optout"),)),
    Phrase((_any("unsubscribe"),)),
    Phrase((_any("remove me"),)),
    Phrase((_any("take me off"),)),
    Phrase((_NEGATIVE, _TEXTING, _any("me")), negative=True),
    # "don't call or text me", "don't text or call me": texts too
    Phrase((_NEGATIVE, _any("call"), _any("or", "and"), _TEXTING, _any("me")), negative=True),
    Phrase((_NEGATIVE, _TEXTING, _any("or", "and"), _any("call"), _any("me")), negative=True),
    Phrase((_any("leave me alone"),)),
    Phrase((_any("wrong number"),)),
    Phrase((_any("no me"), _any("manden", "envien", "escriban", "contacten")), language="es"),
    Phrase(
        (_any("dejen de"), _any("escribir", "mandar", "enviar", "escribirme", "mandarme")),
        language="es",
    ),
    Phrase((_any("darme de baja"),), language="es"),
    Phrase((_any("no mas mensajes"),), language="es"),
)
CALL_PHRASES = (
    Phrase((_NEGATIVE, _any("call"), _any("me")), negative=True),
    Phrase((_NEGATIVE, _any("call"), _any("or", "and"), _TEXTING, _any("me")), negative=True),
    Phrase((_NEGATIVE, _TEXTING, _any("or", "and"), _any("call"), _any("me")), negative=True),
    Phrase((_any("stop", "quit"), 2, _any("calling", "calls"))),
    Phrase((_any("no more calls"),)),
    Phrase((_any("no me llamen"),)),
    Phrase((_any("dejen de"), _any("llamar", "llamarme"))),
)

_WHOLE = {"START": OPT_IN, "UNSTOP": OPT_IN, "HELP": HELP}
_EDGES = re.compile(r"^[\s\W_]+|[\s\W_]+$")
_APOSTROPHES = frozenset("'\u2018\u2019\u201b\u02bc\u02b9\u0060\u00b4\u2032\uff07")


# How a Spanish opt-out's Keyword.word starts (ALONE_SPANISH, and the first words of the
# Spanish TEXT_PHRASES): one read in them is confirmed in Spanish where the responder
# persona has the text (docs/messaging.md, "The confirmation").
SPANISH = tuple(
    sorted(
        {word.upper() for word in ALONE_SPANISH}
        | {
            " ".join(sequence).upper()
            for phrase in TEXT_PHRASES
            if phrase.language == "es" and isinstance(first := phrase.slots[0], Choice)
            for sequence in first.sequences
        }
    )
)


def language(word: str) -> str | None:
    """The language of a matched opt-out `word` (Keyword.word) when it is not English:
    `es` for the Spanish entries, else None."""
    spanish = any(word == entry or word.startswith(entry + " ") for entry in SPANISH)
    return "es" if spanish else None


@dataclass(frozen=True)
class Keyword:
    kind: str  # OPT_OUT | NO_CALLS | OPT_IN | HELP
    word: str  # what matched, upper case ("STOP", "OPT OUT", "UNSTOP"), kept as evidence
    calls: str | None = None  # an opt-out's call phrase too ("DONT CALL ME"), if any


@dataclass(frozen=True)
class Words:
    """A text's normalised words, and the clause each is in (step 1 above)."""

    split: list[str]
    clauses: list[int]


def read(text: str) -> Words:
    split: list[str] = []
    clauses: list[int] = []
    current: list[str] = []
    clause = 0

    def flush() -> None:
        if current:
            # NFC again: a script whose letters NFKD took apart (Hangul) is whole again.
            split.append(unicodedata.normalize("NFC", "".join(current)))
            clauses.append(clause)
            current.clear()

    for char in unicodedata.normalize("NFKD", text).casefold():
        if char in _APOSTROPHES:
            continue
        category = unicodedata.category(char)
        if category[0] in "LN":
            current.append(char)
        elif category[0] == "M" or category == "Cf":
            continue  # an accent, a variation selector, a zero-width joiner
        else:
            flush()
            if char in CLAUSE_BREAKS:
                clause += 1
    flush()
    if len(split) > 1 and all(len(word) == 1 for word in split):
        return Words(["".join(split)], [0])
    return Words(split, clauses)


def words(text: str) -> list[str]:
    """The normalised words of a text (step 1 above)."""
    return read(text).split


def _negated(split: list[str], at: int) -> bool:
    return any(
        at >= len(negation) and tuple(split[at - len(negation) : at]) == negation
        for negation in NEGATIONS
    )


def _end(text: Words, at: int, slots: tuple[Slot, ...], clause: int) -> int | None:
    """Where `slots` matched from `at` ends, all inside `clause`; None when they do not."""
    if not slots:
        return at
    slot, rest = slots[0], slots[1:]
    if isinstance(slot, int):
        for skipped in range(slot + 1):
            if skipped and (
                at + skipped > len(text.split) or text.clauses[at + skipped - 1] != clause
            ):
                return None
            end = _end(text, at + skipped, rest, clause)
            if end is not None:
                return end
        return None
    if at >= len(text.split) or text.split[at] not in slot.firsts:
        return None
    for sequence in slot.sequences:
        stop = at + len(sequence)
        if (
            stop <= len(text.split)
            and tuple(text.split[at:stop]) == sequence
            and text.clauses[stop - 1] == clause
        ):
            end = _end(text, stop, rest, clause)
            if end is not None:
                return end
    return None


def _index(phrases: tuple[Phrase, ...]) -> dict[str, tuple[Phrase, ...]]:
    """The phrases by the words they can start with, so a text is read in one pass."""
    index: dict[str, list[Phrase]] = {}
    for phrase in phrases:
        first = phrase.slots[0]
        assert not isinstance(first, int), "a phrase starts with a word"
        for word in sorted(first.firsts):
            index.setdefault(word, []).append(phrase)
    return {word: tuple(starting) for word, starting in index.items()}


def _phrases(text: Words, index: dict[str, tuple[Phrase, ...]]) -> list[tuple[int, int]]:
    """Every (start, end) where one of the indexed phrases stands, not negated, in text
    order."""
    found = []
    for at, word in enumerate(text.split):
        starting = index.get(word)
        if starting is None:
            continue
        clause = text.clauses[at]
        before = {text.split[i] for i in range(max(0, at - 2), at) if text.clauses[i] == clause}
        for phrase in starting:
            if not phrase.negative and before & NEGATING:
                continue
            end = _end(text, at, phrase.slots, clause)
            if end is not None:
                found.append((at, end))
                break
    return found


_TEXT_INDEX = _index(TEXT_PHRASES)
_CALL_INDEX = _index(CALL_PHRASES)


def _matched(text: Words, span: tuple[int, int]) -> str:
    return " ".join(text.split[span[0] : span[1]]).upper()


def _opt_out_word(text: Words, calls: list[tuple[int, int]]) -> str | None:
    split = text.split
    whole = " ".join(split)
    if whole in ALONE:
        return whole.upper()
    called = {at for start, end in calls for at in range(start, end)}
    if len(split) <= MAX_WORDS:
        for term in WITHIN:
            for at in range(len(split) - len(term) + 1):
                if (
                    tuple(split[at : at + len(term)]) == term
                    and not _negated(split, at)
                    and not called.intersection(range(at, at + len(term)))
                ):
                    return " ".join(term).upper()
    if split and split[0] in FIRST and 0 not in called:
        return split[0].upper()
    spans = _phrases(text, _TEXT_INDEX)
    return _matched(text, spans[0]) if spans else None


def classify(body: str | None) -> Keyword | None:
    text = (body or "").strip()
    if not text or len(text) > MAX_CLASSIFIED:
        return None
    whole = _EDGES.sub("", text).upper()
    if whole in _WHOLE:
        return Keyword(_WHOLE[whole], whole)
    normalised = read(text)
    calls = _phrases(normalised, _CALL_INDEX)
    call_word = _matched(normalised, calls[0]) if calls else None
    word = _opt_out_word(normalised, calls)
    if word is not None:
        return Keyword(OPT_OUT, word, call_word)
    return Keyword(NO_CALLS, call_word) if call_word is not None else None
