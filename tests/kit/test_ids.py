"""kit/ids.py: the id's body is Crockford base32 of (milliseconds, random part), in order."""

import random

from homebase.kit import ids

ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"


def digit_by_digit(value: int, length: int) -> str:
    """The reference: `length` base32 digits of `value`, most significant first."""
    return "".join(ALPHABET[(value >> shift) & 31] for shift in range(length * 5 - 5, -1, -5))


def test_the_body_is_the_milliseconds_then_the_random_part_in_crockford_base32():
    chosen = random.Random(11)
    edges = [(0, 0), ((1 << 48) - 1, (1 << 80) - 1), (1 << 47, 1), (1_764_000_000_000, 1 << 79)]
    cases = edges + [(chosen.getrandbits(48), chosen.getrandbits(80)) for _ in range(2000)]
    for millis, random_part in cases:
        expected = digit_by_digit(millis, 10) + digit_by_digit(random_part, 16)
        assert ids._encode(millis, 10) + ids._encode(random_part, 16) == expected


def test_ids_sort_in_the_order_they_were_made_and_carry_their_prefix():
    made = [ids.new_id("con") for _ in range(500)]
    assert made == sorted(made)
    assert len(set(made)) == 500
    assert all(one.startswith("con_") and len(one) == 4 + ids.ID_BODY_LENGTH for one in made)
    assert set("".join(one[4:] for one in made)) <= set(ALPHABET)
