"""Member sessions for the console and the OAuth consent screen, and their CSRF tokens.

The cookie `hb_session` holds `hbs_` + 40 random characters; the console_sessions table
keeps only its SHA-256. A session ends at the first of: sign-out, IDLE_TIMEOUT without a
request, ABSOLUTE_LIFETIME after sign-in (docs/console.md).

CSRF: every state-changing form carries `csrf_token` = HMAC(service secret, session id),
compared in constant time; a cross-site POST cannot know it. Before sign-in the same is
done against a random pre-session cookie (`hb_login`), so a site cannot sign a victim in
to the attacker's account either.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import quote, urlsplit

from sqlalchemy import insert, select, update
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from homebase.http.pages import ConsolePageError
from homebase.kit.crypto import keyed_token, keyed_token_matches, random_token, token_hash
from homebase.kit.ids import new_id
from homebase.kit.statements import AnyRow
from homebase.models import ConsoleSession, User
from homebase.runtime import Runtime, get_runtime

SESSION_COOKIE = "hb_session"
LOGIN_COOKIE = "hb_login"
SESSION_PREFIX = "hbs_"
CSRF_FIELD = "csrf_token"
LOGIN_PATH = "/console/login"
IDLE_TIMEOUT = timedelta(hours=2)
ABSOLUTE_LIFETIME = timedelta(hours=12)
# last_seen_at is written at most this often, so browsing stays read-only.
TOUCH_INTERVAL = timedelta(minutes=1)
_MAX_COOKIE_LENGTH = 100

console_sessions = ConsoleSession.__table__
users = User.__table__


@dataclass(frozen=True)
class Member:
    user_id: str
    workspace_id: str
    email: str
    name: str
    session_id: str


class CsrfRefused(ConsolePageError):
    def __init__(self) -> None:
        super().__init__(
            403,
            "Request refused",
            "This form has expired or did not come from this site. Go back, "
            "reload the page and try again.",
        )


def secure_cookies(runtime: Runtime) -> bool:
    return runtime.settings.public_url.lower().startswith("https://")


def _usable(row: AnyRow, now: datetime) -> bool:
    return row.revoked_at is None and row.expires_at > now and row.last_seen_at + IDLE_TIMEOUT > now


# A removed member's sessions are revoked by the removal; this is a second guard.
_CURRENT = (
    select(
        console_sessions.c.id,
        console_sessions.c.user_id,
        console_sessions.c.workspace_id,
        console_sessions.c.expires_at,
        console_sessions.c.last_seen_at,
        console_sessions.c.revoked_at,
        users.c.email,
        users.c.name,
    )
    .join(users, users.c.id == console_sessions.c.user_id)
    .where(users.c.removed_at.is_(None))
)


async def current_member(request: Request) -> Member | None:
    """The signed-in member, or None (no cookie, unknown, expired, idle or revoked)."""
    state = request.scope.setdefault("state", {})
    if "console_member" in state:  # resolved once per request
        resolved: Member | None = state["console_member"]
        return resolved
    member = await _resolve(request)
    state["console_member"] = member
    return member


async def _resolve(request: Request) -> Member | None:
    token = request.cookies.get(SESSION_COOKIE, "")
    if not token.startswith(SESSION_PREFIX) or len(token) > _MAX_COOKIE_LENGTH:
        return None
    runtime = get_runtime(request)
    now = runtime.clock()
    async with runtime.db.transaction(write=False) as connection:
        row = (
            await connection.execute(
                _CURRENT.where(console_sessions.c.token_hash == token_hash(token))
            )
        ).first()
    if row is None or not _usable(row, now):
        return None
    if now - row.last_seen_at >= TOUCH_INTERVAL:
        async with runtime.db.transaction() as connection:
            await connection.execute(
                update(console_sessions)
                .where(console_sessions.c.id == row.id)
                .values(last_seen_at=now)
            )
    return Member(
        user_id=row.user_id,
        workspace_id=row.workspace_id,
        email=row.email,
        name=row.name,
        session_id=row.id,
    )


async def open_session(runtime: Runtime, user_id: str) -> str:
    """A new session for the member; returns the cookie value."""
    token = random_token(SESSION_PREFIX)
    now = runtime.clock()
    async with runtime.db.transaction() as connection:
        workspace_id = (
            await connection.execute(select(users.c.workspace_id).where(users.c.id == user_id))
        ).scalar_one()
        await connection.execute(
            insert(console_sessions),
            {
                "id": new_id("cse"),
                "workspace_id": workspace_id,
                "user_id": user_id,
                "token_hash": token_hash(token),
                "created_at": now,
                "last_seen_at": now,
                "expires_at": now + ABSOLUTE_LIFETIME,
                "revoked_at": None,
            },
        )
    return token


async def close_session(runtime: Runtime, member: Member) -> None:
    async with runtime.db.transaction() as connection:
        await connection.execute(
            update(console_sessions)
            .where(
                console_sessions.c.id == member.session_id, console_sessions.c.revoked_at.is_(None)
            )
            .values(revoked_at=runtime.clock())
        )


def set_session_cookie(response: Response, runtime: Runtime, token: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(ABSOLUTE_LIFETIME.total_seconds()),
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure_cookies(runtime),
    )


def clear_session_cookie(response: Response, runtime: Runtime) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=secure_cookies(runtime)
    )


def safe_next(next_url: str | None, default: str = "/console") -> str:
    """Only a local path: starts with "/", not "//" or "/\\", no scheme or host, no
    control characters (browsers strip tabs and newlines, which could rebuild "//")."""
    if not next_url or not next_url.startswith("/") or next_url[1:2] in ("/", "\\"):
        return default
    if any(ord(char) < 0x20 or char == "\x7f" for char in next_url):
        return default
    parts = urlsplit(next_url)
    if parts.scheme or parts.netloc:
        return default
    return next_url


def login_redirect(next_url: str) -> RedirectResponse:
    target = safe_next(next_url)
    return RedirectResponse(f"{LOGIN_PATH}?next={quote(target, safe='')}", status_code=303)


def request_target(request: Request) -> str:
    """This request's local path and query, for login_redirect."""
    query = request.url.query
    return request.url.path + (f"?{query}" if query else "")


def _mac(request: Request, purpose: str, value: str) -> str:
    return keyed_token(get_runtime(request).settings.keys, purpose, value)


def _mac_matches(request: Request, purpose: str, value: str, submitted: str) -> bool:
    """Under the current key or the previous one: forms shown before a key change still post."""
    return keyed_token_matches(get_runtime(request).settings.keys, purpose, value, submitted)


def csrf_token(request: Request, member: Member) -> str:
    return _mac(request, "console-csrf", member.session_id)


def check_csrf(request: Request, member: Member, submitted: str | None) -> None:
    if not submitted or not _mac_matches(request, "console-csrf", member.session_id, submitted):
        raise CsrfRefused()
    check_origin(request)


def check_origin(request: Request) -> None:
    """Defence in depth beside the token: a browser's Origin on a POST must be ours.
    "null" is let through: our pages send Referrer-Policy no-referrer, under which
    Chromium sends `Origin: null` on their own form posts (the token still decides)."""
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return
    allowed = {
        _origin_of(get_runtime(request).settings.public_url),
        _origin_of(str(request.base_url)),
    }
    if origin.rstrip("/").lower() not in allowed:
        raise CsrfRefused()


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def login_csrf_token(request: Request, login_nonce: str) -> str:
    return _mac(request, "console-login-csrf", login_nonce)


def check_login_csrf(request: Request, submitted: str | None) -> None:
    nonce = request.cookies.get(LOGIN_COOKIE, "")
    if not nonce or len(nonce) > _MAX_COOKIE_LENGTH or not submitted:
        raise CsrfRefused()
    if not _mac_matches(request, "console-login-csrf", nonce, submitted):
        raise CsrfRefused()
    check_origin(request)


def new_login_nonce() -> str:
    return random_token("", 32)


def set_login_cookie(response: Response, runtime: Runtime, nonce: str) -> None:
    response.set_cookie(
        LOGIN_COOKIE,
        nonce,
        max_age=3600,
        path=LOGIN_PATH,
        httponly=True,
        samesite="lax",
        secure=secure_cookies(runtime),
    )
