"""Offices and teams: where members sit, and what routing rules can target."""

from typing import Any

from sqlalchemy import Table

from homebase.db.tenancy import TenantSession
from homebase.kit.errors import AdminError
from homebase.kit.ids import new_id
from homebase.models import Office, Team

offices = Office.__table__
teams = Team.__table__


def _name(name: str | None, fallback: str) -> str:
    name = (name or "").strip() or fallback
    if len(name) > 120:
        raise AdminError("name must be at most 120 characters")
    return name


def _given_id(object_id: str | None, prefix: str) -> str:
    if object_id is None:
        return new_id(prefix)
    object_id = object_id.strip()
    if not object_id or len(object_id) > 40:
        raise AdminError("id must be 1 to 40 characters")
    return object_id


async def get(session: TenantSession, table: Table, object_id: str) -> dict[str, Any] | None:
    return await session.fetch_one(session.select(table).where(table.c.id == object_id))


async def create_office(
    session: TenantSession, *, name: str | None, office_id: str | None = None
) -> dict[str, Any]:
    row: dict[str, Any] = {"id": _given_id(office_id, "off"), "created_at": session.now()}
    row["name"] = _name(name, row["id"])
    if await get(session, offices, row["id"]):
        raise AdminError(f"office {row['id']} already exists")
    await session.insert(offices, row)
    return row


async def create_team(
    session: TenantSession,
    *,
    name: str | None,
    office_id: str | None = None,
    team_id: str | None = None,
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "id": _given_id(team_id, "team"),
        "office_id": office_id,
        "created_at": session.now(),
    }
    row["name"] = _name(name, row["id"])
    if office_id is not None and not await get(session, offices, office_id):
        raise AdminError(f"no office {office_id} in this workspace")
    if await get(session, teams, row["id"]):
        raise AdminError(f"team {row['id']} already exists")
    await session.insert(teams, row)
    return row


async def ensure(session: TenantSession, office_id: str | None, team_id: str | None) -> None:
    """create-user --office/--team: an id not seen before creates that office or team
    (named after its id), so members can be placed before anyone names the branches."""
    if office_id is not None and not await get(session, offices, office_id):
        await create_office(session, name=None, office_id=office_id)
    if team_id is not None and not await get(session, teams, team_id):
        await create_team(session, name=None, office_id=office_id, team_id=team_id)
