"""homebase/'s import graph, for tests/test_layers.py and for counting by hand:

    .venv/bin/python -m tests.layers_support [PACKAGE_DIR]

prints how many pairs of top-level packages import each other, which pairs, and every
import against the package order (AGENTS.md, "Layers"). PACKAGE_DIR (default: this
checkout's homebase/) may be another checkout's, to count before and after a change.

Every module is parsed with `ast`, imports inside functions included (an import moved into a
function to dodge a circle is still an edge); migrations are left out.
"""

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import homebase
from tests.source_support import parse_file

PACKAGE = Path(homebase.__file__).resolve().parent
SKIPPED = ("migrations",)

# The package order, lowest first: a package imports its own level and the levels below,
# never one above. A top-level package (or module) not named here is a domain.
DOMAINS = "domains"
LEVELS: tuple[tuple[str, frozenset[str]], ...] = (
    ("kit", frozenset({"kit"})),
    ("data", frozenset({"db", "models"})),
    (
        "runtime",
        frozenset({"__init__", "config", "runtime", "metrics", "tracing", "ratelimit", "worker"}),
    ),
    (
        "shared engines",
        frozenset({"auth", "outbox", "idempotency", "compliance", "http", "paging"}),
    ),
    (DOMAINS, frozenset()),
    ("front ends", frozenset({"console", "oauth", "cli"})),
    ("root", frozenset({"root", "__main__"})),
)


def level(package: str) -> int:
    named = [index for index, (_, members) in enumerate(LEVELS) if package in members]
    return named[0] if named else [name for name, _ in LEVELS].index(DOMAINS)


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    parts[0] = "homebase"  # another checkout's directory may be named otherwise
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    return {
        module_name(path, package): path
        for path in sorted(package.rglob("*.py"))
        if not any(part in SKIPPED for part in path.relative_to(package).parts)
    }


def imported(tree: ast.AST, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """(module of homebase, line) for every import anywhere in the module: `from a import
    b` names a.b when b is a module, else a."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "homebase":
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"relative import at line {node.lineno}"
            if node.module and node.module.split(".")[0] == "homebase":
                for alias in node.names:
                    submodule = f"{node.module}.{alias.name}"
                    yield (submodule if submodule in known else node.module), node.lineno


def graph(known: dict[str, Path]) -> dict[str, dict[str, int]]:
    """module -> {module it imports: the line of its first import}."""
    found: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        edges: dict[str, int] = {}
        for target, line in imported(parse_file(path), known):
            assert target in known, f"{name} line {line} imports {target}, not a module"
            if target != name:
                edges.setdefault(target, line)
        found[name] = edges
    return found


def package_of(module: str) -> str:
    """The first component under homebase (`kit` for homebase.kit.ids)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def mutual_pairs(edges: dict[str, dict[str, int]]) -> list[tuple[str, str]]:
    """The pairs of top-level packages each of which imports the other."""
    between = {
        (package_of(module), package_of(target))
        for module, targets in edges.items()
        for target in targets
        if package_of(module) != package_of(target)
    }
    return sorted({tuple(sorted(pair)) for pair in between if pair[::-1] in between})


def against_the_order(
    edges: dict[str, dict[str, int]], known: dict[str, Path], package: Path = PACKAGE
) -> list[str]:
    """Every import of a package from a level above its own, as `path:line imports x`."""
    return [
        f"{known[module].relative_to(package)}:{line} imports {target}"
        for module, targets in edges.items()
        for target, line in targets.items()
        if level(package_of(target)) > level(package_of(module))
    ]


def main(argv: list[str]) -> None:
    package = Path(argv[0]).resolve() if argv else PACKAGE
    known = modules(package)
    edges = graph(known)
    pairs = mutual_pairs(edges)
    wrong = against_the_order(edges, known, package)
    print(f"{package}: {len(known)} modules")
    print(f"package pairs importing each other: {len(pairs)}")
    for first, second in pairs:
        print(f"  {first} <-> {second}")
    print(f"imports against the package order: {len(wrong)}")
    for line in wrong:
        print(f"  {line}")


if __name__ == "__main__":
    main(sys.argv[1:])
