"""The data-access and request-path code stays small enough to read in one sitting:
homebase/db/ and the /v1 route class together at most 2,000 lines, no function in them
longer than 60 lines or above cyclomatic complexity 15 (radon's measure), and nowhere in
homebase/ is SQL built or edited as text: text(), literal_column() and the drivers'
execute calls take fixed strings (a PRAGMA setting a connection's option excepted), and
everything else is built with SQLAlchemy's expression language. The one text handed to a
driver connection directly (db/driver.py) is what SQLAlchemy's compile() wrote from such a
construct."""

import ast
from pathlib import Path

from radon.complexity import cc_visit_ast

from tests.source_support import parse_file

HOMEBASE = Path(__file__).resolve().parent.parent / "homebase"
MACHINERY = sorted((HOMEBASE / "db").glob("*.py")) + [HOMEBASE / "http" / "v1_route.py"]
MAX_LINES, MAX_FUNCTION_LINES, MAX_COMPLEXITY = 2_000, 60, 15
SQL_CALLS = {"text", "literal_column", "exec_driver_sql", "execute", "executemany"}


def test_the_machinery_is_at_most_two_thousand_lines():
    lines = {path.name: len(path.read_text().splitlines()) for path in MACHINERY}
    assert sum(lines.values()) <= MAX_LINES, lines


def test_no_function_in_it_is_long_or_complex():
    long, complex_ = [], []
    for path in MACHINERY:
        tree = parse_file(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.name} ({length} lines)")
        complex_ += [
            f"{path.name}:{block.name} ({block.complexity})"
            for block in cc_visit_ast(tree)
            if block.complexity > MAX_COMPLEXITY
        ]
    assert not long and not complex_, (long, complex_)


def _built(node: ast.expr) -> bool:
    """Whether `node` makes a string at run time (f-string, +, %, .format, join)."""
    if isinstance(node, ast.JoinedStr):
        return not (
            node.values
            and isinstance(first := node.values[0], ast.Constant)
            and str(first.value).startswith("PRAGMA ")
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
        return True
    return isinstance(node, ast.Call) and getattr(node.func, "attr", "") in {"format", "join"}


def test_no_sql_is_built_as_text():
    found = []
    for path in sorted(HOMEBASE.rglob("*.py")):
        if "migrations" in path.parts:  # DDL, run once by Alembic
            continue
        for node in ast.walk(parse_file(path)):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in SQL_CALLS and _built(node.args[0]):
                found.append(f"{path.relative_to(HOMEBASE)}:{node.lineno}")
    assert not found, found


def test_the_driver_runs_only_what_sqlalchemy_compiled():
    """db/driver.py gives asyncpg and sqlite3 a Prepared's text, `Prepared.sql`, or a
    multi-row or several tables' INSERT (`_together`), and each is only ever
    `compiled.string` of SQLAlchemy's compile()."""
    tree = parse_file(HOMEBASE / "db" / "driver.py")
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and node.args]
    sent = {
        ast.unparse(call.args[0])
        for call in calls
        if getattr(call.func, "attr", "") in {"execute", "executemany", "fetch", "call"}
    }
    # `statement`: a Core construct, through SQLAlchemy's own execution
    assert sent <= {"form.sql", "sql", "_sqlite", "_many", "statement"}, sent
    made = [
        ast.unparse(call.args[0]) for call in calls if getattr(call.func, "id", "") == "Prepared"
    ]
    assert made == ["compiled.string"], made
    together = next(
        node for node in ast.walk(tree) if getattr(node, "name", "") == "_together"
    )  # multi-row and several tables' INSERTs: `sql` above
    returned = [
        ast.unparse(node.value) for node in ast.walk(together) if isinstance(node, ast.Return)
    ]
    assert [text.split(",")[0] for text in returned] == ["(compiled.string"], returned
