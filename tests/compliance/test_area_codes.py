"""The state of a US number is its area code's (compliance/area_codes.py), a table written
from phonenumbers' geocoder data by scripts/area_codes.py, so no process of the service
loads that data (about 100 MB and 0.3 s a process)."""

import subprocess
import sys

from homebase.compliance import area_codes
from homebase.compliance.lawful_hours import state_for_number
from scripts.area_codes import TARGET, source, table


def test_the_table_is_what_the_installed_phonenumbers_data_says():
    assert TARGET.read_text() == source(table()), (
        "phonenumbers' geocoder data changed: run `.venv/bin/python -m scripts.area_codes`"
    )
    assert len(area_codes.STATE_BY_AREA_CODE) > 300


def test_a_number_s_state_is_its_area_code_s():
    assert state_for_number("+12065550142") == "WA"  # described "Washington State"
    assert state_for_number("+15645550142") == "WA"  # every exchange "Washington State"
    # An exchange the data places across the state line still has its area code's state,
    # the presumption the laws make (Florida's: a call to a Florida area code).
    assert state_for_number("+12016310142") == "NJ"
    assert state_for_number("+13055550142") == "FL"
    assert state_for_number("+14165550142") is None  # Toronto: +1, not the US
    assert state_for_number("+17875550142") is None  # Puerto Rico: its own region
    assert state_for_number("+18885550142") is None  # toll-free: no state


def test_no_process_of_the_service_loads_the_geocoder_data():
    probe = (
        "import sys\n"
        "import homebase.root.asgi, homebase.root.main, homebase.root.worker\n"
        "from homebase.compliance.lawful_hours import state_for_number\n"
        "assert state_for_number('+12145550142') == 'TX'\n"
        "print(sorted(name for name in sys.modules if name.startswith('phonenumbers.geo')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", result.stdout
