"""Every error code and every compliance reason has a remedy (kit/remedies.py,
compliance/remedies.py), and each table names only codes and reasons that exist. The
remedy reaching clients: tests/http/test_errors.py and tests/messaging/test_messages.py;
every test's `assert_error` checks it too (tests/support.py)."""

import ast
import importlib
import pkgutil
from pathlib import Path

import homebase
from homebase.compliance.remedies import REASON_REMEDIES
from homebase.http.envelope import remedy
from homebase.kit.errors import ApiError
from homebase.kit.remedies import ERROR_REMEDIES
from tests.source_support import parse_file

ROOT = Path(homebase.__file__).parent


def _error_classes() -> set[type[ApiError]]:
    for module in pkgutil.walk_packages(homebase.__path__, "homebase."):
        if ".migrations." not in module.name:
            importlib.import_module(module.name)
    found, stack = {ApiError}, [ApiError]
    while stack:
        for error in stack.pop().__subclasses__():
            if error.__module__.startswith("homebase.") and error not in found:
                found.add(error)
                stack.append(error)
    return found


def _calls(name: str) -> list[tuple[Path, ast.Call]]:
    """Every call of a function or class named `name` in homebase/."""
    found = []
    for path in ROOT.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(parse_file(path)):
            if isinstance(node, ast.Call):
                called = node.func
                called_name = called.attr if isinstance(called, ast.Attribute) else None
                if isinstance(called, ast.Name):
                    called_name = called.id
                if called_name == name:
                    found.append((path, node))
    return found


def _first_literals(name: str, exempt: Path | None = None) -> set[str]:
    """The first argument of every call of `name` (outside `exempt`), each a string
    literal."""
    literals = set()
    for path, call in _calls(name):
        first = call.args[0] if call.args else None
        if path == exempt:
            continue
        assert isinstance(first, ast.Constant) and isinstance(first.value, str), (
            f"{path.relative_to(ROOT.parent)}:{call.lineno}: {name}(...) names its code or "
            "reason as a string literal, so this test can find it"
        )
        literals.add(first.value)
    return literals


def _codes() -> set[str]:
    # Every ApiError's code, and the codes written straight into an envelope
    # (http/middleware.py's 500, http/errors.py's other framework errors, /readyz);
    # envelope.py's own call renders an ApiError's code.
    envelope = ROOT / "http" / "envelope.py"
    return {error.code for error in _error_classes()} | _first_literals("error_body", envelope)


def test_every_error_code_has_a_remedy():
    codes = _codes()
    assert {"validation_failed", "contact_erased", "http_error"} <= codes  # the walk works
    missing = sorted(code for code in codes if not ERROR_REMEDIES.get(code, "").strip())
    assert not missing, f"add a line to homebase/kit/remedies.py for {missing}"
    assert not set(ERROR_REMEDIES) - codes, "kit/remedies.py names a code no error has"


def test_every_compliance_reason_has_a_remedy():
    reasons = _first_literals("Blocked")
    # the spec's five gates and the attempt limit, of the consent family (compliance/gates.py)
    assert len(reasons) == 6, reasons
    missing = sorted(reason for reason in reasons if not REASON_REMEDIES.get(reason, "").strip())
    assert not missing, f"add a line to homebase/compliance/remedies.py for {missing}"
    assert set(REASON_REMEDIES) == reasons, "compliance/remedies.py names a reason no gate has"


def test_a_refusals_remedy_is_its_reasons_and_falls_back_to_the_codes():
    for reason, text in REASON_REMEDIES.items():
        assert remedy("compliance_blocked", {"reason": reason, "recorded": True}) == text
    fallback = ERROR_REMEDIES["compliance_blocked"]
    assert remedy("compliance_blocked", {"reason": "a_future_gate"}) == fallback
    assert remedy("compliance_blocked", None) == fallback
    assert remedy("no_such_code", None) is None


def test_the_named_remedies_point_at_the_fix():
    """The remedies the house relies on say what to run or send."""
    assert "homebase admin add-sender-number" in REASON_REMEDIES["a2p_not_approved"]
    assert "POST /v1/leads" in REASON_REMEDIES["consent_missing"]
    assert "consent" in REASON_REMEDIES["consent_missing"]
    assert "set-workspace-status --status active" in REASON_REMEDIES["account_suspended"]
    assert "Authorization: token <API_KEY>" in ERROR_REMEDIES["unauthenticated"]
    assert "Retry-After" in ERROR_REMEDIES["rate_limited"]
    assert "details.errors" in ERROR_REMEDIES["validation_failed"]
    assert "details.missing_scope" in ERROR_REMEDIES["insufficient_scope"]
