"""Every check of an OAuth client's secret goes through oauth/forms.py `authenticate_client`,
which counts each failure against the unauthenticated budget (docs/decisions.md
"Unauthenticated budget"): a module that compared a secret itself would give guessers an
unmetered endpoint, as /oauth/revoke once was. The budget's behaviour at each endpoint is
tested at the HTTP level in tests/ratelimit/test_unauthenticated_budget.py."""

import ast
from pathlib import Path

import homebase

PACKAGE = Path(homebase.__file__).resolve().parent


def _users(name: str) -> dict[str, set[str]]:
    """module -> the functions in it that name `name` (a call, an attribute, a subscript
    key), "<module>" for a mention outside any function (an import)."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        module = path.relative_to(PACKAGE).as_posix()
        tree = ast.parse(path.read_text(), filename=str(path))
        functions = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        inside: set[int] = set()
        for function in functions:
            for node in ast.walk(function):
                if _names(node, name):
                    found.setdefault(module, set()).add(function.name)
                    inside.add(id(node))
        for node in ast.walk(tree):
            if _names(node, name) and id(node) not in inside:
                found.setdefault(module, set()).add("<module>")
    return found


def _names(node: ast.AST, name: str) -> bool:
    return (
        (isinstance(node, ast.Name) and node.id == name)
        or (isinstance(node, ast.Attribute) and node.attr == name)
        or (isinstance(node, ast.Constant) and node.value == name)
        or (isinstance(node, ast.alias) and node.name == name)
    )


def test_client_secrets_are_checked_only_by_the_counting_function():
    # The stored hash: made at registration, compared in one place.
    assert _users("secret_hash") == {
        "oauth/service.py": {"_new_client", "secret_matches"},
        "models/oauth_client.py": {"<module>"},
    }
    # That comparison: only by the check that does not count ...
    assert _users("secret_matches") == {"oauth/forms.py": {"<module>", "_verify_client"}}
    # ... which only the counting function calls; every endpoint calls that one.
    assert _users("_verify_client") == {"oauth/forms.py": {"authenticate_client"}}
    assert set(_users("authenticate_client")) == {"oauth/forms.py", "oauth/endpoints.py"}
