"""homebase/'s layers point one way (AGENTS.md, "Layers").

tests/layers_support.py parses every module of homebase/ with `ast`, imports inside
functions included (an import moved into a function to dodge a circle is still an edge).
This fails on:

- an import against the package order (layers_support.LEVELS: kit < db, models < runtime <
  shared engines < domains < console, oauth, cli < the composition root);
- more than MUTUAL_PAIRS_BOUND pairs of top-level packages that import each other;
- kit/ importing any homebase package but kit; db/ anything but kit, models and db;
- a domain package's modules, other than its endpoint modules (`endpoints.py`,
  `*_endpoints.py`), importing homebase.http;
- an import cycle between modules of homebase: every strongly connected component of the
  module graph holds one module.
"""

from tests.layers_support import (
    LEVELS,
    PACKAGE,
    against_the_order,
    graph,
    level,
    modules,
    mutual_pairs,
    package_of,
)

MODULES = modules()
GRAPH = graph(MODULES)
_package = package_of

# Pairs of top-level packages that import each other (a domain and fixtures/, whose list
# names every domain's loader; domains that read each other's rules); `python -m
# tests.layers_support` lists them. The bound may only fall.
MUTUAL_PAIRS_BOUND = 25

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
    "oauth",
    "ratelimit",
    "root",
    "runtime",
    "tracing",
    "worker",
}
DB_MAY_IMPORT = {"db", "kit", "models"}


def _where(module: str, target: str) -> str:
    return f"{MODULES[module].relative_to(PACKAGE)}:{GRAPH[module][target]} imports {target}"


def test_every_import_follows_the_package_order():
    assert against_the_order(GRAPH, MODULES) == []


def test_at_most_the_bound_of_package_pairs_import_each_other():
    pairs = mutual_pairs(GRAPH)
    assert len(pairs) <= MUTUAL_PAIRS_BOUND, pairs


def test_nothing_below_the_root_imports_it():
    importers = {
        _package(module)
        for module, edges in GRAPH.items()
        for target in edges
        if _package(target) == "root"
    }
    assert importers <= {"root", "__main__"}


def test_the_order_names_packages_that_exist():
    top = {_package(module) for module in MODULES}
    named = {package for _, members in LEVELS for package in members}
    assert named <= top, named - top
    assert level("kit") < level("db") < level("http") < level("contacts") < level("cli")
    assert level("cli") < level("root")


def test_the_counter_finds_pairs_and_imports_against_the_order():
    edges = {
        "homebase.kit.a": {"homebase.contacts.b": 1},
        "homebase.contacts.b": {"homebase.kit.a": 2, "homebase.deals.c": 3},
        "homebase.deals.c": {"homebase.contacts.b": 4},
    }
    known = {name: PACKAGE / (name.split(".", 1)[1].replace(".", "/") + ".py") for name in edges}
    assert mutual_pairs(edges) == [("contacts", "deals"), ("contacts", "kit")]
    assert against_the_order(edges, known) == ["kit/a.py:1 imports homebase.contacts.b"]


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
        if _package(module) in NOT_DOMAINS or MODULES[module].name.endswith("endpoints.py"):
            continue
        wrong += [_where(module, target) for target in edges if _package(target) == "http"]
    assert wrong == []


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
