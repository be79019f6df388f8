"""The rules that keep the suite passing on a loaded machine (AGENTS.md, "Tests"), read off
the tests' own source with `ast`:

- no helper picks a port by binding it and closing it again: a server a test starts binds
  port 0 and says which it got (`homebase serve --port 0 --port-file`, served_support.py),
  or listens on a port the tests hold (support.reserved_port; closed_port for an address
  where nothing listens);
- no hand-written poll: a loop that sleeps (anything but `sleep(0)`, a turn of the event
  loop) or watches the clock is support.until's, the one wait helper, or one of ALLOWED;
- no test asserts an upper bound on elapsed wall time as a number: a margin is a name,
  derived from the settings the test sets (a lower bound may be a number: a slow machine
  only makes it truer);
- `ast.parse` only through source_support.parse, which keeps other threads out of it.
"""

import ast
from pathlib import Path

import pytest

from tests.source_support import parse, parse_file

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("tests", "scripts", "bench")

# Loops that sleep or watch the clock and are not waits, each with the reason.
ALLOWED = {
    ("tests/support.py", "until"): "the one wait helper itself",
    ("tests/support.py", "_until_awaited"): "the one wait helper itself",
    ("tests/cluster/test_cluster.py", "Load._one_client"): "background load, paced",
    ("tests/cluster/test_cluster_database.py", "Traffic._one_client"): "background load, paced",
    ("tests/cluster/test_cluster_work.py", "Burst.post"): "a client's retries, with backoff",
    ("tests/webhook_receiver.py", "Receiver._handle"): "a scripted reply's delay",
}
# Polls are the tests' (scripts/ and bench/ wait in their own ways, importing no tests).
POLLS_CHECKED = ("tests",)

CLOCKS = {"monotonic", "perf_counter", "time", "monotonic_ns", "perf_counter_ns"}


def _files(*tops: str) -> list[Path]:
    return sorted(path for top in tops for path in (ROOT / top).rglob("*.py"))


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _scopes(tree: ast.AST, prefix: str = ""):
    """(qualified name, function) for every function, methods as Class.method."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            yield from _scopes(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield f"{prefix}{node.name}", node
            yield from _scopes(node, f"{prefix}{node.name}.<locals>.")


def _own_nodes(function: ast.AST):
    """The nodes of `function`'s body, not those of functions defined inside it."""
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        function = node.func
        if isinstance(function, ast.Attribute):
            return function.attr
        if isinstance(function, ast.Name):
            return function.id
    return None


def _sleeps(loop: ast.AST) -> bool:
    """A sleep other than `sleep(0)` in the loop (a turn of the event loop is no wait)."""
    for node in ast.walk(loop):
        if _called(node) == "sleep":
            argument = node.args[0] if node.args else None
            if not (isinstance(argument, ast.Constant) and argument.value == 0):
                return True
    return False


def _watches_the_clock(loop: ast.AST) -> bool:
    """A comparison with the clock, or with a deadline, in the loop."""
    return any(
        isinstance(node, ast.Compare)
        and any(
            (isinstance(inner, ast.Name) and inner.id == "deadline")
            or (
                _called(inner) in CLOCKS
                and isinstance(inner.func, ast.Attribute)
                and ast.unparse(inner.func.value) in ("time", "loop", "asyncio.get_running_loop()")
            )
            for inner in ast.walk(node)
        )
        for node in ast.walk(loop)
    )


def polls(tree: ast.AST, module: str) -> list[str]:
    found = []
    for name, function in _scopes(tree):
        if (module, name) in ALLOWED:
            continue
        for node in _own_nodes(function):
            if isinstance(node, ast.While | ast.For | ast.AsyncFor) and (
                _sleeps(node) or _watches_the_clock(node)
            ):
                found.append(f"{module}:{node.lineno} ({name})")
    return found


def port_probes(tree: ast.AST, module: str) -> list[str]:
    """`with socket.socket() as s: s.bind((host, 0))`: a port bound, then let go."""
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.FunctionDef)
            and node.name == "free_port"
            and module
            != (
                "bench/servers.py"  # its free_port holds the port (see there)
            )
        ):
            found.append(f"{module}:{node.lineno} (free_port)")
        if not isinstance(node, ast.With):
            continue
        for item in node.items:
            if ast.unparse(item.context_expr).startswith("socket.socket("):
                for inner in ast.walk(node):
                    if (
                        _called(inner) == "bind"
                        and inner.args
                        and isinstance(inner.args[0], ast.Tuple)
                        and len(inner.args[0].elts) == 2
                        and isinstance(inner.args[0].elts[1], ast.Constant)
                        and inner.args[0].elts[1].value == 0
                    ):
                        found.append(f"{module}:{inner.lineno}")
    return found


def duration_bounds(tree: ast.AST, module: str) -> list[str]:
    """`assert <elapsed> < 2`: an upper bound on wall time, as a number."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare)):
            continue
        sides = [node.test.left, *node.test.comparators]
        for left, op, right in zip(sides[:-1], node.test.ops, sides[1:], strict=True):
            if isinstance(op, ast.Gt | ast.GtE):
                left, right = right, left
            elif not isinstance(op, ast.Lt | ast.LtE):
                continue
            timed = any(
                _called(inner) in CLOCKS or (isinstance(inner, ast.Name) and inner.id == "elapsed")
                for inner in ast.walk(left)
            )
            if timed and isinstance(right, ast.Constant):
                found.append(f"{module}:{node.lineno}")
    return found


def parses(tree: ast.AST, module: str) -> list[str]:
    return [
        f"{module}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "ast.parse"
    ]


@pytest.mark.parametrize(
    ("rule", "tops"),
    [
        (port_probes, CHECKED),
        (polls, POLLS_CHECKED),
        (duration_bounds, ("tests",)),
    ],
    ids=["ports", "polls", "durations"],
)
def test_the_suite_keeps_its_rules(rule, tops):
    found = [hit for path in _files(*tops) for hit in rule(parse_file(path), _name(path))]
    assert found == []


def test_only_source_support_parses():
    found = [
        hit
        for path in _files("tests")
        if _name(path) != "tests/source_support.py"
        for hit in parses(parse_file(path), _name(path))
    ]
    assert found == []


def test_allowed_loops_still_exist():
    """An exception whose loop is gone goes from ALLOWED too."""
    scopes = {
        (_name(path), name)
        for path in _files(*POLLS_CHECKED)
        for name, _ in _scopes(parse_file(path))
    }
    assert set(ALLOWED) - scopes == set()


SAMPLE = """
import asyncio, socket, time

def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]

async def poll(ready):
    while not ready():
        await asyncio.sleep(0.1)

def deadline(ready):
    end = time.monotonic() + 5
    while time.monotonic() < end and not ready():
        pass

async def turns(items):
    for item in items:
        await asyncio.sleep(0)

def timed(run):
    started = time.monotonic()
    run()
    assert time.monotonic() - started < 2
    elapsed = 1.0
    assert 3 > elapsed
    assert elapsed >= 0.4

def parsed(source):
    import ast
    return ast.parse(source)
"""


def test_the_rules_find_what_they_look_for():
    tree = parse(SAMPLE)
    assert port_probes(tree, "x.py") == ["x.py:4 (free_port)", "x.py:6"]
    assert polls(tree, "x.py") == ["x.py:10 (poll)", "x.py:15 (deadline)"]
    assert duration_bounds(tree, "x.py") == ["x.py:25", "x.py:27"]
    assert parses(tree, "x.py") == ["x.py:32"]
