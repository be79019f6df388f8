"""The README stays true to the code: every setting is documented."""

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
