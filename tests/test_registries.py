"""The worker's jobs and the fixture kinds are explicit lists (worker/registry.py,
fixtures/kinds.py), not registrations made by importing modules."""

import re
import subprocess
import sys
from pathlib import Path

from homebase.fixtures.kinds import KINDS
from homebase.worker.registry import JOBS

DOCS = Path(__file__).parent.parent / "docs" / "fixtures.md"


def test_the_documented_load_order_is_the_list():
    text = DOCS.read_text()
    documented = re.search(r"whatever their order in the\s+file, [^:]*: ([^.]*)\.", text)
    assert documented, "docs/fixtures.md states the load order"
    assert re.findall(r"`(\w+)`", documented.group(1)) == [kind for kind, _ in KINDS]
    assert set(re.findall(r"^### (\w+)$", text, re.M)) == {kind for kind, _ in KINDS}


def test_names_are_unique():
    assert len({job.name for job in JOBS}) == len(JOBS)
    assert len({kind for kind, _ in KINDS}) == len(KINDS)


def test_a_bare_worker_process_has_every_job_and_kind():
    """What `homebase worker` sees, imported alone: nothing depends on the API app having
    imported the domains first."""
    script = (
        "from homebase.worker.runner import JOBS; from homebase.fixtures.kinds import KINDS;"
        "print(len(JOBS), len(KINDS))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [str(len(JOBS)), str(len(KINDS))]
