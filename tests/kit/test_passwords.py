"""Member passwords: argon2id with OWASP's parameters, one hash per sign-in attempt however
many workspaces the email belongs to, and scrypt hashes accepted then replaced."""

import hashlib
import os

import argon2
import pytest
from sqlalchemy import select, update

from homebase.db.tenancy import TenantSession
from homebase.kit import passwords
from homebase.models import User
from homebase.workspaces import service as workspaces
from tests.console_support import SESSION_COOKIE, browser, sign_in

users = User.__table__
ARGON2_PREFIX = "$argon2id$v=19$m=19456,t=2,p=1$"


@pytest.fixture
def hashes(monkeypatch) -> list[str]:
    """Every password hash computed, counted through the libraries' public functions."""
    calls: list[str] = []

    def counting(name, original):
        def counted(*args, **kwargs):
            calls.append(name)
            return original(*args, **kwargs)

        return counted

    for name in ("hash", "verify"):
        monkeypatch.setattr(
            argon2.PasswordHasher,
            name,
            counting(f"argon2.{name}", getattr(argon2.PasswordHasher, name)),
        )
    monkeypatch.setattr(hashlib, "scrypt", counting("scrypt", hashlib.scrypt))
    return calls


async def add_member(
    runtime, workspace_id: str, password: str, email: str = "agent@example.com"
) -> str:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, workspace_id, clock=runtime.clock)
        row = await workspaces.create_user(session, email=email, name="Agent", password=password)
    return row["id"]


async def stored_hash(runtime, user_id: str) -> str:
    async with runtime.db.transaction(write=False) as connection:
        return (
            await connection.execute(select(users.c.password_hash).where(users.c.id == user_id))
        ).scalar_one()


async def set_hash(runtime, user_id: str, value: str) -> None:
    async with runtime.db.transaction() as connection:
        await connection.execute(
            update(users).where(users.c.id == user_id).values(password_hash=value)
        )


def scrypt_hash(password: str) -> str:
    """A hash as stored before argon2id (the format kit/passwords.py used to write)."""
    salt = os.urandom(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1)
    return f"scrypt${2**14}$8$1${salt.hex()}${digest.hex()}"


async def test_new_passwords_are_argon2id_with_owasp_parameters(app, runtime, tenant):
    user_id = await add_member(runtime, tenant.id, "first password")
    stored = await stored_hash(runtime, user_id)
    assert stored.startswith(ARGON2_PREFIX) and "first password" not in stored
    parameters = argon2.extract_parameters(stored)
    assert (
        parameters.type,
        parameters.memory_cost,
        parameters.time_cost,
        parameters.parallelism,
    ) == (argon2.Type.ID, 19456, 2, 1)
    async with browser(app) as client:
        assert (await sign_in(client, "agent@example.com", "first password")).status_code == 303


async def test_one_hash_per_attempt_however_many_workspaces(
    app, runtime, tenant, other_tenant, make, hashes
):
    third = await make([], name="Third Realty")
    ids = [
        await add_member(runtime, tenant.id, "first password"),
        await add_member(runtime, other_tenant.id, "second password"),
        await add_member(runtime, third.id, "second password"),
    ]
    assert len({(await stored_hash(runtime, id_)).rsplit("$", 2)[1] for id_ in ids}) == 1
    for password, status in (
        ("first password", 303),
        ("second password", 200),
        ("wrong password", 200),
    ):
        async with browser(app) as client:
            hashes.clear()
            response = await sign_in(client, "agent@example.com", password)
            assert response.status_code == status
            assert hashes == ["argon2.hash"], password
            # The first signs in; the second matches two memberships and asks which one.
            assert (SESSION_COOKIE in client.cookies) == (password == "first password")
            assert ("Choose a workspace" in response.text) == (password == "second password")


async def test_an_unknown_email_still_costs_one_hash(app, runtime, tenant, hashes):
    async with browser(app) as client:
        response = await sign_in(client, "nobody@example.com", "anything")
    assert "Incorrect email or password." in response.text
    assert hashes == ["argon2.hash"]


async def test_a_scrypt_hash_signs_in_and_is_replaced_by_argon2id(
    app, runtime, tenant, other_tenant
):
    user_id = await add_member(runtime, tenant.id, "a placeholder password")
    other_id = await add_member(runtime, other_tenant.id, "other password")
    await set_hash(runtime, user_id, scrypt_hash("old password"))
    async with browser(app) as client:
        wrong = await sign_in(client, "agent@example.com", "not it")
        assert "Incorrect email or password." in wrong.text
        assert (await stored_hash(runtime, user_id)).startswith("scrypt$")  # unchanged
        assert (await sign_in(client, "agent@example.com", "old password")).status_code == 303
    stored = await stored_hash(runtime, user_id)
    assert stored.startswith(ARGON2_PREFIX)
    # Rehashed with the salt the email's other membership uses: one hash per attempt again.
    assert passwords.shared_salt([stored]) == passwords.shared_salt(
        [await stored_hash(runtime, other_id)]
    )
    async with browser(app) as client:
        assert (await sign_in(client, "agent@example.com", "old password")).status_code == 303


async def test_an_argon2_hash_with_older_parameters_is_rehashed(app, runtime, tenant):
    user_id = await add_member(runtime, tenant.id, "a placeholder password")
    weaker = argon2.PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    await set_hash(runtime, user_id, weaker.hash("the password"))
    async with browser(app) as client:
        assert (await sign_in(client, "agent@example.com", "the password")).status_code == 303
    assert (await stored_hash(runtime, user_id)).startswith(ARGON2_PREFIX)


def test_verify_all_matches_each_hash_of_a_shared_salt_alone():
    salt = os.urandom(16)
    stored = [
        passwords.hash_password("a", salt),
        passwords.hash_password("b", salt),
        None,
        passwords.hash_password("a"),
        scrypt_hash("a"),
        "garbage",
    ]
    assert passwords.verify_all("a", stored) == [True, False, False, True, True, False]
    assert passwords.verify_all("b", stored) == [False, True, False, False, False, False]
