"""The walk's cursor and bindparams (kit/pagination.py, paging/changes.py) as units: what a
cursor holds, and the cursors that restart a walk instead."""

import hashlib
from datetime import UTC, datetime

from homebase.kit.crypto import signed_blob
from homebase.kit.keys import Keyring
from homebase.kit.pagination import decode_cursor, decode_position, encode_cursor, encode_position
from homebase.paging import changes

KEYS = Keyring("a-test-secret-key")
KEY = "wsp_1\x1f/v1/contacts\x1fupdated_after=2026-11-20T17:04:05Z"
HORIZON = datetime(2026, 11, 20, 17, 5, tzinfo=UTC)


def test_a_position_round_trips_exactly():
    stamp = "2026-11-20 17:04:05.123456"
    cursor = encode_position(KEYS, KEY, stamp, "con_01")
    assert decode_position(KEYS, KEY, cursor) == (stamp, "con_01")


def test_cursors_of_another_kind_or_walk_restart():
    position = encode_position(KEYS, KEY, "2026-11-20 17:04:05.123456", "con_01")
    plain = encode_cursor(KEYS, KEY, "con_01")
    assert decode_position(KEYS, KEY, plain) is None  # a plain list's cursor
    assert decode_cursor(KEYS, KEY, position) is None  # and back
    assert decode_position(KEYS, KEY + "x", position) is None  # another walk
    assert decode_position(KEYS, KEY, position[:-1] + "A") is None  # altered
    assert decode_position(KEYS, KEY, "x" * 600) is None  # too long
    assert decode_position(KEYS, KEY, None) is None
    # Signed, but holding no stamp and id: restarts too.
    fingerprint = hashlib.sha256(KEY.encode()).digest()[:8]
    for payload in (b"", b"2026-11-20 17:04:05.123456", b"\x1fcon_01", b"stamp\x1f"):
        bare = signed_blob(KEYS, "sync_cursor", fingerprint + payload)
        assert decode_position(KEYS, KEY, bare) is None, payload


def test_a_stamp_postgresql_could_not_have_stored_restarts():
    assert changes.resume_params("postgresql", ("not a time", "con_01"), HORIZON, 50) is None
    naive = ("2026-11-20T17:04:05.123456", "con_01")
    assert changes.resume_params("postgresql", naive, HORIZON, 50) is None
    aware = ("2026-11-20T17:04:05.123456+00:00", "con_01")
    values = changes.resume_params("postgresql", aware, HORIZON, 50)
    assert values is not None
    assert values[changes.AT] == datetime(2026, 11, 20, 17, 4, 5, 123456, tzinfo=UTC)
    assert values[changes.LIMIT] == 51
    # SQLite compares the stored text: it is bound back as it was read.
    stored = ("2026-11-20 17:04:05.123456", "con_01")
    assert changes.resume_params("sqlite", stored, HORIZON, 50)[changes.AT] == stored[0]
