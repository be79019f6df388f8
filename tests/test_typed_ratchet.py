"""A ratchet on untyped rows (AGENTS.md, "Typed rows and wire types"): the count of
`dict[str, Any]` in homebase/'s annotations, of `Any` in the signatures of render and
service functions, and of kit.wire.JsonObject (the name for JSON at a real boundary, so
that it is no way around the first count) may fall and never rise. A new row is a record
(a TypedDict beside its domain), a new payload a wire type; lower CEILING when a count
falls.

In a typed resource (TYPED) every `dict[str, Any]` that remains is at a real boundary
(JSON of free-form members, a provider's payload, another domain's row not typed yet),
and a comment on its line, or the line above, says which."""

import ast
from pathlib import Path

import homebase
from tests.source_support import parse_file

PACKAGE = Path(homebase.__file__).resolve().parent
UNTYPED = "dict[str, Any]"
BOUNDARY = "JsonObject"  # kit/wire.py: JSON at a real boundary, counted apart

# The counts when each was last lowered. Before any resource was typed: 755 and 246.
# Four of the first are db/driver.py's rows of any table, the data layer's side of the
# boundary where a repository casts its rows to records, as TenantSession's own are.
CEILING = {
    "dict[str, Any] in annotations": 351,
    "Any in render and service signatures": 65,
    "JsonObject (JSON at a boundary) in annotations": 36,
}

TYPED = (
    "appointments",
    "automations",
    "calls",
    "contacts",
    "custom_fields",
    "deals",
    "imports",
    "leads",
    "listings",
    "messaging",
    "tasks",
    "webhooks",
)


def _annotations(tree: ast.Module) -> list[tuple[bool, ast.expr]]:
    """(in a function's signature, the annotation) for every annotation in the module."""
    found: list[tuple[bool, ast.expr]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            arguments = node.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            every += [argument for argument in (arguments.vararg, arguments.kwarg) if argument]
            found += [(True, a.annotation) for a in every if a.annotation is not None]
            if node.returns is not None:
                found.append((True, node.returns))
        elif isinstance(node, ast.AnnAssign):
            found.append((False, node.annotation))
    return found


def _modules() -> list[Path]:
    return [
        path
        for path in sorted(PACKAGE.rglob("*.py"))
        if "migrations" not in path.relative_to(PACKAGE).parts
    ]


def counts() -> dict[str, int]:
    untyped = signatures = boundaries = 0
    for path in _modules():
        for in_signature, annotation in _annotations(parse_file(path)):
            untyped += ast.unparse(annotation).count(UNTYPED)
            boundaries += sum(
                isinstance(node, ast.Name) and node.id == BOUNDARY for node in ast.walk(annotation)
            )
            if in_signature and path.name in ("render.py", "service.py"):
                signatures += sum(
                    isinstance(node, ast.Name) and node.id == "Any" for node in ast.walk(annotation)
                )
    return {
        "dict[str, Any] in annotations": untyped,
        "Any in render and service signatures": signatures,
        "JsonObject (JSON at a boundary) in annotations": boundaries,
    }


def test_untyped_rows_never_grow() -> None:
    now = counts()
    grown = {
        name: f"{now[name]} > {CEILING[name]}" for name in CEILING if now[name] > CEILING[name]
    }
    assert not grown, (
        f"untyped annotations grew: {grown}. Type the new rows (a record beside the domain, "
        "a wire type for a payload: AGENTS.md, 'Typed rows and wire types')."
    )


def test_a_typed_resource_keeps_dict_any_only_at_a_boundary_it_names() -> None:
    unexplained = []
    for package in TYPED:
        for path in sorted((PACKAGE / package).rglob("*.py")):
            lines = path.read_text().splitlines()
            for number, line in enumerate(lines, start=1):
                if UNTYPED not in line:
                    continue
                above = lines[number - 2] if number > 1 else ""
                if "#" not in line and not above.lstrip().startswith("#"):
                    unexplained.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert not unexplained, "say which boundary (a comment):\n" + "\n".join(unexplained)
