"""Tenant scoping is enforced, not remembered.

At run time a TenantSession refuses any statement it did not build (UnscopedQuery) and
hands out no connection. This file holds the other half: it walks every module of
homebase/ with `ast` and fails when a module outside ALLOWED reaches the database any
other way than through a TenantSession it was given. What counts (`findings`):

- running a statement: a call `x.execute(...)`, `.exec_driver_sql`, `.executemany`,
  `.executescript`, `.scalar`, `.scalars`, `.stream`, `.stream_scalars` or `.run_sync`,
  unless `x` is a name known to hold a TenantSession: a parameter annotated
  `TenantSession` or `Tenant`, or a name bound (`=`, `with ... as`, `:=`) from a call of
  `TenantSession(...)` or of a homebase function whose declared return type names
  TenantSession (member_session, tenant_session, ...). Anything else fails closed: an
  unannotated `session.execute(...)` is a finding too;
- reaching a connection or an engine: reading an attribute named `connection`,
  `_connection`, `sync_connection`, `driver_connection`, `dbapi_connection`, `engine` or
  `sync_engine`; importing a database driver (sqlite3, aiosqlite, asyncpg, psycopg) or
  `create_engine` / `create_async_engine`;
- opening a transaction: a call `.transaction(...)` or
  `.begin_nested(...)`;
- choosing a workspace: constructing `TenantSession(...)`;
- declaring a statement that reaches across workspaces: `across_workspaces(...)`.

Every other module gets the database only through the TenantSession a route (`Tenant`),
a console page (`member_session`) or a job hands it. ALLOWED names the modules that
must work across workspaces or before a workspace is known, each with its reason; an
entry ending in "/" covers a folder. An entry whose modules no longer do any of the
above fails too, so the list stays as short as the code allows.
"""

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import delete, insert, select, update

import homebase
from homebase.db.tenancy import TenantSession, UnscopedQuery, across_workspaces
from homebase.kit.crypto import token_hash
from homebase.models import ApiKey, Contact, Workspace
from tests.source_support import parse

PACKAGE = Path(homebase.__file__).resolve().parent

ALLOWED: dict[str, str] = {
    "db/": "the engine, transactions, the SQLite driver path and TenantSession itself",
    "migrations/": "Alembic revisions change the schema and every workspace's rows",
    "auth/api_keys.py": "credential resolution: the key's row names its workspace",
    "auth/dependencies.py": "credential resolution: builds the request's TenantSession "
    "for the credential's workspace",
    "http/v1_route.py": "opens the /v1 request's transaction, before a credential names a "
    "workspace",
    "http/health.py": "readiness runs SELECT 1, in no workspace",
    "ratelimit/limiter.py": "a Redis pipeline's execute sends the limiter's scripts; it "
    "never reaches the database",
    "idempotency/store.py": "claims a key in the request's transaction around the endpoint; "
    "the worker prunes expired keys of every workspace",
    "oauth/tokens.py": "the OAuth token store: a code or token finds its grant, so its "
    "workspace, by its hash",
    "auth/oauth_tokens.py": "credential resolution for bearer tokens",
    "oauth/endpoints.py": "the token endpoint's transaction, before a code or token names a "
    "workspace",
    "oauth/forms.py": "client authentication reads the global app in its own short "
    "transaction, before a token names a workspace",
    "oauth/consent.py": "the consent page reads the global app, before the member approves "
    "for a workspace",
    "oauth/service.py": "apps are global (no workspace): registration and lookup by client "
    "id; grants are read by the token store",
    "oauth/admin.py": "operator commands (homebase admin) name the workspace they act on",
    "console/sessions.py": "console sign-in: the session cookie finds its member, so the workspace",
    "console/signin.py": "console sign-in: one email's memberships across workspaces",
    "console/common.py": "builds the signed-in member's TenantSession for the member's workspace",
    "console/invitations.py": "an invitation's link: its token finds the invitation, so the "
    "workspace, by its hash, before the invitee has a session",
    "cli/admin.py": "operator commands: create, suspend and pick workspaces by id",
    "cli/rotate_secrets.py": "re-seals the secrets of every workspace under a new key",
    "workspaces/service.py": "creates, reads and suspends workspaces (before one exists); "
    "an email's shared password salt across its memberships",
    "workspaces/demo.py": "seeds the demo workspace: creates it, then its TenantSession",
    "calendars/admin.py": "operator command: the member id picks the workspace",
    "calls/repository.py": "a provider's call callback names a number or workspace id: "
    "finds the owning workspace",
    "calls/public.py": "provider callbacks: their transaction and the owning workspace's "
    "TenantSession",
    "messaging/provider_endpoints.py": "provider callbacks find the workspace that owns the number",
    "messaging/unsubscribe_endpoints.py": "an email's unsubscribe link: its sealed token "
    "names the workspace",
    "messaging/jobs.py": "worker engine: claims due messages of every workspace",
    "ai/jobs.py": "worker engine: claims due AI jobs of every workspace",
    "ai/outreach_jobs.py": "worker engine: claims the due first touches and follow-ups of "
    "every workspace",
    "voice/jobs.py": "worker engine: claims the queued AI calls of every workspace, and the "
    "erased ones whose recordings it deletes at the provider",
    "voice/summaries.py": "worker engine: claims the ended AI calls of every workspace "
    "waiting for the model's summary",
    "voice/repository.py": "a provider's callback names a call (or a number) before there is "
    "a workspace: `locate` and `voice_owners` find it",
    "voice/endpoints.py": "provider callbacks and the relay: their transaction and the "
    "workspace the call's id belongs to",
    "voice/conversation.py": "a live call's turns: each its own short transaction in the "
    "workspace of the call the provider's signed handshake named",
    "exports/jobs.py": "worker engine: claims exports and removes expired files of every workspace",
    "exports/public.py": "export download: the signed link names the workspace before any "
    "credential",
    "imports/jobs.py": "worker engine: claims queued imports of every workspace and runs "
    "their batches",
    "webhooks/dispatcher.py": "worker engine: fans out and claims deliveries of every workspace",
    "webhooks/jobs.py": "worker engine: the dispatcher's transactions",
    "webhooks/streaks.py": "worker engine: the failure streaks and disabling of every "
    "workspace's subscriptions, in the dispatcher's record transaction",
    "calendars/jobs.py": "worker engine: claims due calendar pushes of every workspace",
    "automations/engine.py": "worker engine: runs due enrolment steps of every workspace",
    "automations/campaign_job.py": "worker job: claims the due campaigns of every workspace",
    "retention/service.py": "worker engine: prunes expired rows of every workspace",
    "custom_fields/jobs.py": "worker engine: removes deleted custom fields' values in every "
    "workspace",
    "metrics/endpoint.py": "/metrics gauges count rows across workspaces",
    "metrics/pool.py": "pool gauges listen to the engine's checkout events",
    "ratelimit/host.py": "the limiter's file shared by serve --workers (its own SQLite file)",
    "worker/wakeup.py": "the worker's LISTEN connection (PostgreSQL), in no workspace",
    "worker/queue.py": "worker engine: claims, leases and sweeps due rows of every workspace",
}

EXECUTES = {
    "execute",
    "exec_driver_sql",
    "executemany",
    "executescript",
    "scalar",
    "scalars",
    "stream",
    "stream_scalars",
    "run_sync",
}
OPENS = {"transaction", "begin_nested"}
HANDLES = {
    "connection",
    "_connection",
    "sync_connection",
    "driver_connection",
    "dbapi_connection",
    "engine",
    "sync_engine",
}
DRIVERS = {"sqlite3", "aiosqlite", "asyncpg", "psycopg", "psycopg2"}
ENGINES = {"create_engine", "create_async_engine"}
SESSION_TYPES = {"TenantSession", "Tenant"}


@dataclass(frozen=True, order=True)
class Finding:
    line: int
    what: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.what}"


def _names_session(annotation: ast.expr | None) -> bool:
    for node in ast.walk(annotation) if annotation is not None else ():
        if isinstance(node, ast.Name) and node.id in SESSION_TYPES:
            return True
        if isinstance(node, ast.Attribute) and node.attr in SESSION_TYPES:
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if any(name in node.value for name in SESSION_TYPES):
                return True
    return False


def session_factories(trees: list[ast.Module]) -> set[str]:
    """The functions (anywhere in the package) declared to return a TenantSession."""
    return {
        node.name
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _names_session(node.returns)
    }


def _called(node: ast.expr) -> str | None:
    if isinstance(node, ast.Await):
        node = node.value
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


class Checker(ast.NodeVisitor):
    def __init__(self, factories: set[str]):
        self.factories = factories | {"TenantSession"}
        self.scopes: list[dict[str, bool]] = [{}]  # name -> holds a TenantSession
        self.findings: set[Finding] = set()

    def found(self, node: ast.AST, what: str) -> None:
        self.findings.add(Finding(getattr(node, "lineno", 0), what))

    def _bind(self, scope: dict[str, bool], target: ast.expr, is_session: bool) -> None:
        if isinstance(target, ast.Name):  # a name bound twice holds a session only if both do
            scope[target.id] = scope.get(target.id, True) and is_session
        elif isinstance(target, ast.Tuple | ast.List | ast.Starred):
            for element in ast.walk(target):
                if isinstance(element, ast.Name):
                    scope[element.id] = False

    def _holds_session(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            for scope in reversed(self.scopes):
                if node.id in scope:
                    return scope[node.id]
        return False

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        scope: dict[str, bool] = {}
        arguments = node.args
        for argument in [
            *arguments.posonlyargs,
            *arguments.args,
            *arguments.kwonlyargs,
            *filter(None, [arguments.vararg, arguments.kwarg]),
        ]:
            scope[argument.arg] = _names_session(argument.annotation)
        for inner in ast.walk(node):  # bindings anywhere in the body: scopes are per function
            if isinstance(inner, ast.Assign):
                for target in inner.targets:
                    self._bind(scope, target, _called(inner.value) in self.factories)
            elif isinstance(inner, ast.AnnAssign):
                made = inner.value is not None and _called(inner.value) in self.factories
                self._bind(scope, inner.target, _names_session(inner.annotation) or made)
            elif isinstance(inner, ast.withitem) and inner.optional_vars is not None:
                made = _called(inner.context_expr) in self.factories
                self._bind(scope, inner.optional_vars, made)
            elif isinstance(inner, ast.NamedExpr):
                self._bind(scope, inner.target, _called(inner.value) in self.factories)
            elif isinstance(inner, ast.For | ast.AsyncFor | ast.comprehension):
                self._bind(scope, inner.target, False)
        self.scopes.append(scope)
        self.generic_visit(node)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in EXECUTES and not self._holds_session(func.value):
                self.found(node, f"runs a statement (.{func.attr}) outside a TenantSession")
            elif func.attr in OPENS:
                self.found(node, f"opens a transaction (.{func.attr})")
        name = _called(node)
        if name == "TenantSession":
            self.found(node, "chooses the workspace of a TenantSession")
        elif name == "across_workspaces":
            self.found(node, "declares a statement across workspaces")
        elif name in ENGINES:
            self.found(node, f"creates an engine ({name})")
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in HANDLES and isinstance(node.ctx, ast.Load):
            self.found(node, f"reaches a connection or an engine (.{node.attr})")
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] in DRIVERS:
                self.found(node, f"imports a database driver ({alias.name})")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if (node.module or "").split(".")[0] in DRIVERS:
            self.found(node, f"imports a database driver ({node.module})")
        for alias in node.names:
            if alias.name in ENGINES:
                self.found(node, f"imports {alias.name}")


def findings(source: str, factories: set[str] = frozenset()) -> list[Finding]:
    """What `source` does; `factories` adds session factories defined elsewhere."""
    tree = parse(source)
    checker = Checker(set(factories) | session_factories([tree]))
    checker.visit(tree)
    return sorted(checker.findings)


def scan(root: Path) -> dict[str, list[Finding]]:
    """Each module under `root` (its path relative to it) with what it was found doing."""
    sources = {
        path.relative_to(root).as_posix(): path.read_text() for path in sorted(root.rglob("*.py"))
    }
    factories = session_factories([parse(source) for source in sources.values()])
    return {
        path: found for path, source in sources.items() if (found := findings(source, factories))
    }


def allowed_by(path: str, allowed: dict[str, str]) -> str | None:
    for entry in allowed:
        if path == entry or (entry.endswith("/") and path.startswith(entry)):
            return entry
    return None


def violations(scanned: dict[str, list[Finding]], allowed: dict[str, str]) -> list[str]:
    return [
        f"homebase/{path} {finding}"
        for path, found in scanned.items()
        if allowed_by(path, allowed) is None
        for finding in found
    ]


@pytest.fixture(scope="module")
def package_scan() -> dict[str, list[Finding]]:
    return scan(PACKAGE)


def test_only_the_allowed_modules_reach_the_database_outside_a_tenant_session(package_scan):
    found = violations(package_scan, ALLOWED)
    assert not found, (
        "reach the database through the TenantSession you are given (db/tenancy.py: select, "
        "update, delete, insert, insert_if_absent, upsert, workspace, mark_work, ...), or, "
        "for work that must cross workspaces, add the module to ALLOWED with its reason:\n"
        + "\n".join(found)
    )


def test_every_allowed_entry_is_still_needed(package_scan):
    stale = [
        entry
        for entry in ALLOWED
        if not any(allowed_by(path, {entry: ""}) for path in package_scan)
    ]
    assert not stale, f"these modules no longer reach the database; drop them: {stale}"


def test_every_allowed_entry_has_a_one_line_reason():
    for entry, reason in ALLOWED.items():
        assert reason.strip() and "\n" not in reason, entry
        assert entry.endswith((".py", "/")), entry


# The checker itself can fail: each of these is what it exists to catch.

UNSCOPED = {
    "a statement on a connection": """
async def load(connection, contact_id):
    return await connection.execute(select(contacts).where(contacts.c.id == contact_id))
""",
    "a session's connection": """
async def load(session: TenantSession):
    return await session.connection.execute(select(contacts))
""",
    "the private connection": """
async def load(session: TenantSession):
    return await session._connection.execute(select(contacts))
""",
    "a session nobody declared": """
async def load(session):
    return await session.execute(update(contacts).values(first_name="x"))
""",
    "a session rebound to something else": """
async def load(session: TenantSession, other):
    session = other
    return await session.execute(update(contacts).values(first_name="x"))
""",
    "a result read with scalars": """
async def count(result):
    return result.scalars().all()
""",
    "a transaction of its own": """
async def load(runtime):
    async with runtime.db.transaction() as connection:
        pass
""",
    "a session for a workspace it picked": """
def session_for(connection, workspace_id):
    return TenantSession(connection, workspace_id)
""",
    "a statement declared across workspaces": """
EVERYONE = across_workspaces(select(contacts))
""",
    "an engine": """
def database(runtime):
    return runtime.db.engine
""",
    "a driver": """
import sqlite3
""",
}


@pytest.mark.parametrize("case", sorted(UNSCOPED))
def test_the_checker_finds(case):
    assert findings(UNSCOPED[case]), case


SCOPED = """
from homebase.auth.dependencies import Tenant

@asynccontextmanager
async def member_session(request, member) -> AsyncIterator[TenantSession]:
    yield await tenant_session(request)

async def rename(session: TenantSession, contact_id: str) -> int:
    return await session.execute(
        session.update(contacts).where(contacts.c.id == contact_id).values(first_name="x")
    )

async def endpoint(session: Tenant):
    await session.execute(session.delete(contacts))

async def page(request, member):
    async with member_session(request, member) as session:
        await session.execute(session.delete(contacts))
    rows = lambda session: session.fetch_all(session.select(contacts))

async def nested(session: "TenantSession"):
    async def inner():
        await session.execute(session.delete(contacts))
    await inner()
"""


def test_the_checker_passes_statements_run_by_a_tenant_session():
    assert findings(SCOPED) == []


def test_the_checker_fails_on_an_unscoped_module_in_a_package(tmp_path):
    domain = tmp_path / "contacts"
    domain.mkdir()
    (domain / "repository.py").write_text(UNSCOPED["a session's connection"])
    (domain / "service.py").write_text(SCOPED)
    found = violations(scan(tmp_path), {})
    assert found and all(line.startswith("homebase/contacts/repository.py") for line in found)
    assert violations(scan(tmp_path), {"contacts/repository.py": "a reason"}) == []


# At run time: the session hands out no connection and refuses what it did not build.

contacts = Contact.__table__
api_keys = ApiKey.__table__
workspaces = Workspace.__table__


async def test_a_tenant_session_hands_out_no_connection(runtime, tenant):
    async with runtime.db.transaction(write=False) as connection:
        session = TenantSession(connection, tenant.id)
        assert not hasattr(session, "connection")
        public = {name: getattr(session, name) for name in dir(session) if name[0] != "_"}
        assert not any(value is connection for value in public.values())


async def test_a_tenant_session_refuses_statements_it_did_not_build(runtime, tenant):
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        for statement in (
            select(contacts),
            select(workspaces),
            update(contacts).values(first_name="x"),
            delete(contacts),
            insert(contacts).values(id="con_x", workspace_id=tenant.id),
        ):
            with pytest.raises(UnscopedQuery):
                await session.execute(statement)
            with pytest.raises(UnscopedQuery):
                await session.fetch_all(statement)
        with pytest.raises(UnscopedQuery):
            await session.fetch_one(select(contacts))
        with pytest.raises(UnscopedQuery):
            await anext(session.stream(select(contacts), contacts.c.id))


async def test_a_declared_cross_workspace_statement_runs_as_declared(runtime, tenant, other_tenant):
    both = across_workspaces(
        select(workspaces.c.id).where(workspaces.c.id.in_([tenant.id, other_tenant.id]))
    )
    async with runtime.db.transaction(write=False) as connection:
        rows = await TenantSession(connection, tenant.id).fetch_all(both)
    assert sorted(row["id"] for row in rows) == sorted([tenant.id, other_tenant.id])


def _key_row(name: str, now) -> dict:
    """An api_keys row with id key_scoping; its other unique column differs by name, so
    only the id can conflict."""
    return {
        "id": "key_scoping",
        "name": name,
        "key_hash": token_hash(name),
        "key_hint": "hbk_xxxx",
        "scopes": ["contacts:read"],
        "created_at": now,
        "expires_at": None,
        "revoked_at": None,
    }


async def _stored_key(connection) -> dict:
    row = (await connection.execute(select(api_keys).where(api_keys.c.id == "key_scoping"))).one()
    return row._asdict()


async def test_upsert_and_insert_if_absent_stay_in_the_sessions_workspace(
    runtime, tenant, other_tenant
):
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        mine = TenantSession(connection, tenant.id)
        theirs = TenantSession(connection, other_tenant.id)
        # The row carries the session's workspace, whatever the caller put in it.
        first = {**_key_row("first", now), "workspace_id": other_tenant.id}
        assert await mine.insert_if_absent(api_keys, first, conflict=["id"])
        assert (await _stored_key(connection))["workspace_id"] == tenant.id
        assert not await mine.insert_if_absent(api_keys, _key_row("second", now), conflict=["id"])
        # The conflict target (id) does not name the workspace: another workspace's
        # session still cannot take the row over.
        assert not await theirs.upsert(
            api_keys, _key_row("theirs", now), conflict=["id"], set_={"name": "theirs"}
        )
        assert (await _stored_key(connection))["name"] == "first"
        assert await mine.upsert(
            api_keys, _key_row("mine", now), conflict=["id"], set_={"name": "mine"}
        )
        assert (await _stored_key(connection))["name"] == "mine"
        # The caller's WHERE still holds, beside the workspace's.
        assert not await mine.upsert(
            api_keys,
            _key_row("again", now),
            conflict=["id"],
            set_={"name": "again"},
            where=api_keys.c.name == "nobody",
        )
        assert (await _stored_key(connection))["name"] == "mine"


async def test_the_workspace_row_is_the_sessions_own(runtime, tenant, other_tenant):
    async with runtime.db.transaction() as connection:
        mine = TenantSession(connection, tenant.id)
        theirs = TenantSession(connection, other_tenant.id)
        assert (await mine.workspace())["id"] == tenant.id
        await mine.save_workspace_settings({"reply_window_hours": 2})
        assert (await mine.workspace())["settings"] == {"reply_window_hours": 2}
        assert (await theirs.workspace())["settings"] == {}
