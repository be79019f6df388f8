"""Who names what in homebase/: the structural tests that hold one path for a rule (every
client-secret check counted, every send gated) find the functions that use a name."""

import ast
from pathlib import Path

import homebase

PACKAGE = Path(homebase.__file__).resolve().parent


def users(name: str) -> dict[str, set[str]]:
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
