"""The README stays true to the code: every setting is documented."""

import re
from pathlib import Path

from homebase.config import Settings

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_every_setting_is_in_the_readme_configuration_table():
    missing = [
        f"HOMEBASE_{name.upper()}"
        for name in Settings.model_fields
        if f"HOMEBASE_{name.upper()}" not in README
    ]
    assert missing == []


ROOT = Path(__file__).resolve().parents[1]
# A tracker's numbers collide with the next tracker's: code, docs and migration messages
# say what a thing does instead ("the erasure list", not the ticket that asked for it).
TRACKER_NUMBER = re.compile(r"\b(?:issues?|defects?)\s*#?\d+", re.IGNORECASE)
SCANNED = ("homebase", "tests", "docs", "bench", "scripts", "clients/python")


def _text_files():
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix in {".py", ".md", ".html", ".toml", ".json", ".cfg"} and (
                "homebase_client" not in path.parts
            ):
                yield path
    yield from (ROOT / name for name in ("README.md", "AGENTS.md", "pyproject.toml", "Makefile"))


def test_no_tracker_numbers_in_code_docs_or_migrations():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _text_files()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if TRACKER_NUMBER.search(line) and "TRACKER_NUMBER" not in line
    ]
    assert found == []
