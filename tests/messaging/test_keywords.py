"""The opt-out rule as a table (docs/messaging.md, "Inbound and opt-out keywords"): every
text the rule must read as an opt-out, every one it must not, and the edges."""

import timeit

import pytest

from homebase.messaging.keywords import (
    HELP,
    MAX_CLASSIFIED,
    NO_CALLS,
    OPT_IN,
    OPT_OUT,
    classify,
    words,
)

# (text, the kind it is, the word kept as evidence)
TABLE = [
    # must suppress: the table in docs/messaging.md
    ("REVOKE", OPT_OUT, "REVOKE"),
    ("opt out", OPT_OUT, "OPT OUT"),
    ("Opt-Out", OPT_OUT, "OPT OUT"),
    ("OPTOUT", OPT_OUT, "OPTOUT"),
    ("STOP.", OPT_OUT, "STOP"),
    ("Stop please", OPT_OUT, "STOP"),
    ("please stop texting me", OPT_OUT, "STOP"),
    ("Unsubscribe me", OPT_OUT, "UNSUBSCRIBE"),
    ("stop all", OPT_OUT, "STOP ALL"),
    ("QUIT!!", OPT_OUT, "QUIT"),
    # the keywords matched before, still alone
    ("STOP", OPT_OUT, "STOP"),
    ("  stop. ", OPT_OUT, "STOP"),
    ("STOPALL", OPT_OUT, "STOPALL"),
    ("unsubscribe", OPT_OUT, "UNSUBSCRIBE"),
    ("Cancel", OPT_OUT, "CANCEL"),
    ("END", OPT_OUT, "END"),
    ("quit.", OPT_OUT, "QUIT"),
    # edges
    ("STOP 🛑", OPT_OUT, "STOP"),
    ("🛑 stop 🛑", OPT_OUT, "STOP"),
    ("ＳＴＯＰ", OPT_OUT, "STOP"),  # full-width letters
    ("ｏｐｔ－ｏｕｔ", OPT_OUT, "OPT OUT"),  # full-width letters and hyphen
    ("ST\u200bOP", OPT_OUT, "STOP"),  # a zero-width space inside the word
    ("s t o p", OPT_OUT, "STOP"),  # single letters spell the word
    ("S.T.O.P.", OPT_OUT, "STOP"),
    ("o-p-t o-u-t", OPT_OUT, "OPTOUT"),
    ("Stop-All", OPT_OUT, "STOP ALL"),
    ("opt   out   please", OPT_OUT, "OPT OUT"),
    ("I want to opt-out now", OPT_OUT, "OPT OUT"),
    ("please revoke my consent", OPT_OUT, "REVOKE"),
    ("I quit this list", OPT_OUT, "QUIT"),
    ("Help me stop these", OPT_OUT, "STOP"),  # an opt-out word outweighs help
    ("stop, don't text", OPT_OUT, "STOP"),  # the negation is after the word, not before
    ("Don't ever stop", OPT_OUT, "STOP"),  # only a negation just before the word counts
    ("STOP\n\nSent from my iPhone", OPT_OUT, "STOP"),
    ("one two three four five stop", OPT_OUT, "STOP"),  # six words: still read
    ("Please stop by at 5", OPT_OUT, "STOP"),  # short: read as an opt-out (documented)
    # opt-in and help keep their whole-message rule
    ("START", OPT_IN, "START"),
    ("Start!", OPT_IN, "START"),
    ("unstop", OPT_IN, "UNSTOP"),
    ("UNSTOP.", OPT_IN, "UNSTOP"),
    ("Help", HELP, "HELP"),
    ("help?", HELP, "HELP"),
    # must not suppress: the table in docs/messaging.md
    ("cancel my showing", None, None),
    ("Can we end at 5?", None, None),
    ("What time is the showing?", None, None),
    ("Don't stop sending me listings", None, None),
    ("I want to stop by the open house on Sunday afternoon", None, None),
    # negations, whatever the apostrophe
    ("don’t stop", None, None),  # U+2019
    ("dont stop", None, None),
    ("DON'T STOP!", None, None),
    ("don‘t stop", None, None),  # U+2018
    ("donʼt stop", None, None),  # U+02BC
    ("Do not stop", None, None),
    ("never stop texting me", None, None),
    ("please don't opt me out", None, None),  # no "opt out" at all
    ("don't opt-out", None, None),
    # words that only contain an opt-out word, or stand too far in
    ("Unstoppable deals this week", None, None),
    ("the bus stops here", None, None),
    ("quitting time", None, None),
    ("un-stop", OPT_OUT, "STOP"),  # hyphenated: reads as "un stop" (decided: opt-out)
    ("one two three four five six stop", None, None),  # seven words
    ("Can you end the call", None, None),
    ("🛑", None, None),
    ("", None, None),
    (None, None, None),
    ("   ", None, None),
    ("HELP ME", None, None),  # help is whole-message only, as before
    ("Starting Monday", None, None),
    ("a b c", None, None),  # single letters that spell nothing
]

# Opt-outs of any length (docs/messaging.md, "The opt-out rule", rules 4 and 5).
SENTENCES = [
    # every example of the reported misses suppresses
    ("STOP!!! wrong number, I never signed up for this", OPT_OUT, "STOP"),
    ("Please stop texting me, I am not interested anymore.", OPT_OUT, "STOP TEXTING"),
    ("I want to opt out of all of these texts please", OPT_OUT, "OPT OUT"),
    ("Please end these texts", OPT_OUT, "END THESE TEXTS"),
    ("remove me from your list", OPT_OUT, "REMOVE ME"),
    ("Not interested. Don't text me again", OPT_OUT, "DONT TEXT ME"),
    ("Basta, no me manden más mensajes", OPT_OUT, "NO ME MANDEN"),
    # the first word, whatever follows
    ("Stop. I bought a house last month, thanks anyway for all the help", OPT_OUT, "STOP"),
    ("unsubscribe from this list and all the others you run please", OPT_OUT, "UNSUBSCRIBE"),
    ("QUIT sending me listings, I found a place already, thank you", OPT_OUT, "QUIT"),
    ("Revoke: I no longer consent to any of these marketing messages", OPT_OUT, "REVOKE"),
    ("OPTOUT of everything you send from this number please", OPT_OUT, "OPTOUT"),
    ("STOPALL of it now, every single list you have me on", OPT_OUT, "STOPALL"),
    # a phrase of revocation at any length
    (
        "We already bought a house, so please stop sending texts to me",
        OPT_OUT,
        "STOP SENDING TEXTS",
    ),
    ("Could you kindly stop messaging me about properties in Oakland", OPT_OUT, "STOP MESSAGING"),
    ("I have asked before, quit texting this number about houses", OPT_OUT, "QUIT TEXTING"),
    (
        "I'd like you to end all these messages, we are not moving",
        OPT_OUT,
        "END ALL THESE MESSAGES",
    ),
    ("Thanks for the help but please unsubscribe me from everything", OPT_OUT, "UNSUBSCRIBE"),
    ("Hi, this is a shared phone, can you take me off the list", OPT_OUT, "TAKE ME OFF"),
    ("Honestly I just want you to leave me alone from now on", OPT_OUT, "LEAVE ME ALONE"),
    ("Sorry, I think you have the wrong number for this one", OPT_OUT, "WRONG NUMBER"),
    ("I am not selling, do not text me about my house ever again", OPT_OUT, "DO NOT TEXT ME"),
    ("please never contact me about real estate again", OPT_OUT, "NEVER CONTACT ME"),
    ("Don't call or text me, I'm not in the market", OPT_OUT, "DONT CALL OR TEXT ME"),
    ("Stop calling and texting me every single day", OPT_OUT, "STOP CALLING AND TEXTING"),
    ("Not interested", OPT_OUT, "NOT INTERESTED"),  # as the whole text
    ("not interested!!", OPT_OUT, "NOT INTERESTED"),
    ("Not interested dont text me", OPT_OUT, "DONT TEXT ME"),  # itself a negation
    ("I want to opt out now, I really do not need these updates", OPT_OUT, "OPT OUT"),
    # Spanish, matched without accents
    ("ALTO", OPT_OUT, "ALTO"),
    ("Para", OPT_OUT, "PARA"),
    ("parar", OPT_OUT, "PARAR"),
    ("BASTA!", OPT_OUT, "BASTA"),
    ("Cancelar", OPT_OUT, "CANCELAR"),
    ("No más", OPT_OUT, "NO MAS"),
    ("Por favor no me envíen nada más de casas", OPT_OUT, "NO ME ENVIEN"),
    ("no me escriban mas por favor", OPT_OUT, "NO ME ESCRIBAN"),
    ("Ya compramos casa, dejen de escribirme por favor", OPT_OUT, "DEJEN DE ESCRIBIRME"),
    ("Quiero darme de baja de esta lista", OPT_OUT, "DARME DE BAJA"),
    ("Gracias pero no más mensajes", OPT_OUT, "NO MAS MENSAJES"),
    # only calls: a call revocation, no text opt-out
    ("don't call me", NO_CALLS, "DONT CALL ME"),
    ("stop calling", NO_CALLS, "STOP CALLING"),
    ("Stop calling me, text me instead", NO_CALLS, "STOP CALLING"),
    ("Please do not call me at work, texts are fine", NO_CALLS, "DO NOT CALL ME"),
    ("No me llamen por favor", NO_CALLS, "NO ME LLAMEN"),
    # must not suppress
    ("I want to stop by the open house", None, None),
    ("Don't stop sending me listings", None, None),
    ("Can we end at 5?", None, None),
    ("Cancel my showing", None, None),
    ("Cancel my 3pm", None, None),
    ("End of month works?", None, None),
    ("Not interested in Elm, text me others", None, None),
    ("What time is the showing?", None, None),
    ("Is it still for sale?", None, None),
    ("Please don't stop texting me about new listings in the area", None, None),
    ("Please never stop messaging me about Noe Valley listings", None, None),
    # the cost, documented: a negation three words before is not seen
    ("I never want you to stop messaging me about Noe Valley", OPT_OUT, "STOP MESSAGING"),
    ("not interested in that one, anything with a yard?", None, None),
    ("Can you text me the address of the Elm St house?", None, None),
    ("Call me when you can, I have questions about the loan", None, None),
    ("Para mañana a las 5 está bien?", None, None),  # "para" only alone
    ("Stop calling me, text only", NO_CALLS, "STOP CALLING"),  # the texts are wanted
]


@pytest.mark.parametrize(("text", "kind", "word"), TABLE, ids=[repr(row[0]) for row in TABLE])
def test_the_opt_out_rule(text, kind, word):
    found = classify(text)
    if kind is None:
        assert found is None
    else:
        assert found is not None and (found.kind, found.word) == (kind, word)


@pytest.mark.parametrize(
    ("text", "kind", "word"), SENTENCES, ids=[repr(row[0]) for row in SENTENCES]
)
def test_opt_outs_of_any_length(text, kind, word):
    found = classify(text)
    if kind is None:
        assert found is None
    else:
        assert found is not None and (found.kind, found.word) == (kind, word)


def test_the_table_is_large_and_both_ways():
    kinds = [kind for _, kind, _ in SENTENCES]
    assert len(SENTENCES) >= 40 and kinds.count(None) >= 9 and kinds.count(OPT_OUT) >= 30


def test_an_opt_out_that_names_calls_carries_them_and_a_call_phrase_is_no_opt_out():
    both = classify("Stop calling and texting me every single day")
    assert both is not None and (both.kind, both.calls) == (OPT_OUT, "STOP CALLING")
    assert classify("STOP")
    assert classify("STOP").calls is None
    # the stop of "stop calling" counts for no other rule, a second stop does
    assert classify("Stop calling me").kind == NO_CALLS
    again = classify("Stop calling me. STOP")
    assert (again.kind, again.word, again.calls) == (OPT_OUT, "STOP", "STOP CALLING")


def test_a_negation_counts_only_inside_its_clause():
    # "not interested" ends a sentence: the phrase after it is not negated
    assert classify("Not interested, stop texting me").kind == OPT_OUT
    assert classify("I am not saying stop texting me") is None  # negated in its clause
    # a phrase never spans clauses: "text only" is a wish, not "stop ... text"
    assert classify("Stop calling me, text only").kind == NO_CALLS


def test_normalisation():
    assert words("Don’t  STOP—please!!") == ["dont", "stop", "please"]
    assert words("Ｏｐｔ‐Ｏｕｔ 🙏🏽") == ["opt", "out"]
    assert words("s̶t̶o̶p̶") == ["stop"]  # combining strokes deleted
    assert words("No MÁS, envíen") == ["no", "mas", "envien"]  # accents deleted
    assert words("한국어 Ünïcödé") == ["한국어", "unicode"]  # a script NFKD takes apart, whole


def test_long_texts_are_bounded():
    assert classify("STOP" + " " * 100_000) is not None  # surrounding spaces are trimmed
    assert classify("STOP" + "!" * MAX_CLASSIFIED) is None  # longer than any delivered text
    hostile = "stop " * 200_000
    assert classify(hostile) is None
    # Bounded work: 625 times the longest text classified, far less than 625 times the
    # time. Both timed on this machine, now (the fastest of five): no absolute duration.
    longest = "stop " * (MAX_CLASSIFIED // 5)
    assert _fastest(hostile) < 10 * _fastest(longest)


def _fastest(text: str) -> float:
    return min(timeit.repeat(lambda: classify(text), number=1, repeat=5))
