"""homebase/'s layers point one way (AGENTS.md, "Layers").

This parses every module of homebase/ with `ast`, imports inside functions included (an
import moved into a function to dodge a circle is still an edge), and fails on:

- kit/ importing any homebase package but kit;
- db/ importing anything above it (only kit, models and db itself);
- a domain package's modules, other than its endpoints and the few HTTP-facing modules
  named in HTTP_FACING, importing homebase.http;
- an import cycle between modules of homebase: every strongly connected component of the
  module graph holds one module.
"""

import ast
from collections.abc import Iterator
from pathlib import Path

import homebase
from tests.source_support import parse_file

PACKAGE = Path(homebase.__file__).resolve().parent
SKIPPED = ("migrations",)

# Packages (and top-level modules) that are not a domain: the machinery below the domains,
# and the layers above them that serve HTTP or run commands.
NOT_DOMAINS = {
    "__init__",
    "__main__",
    "cli",
    "config",
    "console",
    "db",
    "http",
    "kit",
    "metrics",
    "migrations",
    "models",
    "ratelimit",
    "root",
    "runtime",
    "tracing",
    "worker",
}
# A domain's modules that speak HTTP themselves besides its endpoints, with why.
HTTP_FACING = {
    "oauth/forms.py": "reads /oauth/token's form body and Basic header; each failure counts"
    " against the client address's unauthenticated budget (http/unauthenticated.py)",
}
DB_MAY_IMPORT = {"db", "kit", "models"}


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {
        _name(path): path
        for path in sorted(PACKAGE.rglob("*.py"))
        if not any(part in SKIPPED for part in path.relative_to(PACKAGE).parts)
    }


MODULES = _modules()


def _imported(tree: ast.AST) -> Iterator[tuple[str, int]]:
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
                    yield (submodule if submodule in MODULES else node.module), node.lineno


def _graph() -> dict[str, dict[str, int]]:
    graph: dict[str, dict[str, int]] = {}
    for name, path in MODULES.items():
        edges: dict[str, int] = {}
        for target, line in _imported(parse_file(path)):
            assert target in MODULES, f"{name} line {line} imports {target}, not a module"
            if target != name:
                edges.setdefault(target, line)
        graph[name] = edges
    return graph


GRAPH = _graph()


def _package(module: str) -> str:
    """The first component under homebase (`kit` for homebase.kit.ids)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _where(module: str, target: str) -> str:
    return f"{MODULES[module].relative_to(PACKAGE)}:{GRAPH[module][target]} imports {target}"


def test_kit_imports_only_kit():
    wrong = [
        _where(module, target)
        for module, edges in GRAPH.items()
        if _package(module) == "kit"
        for target in edges
        if _package(target) != "kit"
    ]
    assert wrong == []


def test_db_imports_nothing_above_it():
    wrong = [
        _where(module, target)
        for module, edges in GRAPH.items()
        if _package(module) == "db"
        for target in edges
        if _package(target) not in DB_MAY_IMPORT
    ]
    assert wrong == []


def test_domain_modules_other_than_endpoints_do_not_import_http():
    wrong = []
    for module, edges in GRAPH.items():
        relative = MODULES[module].relative_to(PACKAGE).as_posix()
        if _package(module) in NOT_DOMAINS or relative in HTTP_FACING:
            continue
        if MODULES[module].name == "endpoints.py":
            continue
        wrong += [_where(module, target) for target in edges if _package(target) == "http"]
    assert wrong == []


def test_http_facing_modules_exist():
    assert all((PACKAGE / relative).is_file() for relative in HTTP_FACING)


def _components(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    found.append(sorted(component))
    return found


def test_no_import_cycles():
    cycles = [
        [
            _where(module, target)
            for module in component
            for target in GRAPH[module]
            if target in component
        ]
        for component in _components(GRAPH)
        if len(component) > 1
    ]
    assert cycles == []


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 1}, "d": {}, "e": {"e": 1}}
    assert sorted(_components(graph)) == [["a", "b", "c"], ["d"], ["e"]]
