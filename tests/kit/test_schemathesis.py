"""Schemathesis with every check against a live `homebase serve`: the
OpenAPI document and the service agree, so a client built from the document is neither
refused for valid requests nor surprised by responses.

Loopback only: the server listens on 127.0.0.1, the worker is off (no webhook, SMS or
calendar traffic), and HOMEBASE_TESTING_LOOPBACK_RESOLVER makes the generated webhook host
names "not existing" (a clean 400) without asking the machine's resolver.
Per-operation exceptions, each with its reason, live in tests/schemathesis.toml.

The seed is fixed, so a failure reproduces; SCHEMATHESIS_MAX_EXAMPLES raises the depth
for a longer local run.
"""

import asyncio
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from homebase.auth.scopes import Scope
from tests.served_support import serve
from tests.support import POSTGRES_URL, create_database, drop_database_later, require_server

HERE = Path(__file__).parents[1]  # tests/
CONFIG = HERE / "schemathesis.toml"
# tests/schemathesis_hooks.py (a fresh Idempotency-Key per call), imported from the
# repository's root: tests/ itself on the path would put tests/http/ before the stdlib's
# http package.
HOOKS = "tests.schemathesis_hooks"
SEED = 17
# About two minutes on a 2-core machine (docs/decisions.md, "Schemathesis in CI").
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "25"))
RUN_TIMEOUT_SECONDS = 900


@pytest.fixture(name="served", params=["sqlite", "postgres"])
def served_fixture(tmp_path, request):
    """On both databases: PostgreSQL refuses what SQLite stores (U+0000 was a 500 there
    that only a run against it found, docs/decisions.md "No U+0000 anywhere")."""
    settings: dict[str, str] = {}
    name = None
    if request.param == "postgres":
        require_server("PostgreSQL", POSTGRES_URL, 5432)
        name = f"homebase_st_{uuid.uuid4().hex[:10]}"
        settings["database_url"] = asyncio.run(create_database(name))
    try:
        with serve(tmp_path, worker=False, webhook_allow_private_urls="true", **settings) as served:
            yield from _with_key(served, tmp_path)
    finally:
        if name is not None:
            drop_database_later(name)


def _with_key(served, folder):
    """A workspace and a key with every scope on `served`: (base URL, key, folder)."""
    workspace = served.admin("create-workspace", "--name", "Schemathesis")
    key = served.admin(
        "create-api-key",
        "--workspace",
        workspace["id"],
        "--scopes",
        " ".join(scope.value for scope in Scope),
    )["key"]
    yield served.base_url, key, folder


def test_config_enables_every_check():
    """The config file stands for `--checks all`: every registered check is on for every
    operation and phase, except the named exceptions (use_after_free on the contact's
    paths, which the spec keeps readable after DELETE)."""
    import schemathesis
    from schemathesis.checks import CHECKS, load_all_checks
    from schemathesis.config import SchemathesisConfig

    load_all_checks()
    config = SchemathesisConfig.from_path(str(CONFIG)).projects.default
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            path: {"get": {"responses": {"200": {"description": "ok"}}}}
            for path in ("/v1/contacts/{id}", "/v1/contacts/{id}/events", "/v1/deals/{id}")
        },
    }
    schema = schemathesis.openapi.from_dict(
        document, config=SchemathesisConfig.from_path(str(CONFIG))
    )
    names = set(CHECKS.get_all_names())
    assert {"use_after_free", "positive_data_acceptance", "response_schema_conformance"} <= names
    for path in document["paths"]:
        operation = schema[path]["GET"]
        for phase in (None, "examples", "coverage", "fuzzing", "stateful"):
            checks = config.checks_config_for(operation=operation, phase=phase)
            off = {name for name in names if not checks.get_by_name(name=name).enabled}
            expected = {"use_after_free"} if path.startswith("/v1/contacts/") else set()
            assert off == expected, (path, phase, off)


def test_config_widens_accepted_statuses_only_as_its_comments_say():
    """400 for exactly the operations of the rules no schema states (a reference that does
    not resolve, a cross-field rule; kit/openapi_requests.py UNSTATED_RULES, less the
    free-form members the hooks keep generated data within), and 422 (compliance_blocked)
    for POST /v1/messages only."""
    import tomllib

    from homebase.kit.openapi_requests import UNSTATED_RULES

    blocks = tomllib.loads(CONFIG.read_text())["operations"]
    widened = {}
    for block in blocks:
        statuses = (
            block.get("checks", {}).get("positive_data_acceptance", {}).get("expected-statuses")
        )
        if statuses is not None:
            for name in block["include-name"]:
                widened[name] = set(statuses) - {"2xx", "3xx", 401, 403, 404, 409, 429}
    unstated = {
        operation for rule in UNSTATED_RULES if not rule.free_form for operation in rule.operations
    }
    assert set(widened) == unstated
    assert widened.pop("POST /v1/messages") == {400, 422}
    assert widened and set(map(frozenset, widened.values())) == {frozenset({400})}


def test_the_hooks_keep_nul_out_of_free_form_members_below_their_top_level():
    """A body holding U+0000 below a free-form member's top level (a lead's `context`, any
    of an import's `rows`) is not generated: the rule is among those no schema states."""
    from tests.schemathesis_hooks import filter_body

    for body in (
        {"phone": "+14155550142", "context": {"budget": ["1\x00"]}},
        {"object": "leads", "rows": [{"first_name": "Dana"}, {"context": {"a\x00": 1}}]},
        {"object": "contacts", "rows": [{"custom_fields": {"note": "x\x00"}}]},
    ):
        assert filter_body(None, body) is False, body
    for body in (
        {"phone": "+14155550142", "context": {"budget": ["1"]}},
        {"object": "contacts", "rows": [{"first_name": "Dana", "tags": ["buyer"]}]},
        # The top level's keys are the document's to state (propertyNames), not the hook's.
        {"object": "contacts", "rows": [{"a\x00": "x"}]},
    ):
        assert filter_body(None, body) is True, body


def test_config_generates_nul_characters():
    """The document declares U+0000 refused on every string a request carries, so the
    run generates it (schemathesis's allow-x00) and checks the declarations hold."""
    import tomllib

    assert tomllib.loads(CONFIG.read_text())["generation"]["allow-x00"] is True


def test_every_check_passes_on_every_operation(served):
    base_url, key, folder = served
    executable = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    assert executable, "schemathesis is a dev dependency (requirements.lock)"
    command = [
        executable,
        "--config-file",
        str(CONFIG),
        "run",
        f"{base_url}/v1/openapi.json",
        # Every check is enabled by the config file (see test_config_enables_every_check).
        "--seed",
        str(SEED),
        "--max-examples",
        str(MAX_EXAMPLES),
        # One worker: the run is reproducible, and Hypothesis's lambda descriptions are not
        # thread-safe on Python 3.11 (RuntimeError "AST constructor recursion depth").
        "--workers",
        "1",
        "-H",
        f"Authorization: token {key}",
        "--no-color",
        "--output-truncate",
        "false",
        "--report",
        "json",
        "--report-dir",
        str(folder / "report"),
    ]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_SECONDS,
        cwd=folder,
        env={**os.environ, "SCHEMATHESIS_HOOKS": HOOKS, "PYTHONPATH": str(HERE.parent)},
    )
    report = next((folder / "report").glob("json-*.json"))
    summary = json.loads(report.read_text())
    assert (
        done.returncode == 0
        and summary["test_cases"]["unique_failures"] == 0
        and not summary["errors"]
    ), done.stdout[-30000:] + done.stderr[-3000:]
    assert summary["test_cases"]["generated"] > 1000  # the run did run
