"""Source read as a tree, for the structural tests: `parse` and `parse_file`, the only way
the tests call `ast.parse` (tests/test_suite_rules.py holds that); and who names what in
homebase/ (the tests that hold one path for a rule, every client-secret check counted,
every send gated, find the functions that use a name)."""

import ast
import functools
import gc
import threading
from pathlib import Path

import homebase

PACKAGE = Path(homebase.__file__).resolve().parent

_ONE_AT_A_TIME = threading.Lock()


def parse(source: str, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse(source, filename)`, with no other thread's parse inside it. CPython 3.11
    keeps the count the AST constructor checks ("AST constructor recursion depth
    mismatch", a SystemError) per interpreter, not per thread: a parse that lets another
    thread run half way through, and that thread parses too (formatting a traceback
    parses its lines; so does inspect), fails. Only the garbage collector, running a
    finalizer, lets another thread in during a parse: paused, the parse runs whole. The
    lock keeps the tests' own threads one at a time."""
    with _ONE_AT_A_TIME:
        collecting = gc.isenabled()
        gc.disable()
        try:
            return ast.parse(source, filename)
        finally:
            if collecting:
                gc.enable()


@functools.cache
def parse_file(path: Path) -> ast.Module:
    """A file's tree, parsed once per process (the structural tests each walk homebase/):
    read it, never change it."""
    return parse(path.read_text(), str(path))


def users(name: str) -> dict[str, set[str]]:
    """module -> the functions in it that name `name` (a call, an attribute, a subscript
    key), "<module>" for a mention outside any function (an import)."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        module = path.relative_to(PACKAGE).as_posix()
        tree = parse_file(path)
        functions = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        inside: set[int] = set()
        for function in functions:
            for node in ast.walk(function):
                if names(node, name):
                    found.setdefault(module, set()).add(function.name)
                    inside.add(id(node))
        for node in ast.walk(tree):
            if names(node, name) and id(node) not in inside:
                found.setdefault(module, set()).add("<module>")
    return found


def names(node: ast.AST, name: str) -> bool:
    return (
        (isinstance(node, ast.Name) and node.id == name)
        or (isinstance(node, ast.Attribute) and node.attr == name)
        or (isinstance(node, ast.Constant) and node.value == name)
        or (isinstance(node, ast.alias) and node.name == name)
    )
