"""The lean peer `--peer` measures the service against: the least a FastAPI service on
PostgreSQL and Redis does for the same three requests, written plainly with FastAPI,
asyncpg and redis-py and nothing of homebase.

Every request looks its credential up in PostgreSQL (the `api_keys` row of the
`Authorization: token ...` header's SHA-256; revoked or expired: 401) and counts it with
a Redis INCR of the key's one-minute window. Then:

- GET /v1/ping: what the credential resolves to.
- GET /v1/contacts?limit=50[&cursor=...]: a keyset page of the workspace's contacts in id
  order, email and phone masked (the first character and the domain of an email, a
  phone's last four digits), `next_cursor` the last id when there is more.
- POST /v1/contacts: the JSON body validated by pydantic, the contact and its
  `contact.created` outbox row inserted in one transaction, 201 with the contact.

It serves the bench's own database and keys (HOMEBASE_DATABASE_URL, HOMEBASE_REDIS_URL),
one uvicorn worker, as `homebase serve` is served. It stays as written: it is the fixed
point the service's figures are compared with.
"""

import hashlib
import os
import secrets
import time
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import asyncpg
import orjson
import redis.asyncio as redis
from fastapi import FastAPI, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

DATABASE_URL = os.environ["HOMEBASE_DATABASE_URL"].replace("+asyncpg", "")
REDIS_URL = os.environ.get("HOMEBASE_REDIS_URL", "redis://127.0.0.1:6379/14")
LIMIT_PER_MINUTE = int(os.environ.get("HOMEBASE_RATE_LIMIT_API_KEY_PER_MIN", "120"))
CONTACT_COLUMNS = (
    "id, first_name, last_name, email, phone, stage, source, tags, created_at, updated_at"
)
pool: asyncpg.Pool
counter: redis.Redis


@asynccontextmanager
async def lifespan(_app: FastAPI):  # type: ignore[no-untyped-def]
    global pool, counter
    pool = await asyncpg.create_pool(DATABASE_URL, min_size=4, max_size=10, init=_codecs)
    counter = redis.Redis.from_url(REDIS_URL)
    yield
    await pool.close()
    await counter.aclose()


async def _codecs(connection: asyncpg.Connection) -> None:
    for name in ("json", "jsonb"):
        await connection.set_type_codec(
            name,
            encoder=lambda v: orjson.dumps(v).decode(),
            decoder=orjson.loads,
            schema="pg_catalog",
        )


app = FastAPI(lifespan=lifespan)


def _json(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status_code=status, media_type="application/json")


class Refused(Exception):
    def __init__(self, status: int, message: str):
        self.status, self.message = status, message


@app.exception_handler(Refused)
async def refused(_request: Request, error: Refused) -> Response:
    return _json({"error": {"message": error.message}}, error.status)


async def _credential(request: Request, connection: asyncpg.Connection) -> asyncpg.Record:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "token" or not token:
        raise Refused(401, "A credential is required.")
    row = await connection.fetchrow(
        "SELECT id, workspace_id, scopes, expires_at, revoked_at FROM api_keys WHERE key_hash = $1",
        hashlib.sha256(token.encode()).hexdigest(),
    )
    if row is None or row["revoked_at"] is not None:
        raise Refused(401, "Invalid API key.")
    if row["expires_at"] is not None and row["expires_at"] <= datetime.now(UTC):
        raise Refused(401, "This API key has expired.")
    window = int(time.time() // 60)
    count = await counter.incr(f"rl:key:{row['id']}:peer:{window}")
    if count == 1:
        await counter.expire(f"rl:key:{row['id']}:peer:{window}", 120)
    if count > LIMIT_PER_MINUTE:
        raise Refused(429, "Rate limit exceeded.")
    return row


def _mask_email(email: str | None) -> str | None:
    if not email or "@" not in email:
        return email
    local, _, domain = email.partition("@")
    return f"{local[:1]}***@{domain}"


def _mask_phone(phone: str | None) -> str | None:
    if not phone:
        return phone
    return "".join("*" if c.isdigit() else c for c in phone[:-4]) + phone[-4:]


def _contact(row: asyncpg.Record) -> dict[str, Any]:
    return {
        "id": row["id"],
        "first_name": row["first_name"],
        "last_name": row["last_name"],
        "email": _mask_email(row["email"]),
        "phone": _mask_phone(row["phone"]),
        "stage": row["stage"],
        "source": row["source"],
        "tags": row["tags"],
        "created_at": row["created_at"].isoformat(),
        "updated_at": row["updated_at"].isoformat(),
    }


@app.get("/v1/ping")
async def ping(request: Request) -> Response:
    async with pool.acquire() as connection:
        key = await _credential(request, connection)
    return _json(
        {
            "ok": True,
            "tenant_id": key["workspace_id"],
            "credential_id": key["id"],
            "scopes": key["scopes"],
        }
    )


@app.get("/v1/contacts")
async def list_contacts(request: Request, limit: int = 50, cursor: str = "") -> Response:
    if not 1 <= limit <= 200:
        raise Refused(400, "limit must be 1-200.")
    async with pool.acquire() as connection:
        key = await _credential(request, connection)
        rows = await connection.fetch(
            f"SELECT {CONTACT_COLUMNS} FROM contacts WHERE workspace_id = $1 AND id > $2"
            " ORDER BY id LIMIT $3",
            key["workspace_id"],
            cursor,
            limit + 1,
        )
    page = [_contact(row) for row in rows[:limit]]
    more = len(rows) > limit
    return _json({"data": page, "has_more": more, "next_cursor": page[-1]["id"] if more else None})


class NewContact(BaseModel):
    model_config = ConfigDict(extra="forbid")
    first_name: str | None = Field(None, max_length=80)
    last_name: str | None = Field(None, max_length=80)
    email: str | None = Field(None, max_length=254)
    phone: str | None = Field(None, max_length=32)
    stage: str = Field("NEW", max_length=16)
    source: str | None = Field(None, max_length=80)
    tags: list[str] = Field(default_factory=list, max_length=50)


@app.post("/v1/contacts", status_code=201)
async def create_contact(request: Request, body: NewContact) -> Response:
    now = datetime.now(UTC)
    contact_id = "con_" + secrets.token_hex(13)
    async with pool.acquire() as connection:
        key = await _credential(request, connection)
        async with connection.transaction():
            await connection.execute(
                "INSERT INTO contacts (id, workspace_id, first_name, last_name, email,"
                " email_lower, phone, phone_e164, stage, source, tags, created_at, updated_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)",
                contact_id,
                key["workspace_id"],
                body.first_name,
                body.last_name,
                body.email,
                body.email.lower() if body.email else None,
                body.phone,
                "+" + "".join(c for c in body.phone if c.isdigit()) if body.phone else None,
                body.stage,
                body.source,
                body.tags,
                now,
            )
            contact = {"id": contact_id, **body.model_dump(), "created_at": now, "updated_at": now}
            await connection.execute(
                "INSERT INTO outbox_events (id, workspace_id, type, data, occurred_at,"
                " contact_id) VALUES ($1, $2, 'contact.created', $3, $4, $5)",
                "evt_" + secrets.token_hex(13),
                key["workspace_id"],
                {
                    **contact,
                    "email": _mask_email(body.email),
                    "phone": _mask_phone(body.phone),
                    "created_at": now.isoformat(),
                    "updated_at": now.isoformat(),
                },
                now,
                contact_id,
            )
    return _json(_contact(contact), 201)
