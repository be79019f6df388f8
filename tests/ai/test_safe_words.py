"""What an AI reply may say, for every provider (homebase/ai/safe_words.py; docs/ai.md,
"What a reply may say"): each rule both ways."""

import pytest

from homebase.ai import safe_words

LISTING = 61_200_000  # $612,000 in cents: a stored listing price
LEAD = {70_000_000}  # the lead wrote "up to 700k"
ALLOWED = {LISTING, *LEAD}


@pytest.mark.parametrize(
    ("reply", "broken"),
    [
        # fee_figure: a percentage or an amount near commission, fee, split or rebate
        ("Our commission is 2.5% of the price.", "fee_figure"),
        ("We rebate $5,000 at closing!", "fee_figure"),
        ("The fee would be 3 percent.", "fee_figure"),
        ("Buyer's agents usually split 50/50 with us.", "fee_figure"),
        ("Sam can go over fees when you talk.", None),  # the word alone: no figure
        ("It is listed at $612,000 with no HOA.", None),  # an amount, far from any fee word
        # advice: legal, tax or lending
        ("You could waive the inspection contingency to win.", "advice"),
        ("You don't need a lawyer for this.", "advice"),
        ("Rates are around 6 right now.", "advice"),
        ("With that budget you qualify easily.", "advice"),
        ("The interest is tax deductible.", "advice"),
        ("Sam can walk you through next steps.", None),
        ("Happy to help you find a home!", None),
        # fair_housing: schools' quality, safety or crime, who lives there
        ("The schools there are great.", "fair_housing"),
        ("It's a very safe area with low crime.", "fair_housing"),
        ("Lots of young families, a family friendly street.", "fair_housing"),
        ("The area is very diverse.", "fair_housing"),
        ("It is 3 blocks from the park and the train.", None),
        ("Two bedrooms, a garden and a garage.", None),
        # amount: only a stored listing price or an amount the lead wrote
        ("It is listed at $612,000.", None),
        ("Homes up to $700k, as you said, got it.", None),
        ("That one is $650,000.", "amount"),
        ("It should sell for about $1.2M.", "amount"),
        ("Expect to pay 950 dollars a month.", "amount"),
        ("3 beds, 2 baths, 1,850 sq ft, built 1998.", None),  # numbers, no money
    ],
)
def test_a_reply_says_no_fee_figure_advice_steering_or_unknown_amount(reply, broken):
    assert safe_words.check(reply, ALLOWED) == broken


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("$612,000", [61_200_000]),
        ("$1.2M", [120_000_000]),
        ("$ 950", [95_000]),
        ("700k", [70_000_000]),
        ("1.5 million", [150_000_000]),
        ("950 dollars", [95_000]),
        ("3 beds, 2.5 baths, 1,850 sq ft", []),
    ],
)
def test_amounts_are_read_with_their_multipliers(text, cents):
    assert safe_words.amounts(text) == cents


def test_a_lead_s_bare_numbers_count_as_amounts_they_wrote():
    assert 70_000_000 in safe_words.lead_amounts("our budget is 700,000")
    assert 70_000_000 in safe_words.lead_amounts("up to 700k")
    assert safe_words.lead_amounts("3 beds") == set()


@pytest.mark.parametrize(
    ("reply", "bare"),
    [
        ("null", True),
        ('"Hello"', True),
        ("true", True),
        ("42", True),
        ('"Hello', True),  # a quoted string cut short: a structured answer gone wrong
        ('{"reply": "Hi"', True),
        ("Hello!", False),
        ('She said "yes" to the house.', False),
        ("3 beds and 2 baths", False),
        (None, False),
    ],
)
def test_a_bare_json_value_is_no_reply(reply, bare):
    assert safe_words.bare_json(reply) is bare


@pytest.mark.parametrize(
    ("answer", "stripped"),
    [
        ("Hi Dana! Buying or selling?\n- Ava, Lee Realty", "Hi Dana! Buying or selling?"),
        (
            "Automated assistant for Sam Lee. Hi Dana!\n- Ava, Lee Realty",
            "Hi Dana!",
        ),
        ("Asistente de Sam. ¡Hola Dana!\n- Ava, Lee Realty (ES)", "¡Hola Dana!"),
        ("Hi Dana!\nSaturday works.", "Hi Dana!\nSaturday works."),
    ],
)
def test_what_the_service_adds_is_stripped_in_every_language(answer, stripped):
    added = [
        "Automated assistant for Sam Lee.",
        "- Ava, Lee Realty",
        "Asistente de Sam.",
        "- Ava, Lee Realty (ES)",
    ]
    assert safe_words.strip_added(answer, added) == stripped
