"""The recording-link engine and storage paths, without a database."""

from datetime import UTC, datetime

import pytest

from homebase.calls import recordings
from homebase.kit.clock import FrozenClock
from homebase.kit.keys import Keyring

SECRET = Keyring("unit-secret")


def test_a_link_round_trips_and_lasts_at_least_five_minutes():
    clock = FrozenClock(datetime(2026, 11, 20, 17, 0, 0, 250_000, tzinfo=UTC))
    link = recordings.issue(SECRET, "https://api.example.com/", "wsp_1", "cal_1", clock())
    assert link.url.startswith("https://api.example.com/recordings/")
    claim = recordings.verify(SECRET, link.url.rsplit("/", 1)[1])
    assert (claim.workspace_id, claim.subject_id) == ("wsp_1", "cal_1")
    assert claim.expires_at == link.expires_at
    assert (link.expires_at - clock()).total_seconds() >= 300


@pytest.mark.parametrize(
    "mutate",
    [
        lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),
        lambda token: ("A" if token[0] != "A" else "B") + token[1:],
        lambda token: token[:20],
        lambda token: token + "AA",
        lambda token: "",
        lambda token: "x" * 600,
    ],
)
def test_an_altered_token_is_refused(mutate):
    link = recordings.issue(SECRET, "", "wsp_1", "cal_1", datetime.now(UTC))
    assert recordings.verify(SECRET, mutate(link.url.rsplit("/", 1)[1])) is None


def test_another_secret_or_purpose_is_refused():
    from homebase.kit.crypto import signed_blob

    link = recordings.issue(Keyring("other"), "", "wsp_1", "cal_1", datetime.now(UTC))
    token = link.url.rsplit("/")[-1]
    assert recordings.verify(SECRET, token) is None
    cursor_like = signed_blob(SECRET, "cursor", b"wsp_1\x1fcal_1\x1f9999999999", mac_bytes=16)
    assert recordings.verify(SECRET, cursor_like) is None


@pytest.mark.parametrize("key", ["../outside.wav", "a/../../outside.wav", "/etc/passwd"])
def test_keys_cannot_leave_the_storage_folder(tmp_path, key):
    assert recordings.resolve(tmp_path / "recordings", key) is None


def test_keys_resolve_inside_the_folder(tmp_path):
    assert recordings.resolve(tmp_path, "a/b.wav") == (tmp_path / "a" / "b.wav").resolve()


async def test_generated_tone_is_a_wav(tmp_path):
    await recordings.write_tone(tmp_path, "demo/tone.wav", 1)
    data = (tmp_path / "demo" / "tone.wav").read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE" and len(data) == 44 + 16000
