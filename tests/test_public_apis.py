"""homebase/ reaches its libraries through their public names only.

A private name (one leading underscore) of SQLAlchemy, aiosqlite, Starlette, FastAPI,
httpx or the standard library may change or vanish in any release; code built on them
failed to import on one SQLAlchemy 2.0 release and broke on an aiosqlite upgrade. This
walks every module of homebase/ with `ast` and fails on:

- an import from a module whose path has a component starting with `_` (`starlette._utils`),
  or of a name starting with `_` from a module that is not ours;
- `x._name` (also `getattr(x, "_name")`, `setattr`, `hasattr`) where `x` is not `self` /
  `cls` and `_name` is not defined anywhere in homebase/, or is one of the private names
  homebase used before (KNOWN);
- a keyword argument `_name=` (a library's private parameter);
- in a class of ours with a library class among its bases: defining, reading or
  assigning a private name that one of those library classes has (an override of a
  private method, a read of its private state, `super()._name`).
"""

import ast
import importlib
import re
from pathlib import Path

import homebase
from tests.source_support import parse, parse_file

PACKAGE = Path(homebase.__file__).resolve().parent
SKIPPED = ("migrations/versions",)

# Public despite the underscore, by their libraries' documentation: namedtuple's methods
# and SQLAlchemy's Row, which mirrors them, carry one so they cannot clash with fields.
PUBLIC_UNDERSCORE = {"_asdict", "_replace", "_fields", "_make", "_mapping", "_t", "_tuple"}

# The private names homebase used once (a statement runner and request connection of
# its own beside SQLAlchemy's, db/sqlite.py, db/engine.py, http/router.py,
# http/routing.py, webhooks/delivery.py, the admin CLIs): listed so that their return
# is named in the failure.
KNOWN = {
    "_bind_processors",
    "_result_columns",
    "_cached_result_processor",
    "_compile_w_cache",
    "_compiled_cache",
    "_process_parameters_for_postcompile",
    "_textual_ordered_columns",
    "_ad_hoc_textual",
    "_dbapi_connection",
    "_proxied",
    "_assign_proxied",
    "_execute",
    "_conn",
    "_connection",
    "_thread",
    "_running",
    "_json",
    "_pool",
    "_SubParsersAction",
    "_utils",
    "_group_number",
    "_collected_params",
}


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules() -> list[tuple[str, Path, ast.Module]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if any(relative.startswith(skipped) for skipped in SKIPPED):
            continue
        parts = ["homebase", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found.append((".".join(parts), path, parse_file(path)))
    return found


def _defined_by_us(modules) -> set[str]:
    """Private names homebase defines itself: functions, classes, module and class
    attributes, attributes it assigns on self/cls, parameters."""
    names: set[str] = set()
    for _module, _path, tree in modules:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.alias):
                names.add(node.asname or node.name.split(".")[0])
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in ("self", "cls")
            ):
                names.add(node.attr)
    return {name for name in names if _is_private(name)}


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(PACKAGE.parent)}:{node.lineno}"


def _import_findings(path: Path, tree: ast.Module) -> list[str]:
    findings = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if any(_is_private(part) for part in alias.name.split(".")):
                    findings.append(f"{_where(path, node)} imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == "homebase":
                continue
            if any(_is_private(part) for part in node.module.split(".")):
                findings.append(f"{_where(path, node)} imports from {node.module}")
            for alias in node.names:
                if _is_private(alias.name):
                    findings.append(f"{_where(path, node)} imports {node.module}.{alias.name}")
    return findings


def _string_attribute(node: ast.Call) -> str | None:
    if (
        isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "setattr", "hasattr")
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return node.args[1].value
    return None


def _access_findings(path: Path, tree: ast.Module, ours: set[str]) -> list[str]:
    findings = []

    def check(node: ast.AST, base: str, name: str) -> None:
        if not _is_private(name) or name in PUBLIC_UNDERSCORE or base in ("self", "cls"):
            return
        if name in KNOWN or name not in ours:
            findings.append(f"{_where(path, node)} touches {base}.{name}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            check(node, ast.unparse(node.value), node.attr)
        elif isinstance(node, ast.Call):
            name = _string_attribute(node)
            if name is not None:
                check(node, ast.unparse(node.args[0]), name)
            for keyword in node.keywords:
                if keyword.arg and _is_private(keyword.arg):
                    findings.append(
                        f"{_where(path, node)} passes the private parameter "
                        f"{keyword.arg}= to {ast.unparse(node.func)}"
                    )
    return findings


def _library_bases(cls: type) -> list[type]:
    return [
        base
        for base in cls.__mro__[1:]
        if base.__module__.split(".")[0] not in ("homebase", "builtins", "typing", "abc")
        and base is not object
    ]


def _source_files(library_class: type) -> set[str]:
    """The files of the class's methods (inspect.getsource(class) trusts __module__,
    which httpx, for one, sets to the package)."""
    files = set()
    for member in vars(library_class).values():
        for function in (
            member,
            getattr(member, "__func__", None),
            getattr(member, "fget", None),
            getattr(member, "fset", None),
        ):
            code = getattr(function, "__code__", None)
            if code is not None:
                files.add(code.co_filename)
    return files


def _private_names_of(library_class: type) -> set[str]:
    """Its private attributes, and those its module's code sets or reads on `self`
    (instance state such as aiosqlite's `_conn` or httpx's `_pool` is not in dir())."""
    names = {name for name in dir(library_class) if _is_private(name)}
    for file in _source_files(library_class):
        if not Path(file).is_file():  # frozen standard-library modules
            continue
        source = Path(file).read_text()
        names |= set(re.findall(r"\bself\.(_[A-Za-z]\w*)", source))
    return names


def _uses_in_class(node: ast.ClassDef) -> list[tuple[ast.AST, str]]:
    uses: list[tuple[ast.AST, str]] = []
    for item in node.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            uses.append((item, item.name))
        elif isinstance(item, ast.Assign):
            uses += [(item, target.id) for target in item.targets if isinstance(target, ast.Name)]
    for inner in ast.walk(node):
        if isinstance(inner, ast.Attribute):
            base = inner.value
            if (
                isinstance(base, ast.Name)
                and base.id in ("self", "cls")
                or (
                    isinstance(base, ast.Call)
                    and isinstance(base.func, ast.Name)
                    and base.func.id == "super"
                )
            ):
                uses.append((inner, inner.attr))
    return [(where, name) for where, name in uses if _is_private(name)]


def _subclass_findings(module_name: str, path: Path, tree: ast.Module) -> list[str]:
    findings = []
    classes = [node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.bases]
    if not classes:
        return findings
    module = importlib.import_module(module_name)
    for node in classes:
        cls = getattr(module, node.name, None)
        if not isinstance(cls, type):
            continue
        library = _library_bases(cls)
        if not library:
            continue
        private = set().union(*(_private_names_of(base) for base in library))
        for where, name in _uses_in_class(node):
            if name in private:
                owner = next(base for base in library if name in _private_names_of(base))
                findings.append(
                    f"{_where(path, where)} {node.name} uses {name}, private to "
                    f"{owner.__module__}.{owner.__qualname__}"
                )
    return findings


def test_homebase_uses_no_private_name_of_a_library():
    modules = _modules()
    ours = _defined_by_us(modules)
    findings = []
    for module_name, path, tree in modules:
        findings += _import_findings(path, tree)
        findings += _access_findings(path, tree, ours)
        findings += _subclass_findings(module_name, path, tree)
    assert not findings, "private names of libraries:\n" + "\n".join(sorted(set(findings)))


def test_the_walk_finds_what_it_looks_for():
    """The rules above, on a sample: each kind of private use is caught, public ones not."""
    sample = parse(
        "from starlette._utils import get_route_path\n"
        "from sqlalchemy.util import _private_helper\n"
        "rows = compiled._result_columns\n"
        "fairy = getattr(connection, '_connection', None)\n"
        "compiled.construct_params(row, _group_number=1)\n"
        "row._asdict(); row._mapping; self._mine; own._ours\n"
    )
    path = PACKAGE / "sample.py"
    findings = _import_findings(path, sample) + _access_findings(path, sample, {"_ours"})
    assert [finding.split(" ", 1)[1] for finding in findings] == [
        "imports from starlette._utils",
        "imports sqlalchemy.util._private_helper",
        "touches compiled._result_columns",
        "touches connection._connection",
        "passes the private parameter _group_number= to compiled.construct_params",
    ]
