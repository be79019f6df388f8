"""The worker's jobs, the fixture kinds and the kinds of credential are explicit lists
(root/jobs.py, fixtures/kinds.py, auth/resolvers.py), not registrations made by
importing modules."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import homebase
from homebase.auth.api_keys import KEY_PREFIX, resolve_api_key
from homebase.auth.oauth_tokens import ACCESS_PREFIX, resolve_access_token
from homebase.auth.resolvers import RESOLVERS
from homebase.fixtures.kinds import KINDS
from homebase.root.jobs import JOBS
from tests.source_support import parse_file

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
        "from homebase.root.worker import JOBS; from homebase.fixtures.kinds import KINDS;"
        "print(len(JOBS), len(KINDS))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [str(len(JOBS)), str(len(KINDS))]


def test_every_kind_of_credential_is_in_the_list():
    assert dict(RESOLVERS) == {KEY_PREFIX: resolve_api_key, ACCESS_PREFIX: resolve_access_token}
    assert len({prefix for prefix, _ in RESOLVERS}) == len(RESOLVERS)


def test_no_credential_prefix_starts_another():
    """A token then matches one kind only, whatever the list's order."""
    prefixes = [prefix for prefix, _ in RESOLVERS]
    assert prefixes and all(prefixes)
    assert not [(a, b) for a in prefixes for b in prefixes if a != b and b.startswith(a)]


def test_a_bare_process_has_every_kind_of_credential():
    """What the route class reads, imported alone: not only once the app factory (or
    anything else) has imported the modules that define the resolvers."""
    script = "from homebase.http.v1_route import resolve; print(resolve.__module__)"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["homebase.auth.resolvers"]
    script = "from homebase.auth.resolvers import RESOLVERS; print(len(RESOLVERS))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [str(len(RESOLVERS))]


def test_no_module_registers_anything_when_imported():
    """A module-level call named register... adds to a list as a side effect of an import:
    the lists above are written out instead. A library's own registry is named here."""
    libraries = {"db/sqlite.py": "SQLAlchemy's dialect registry: the URL's driver names it"}
    package = Path(homebase.__file__).parent
    found = [
        f"{path.relative_to(package)}:{statement.lineno}"
        for path in sorted(package.rglob("*.py"))
        if "migrations" not in path.parts and path.relative_to(package).as_posix() not in libraries
        for statement in parse_file(path).body
        if isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and "register" in ast.unparse(statement.value.func).lower()
    ]
    assert found == []
