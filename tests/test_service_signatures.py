"""Service functions take their parameters by keyword past the first two (AGENTS.md,
"Rules", Services): `update_contact(session, contact_id, *, patch, fields)`. A call then
names what it passes, and a parameter added, removed or reordered breaks every call that
relied on the old order at once instead of shifting arguments silently.

A service module is `homebase/<package>/service.py`, a package's rules (AGENTS.md,
"Layout"). Its public functions are the module-level functions whose names do not start
with an underscore; one with three or more parameters has at most two positional ones
(`*args` or a `/` counts as positional).
"""

import ast
from pathlib import Path

from tests.source_support import PACKAGE, parse, parse_file

POSITIONAL = 2


def service_modules() -> list[Path]:
    return sorted(PACKAGE.glob("*/service.py"))


def too_positional(tree: ast.Module) -> list[tuple[str, int]]:
    """(name, line) of each public function with three or more parameters and more than
    two of them positional."""
    found = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.name.startswith("_"):
            continue
        arguments = node.args
        positional = len(arguments.posonlyargs) + len(arguments.args)
        if arguments.vararg is not None:
            positional += 1
        if positional + len(arguments.kwonlyargs) >= 3 and positional > POSITIONAL:
            found.append((node.name, node.lineno))
    return found


def test_service_functions_take_keywords_past_the_first_two():
    wrong = [
        f"{path.relative_to(PACKAGE)}:{line} {name}"
        for path in service_modules()
        for name, line in too_positional(parse_file(path))
    ]
    assert wrong == []


def test_the_service_modules_are_the_packages_rules():
    names = {path.parent.name for path in service_modules()}
    assert {"contacts", "leads", "messaging", "outbox", "tasks"} <= names
    assert all(path.parent.parent == PACKAGE for path in service_modules())


def test_the_check_finds_positional_parameters():
    source = (
        "def fine(session, contact_id, *, patch): ...\n"
        "async def two(session, contact_id): ...\n"
        "def _private(a, b, c): ...\n"
        "def wrong(session, contact_id, patch): ...\n"
        "async def also(a, b, *rest): ...\n"
        "def posonly(a, b, c, /): ...\n"
    )
    assert too_positional(parse(source)) == [("wrong", 4), ("also", 5), ("posonly", 6)]
