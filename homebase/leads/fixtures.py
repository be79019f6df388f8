"""load-fixtures kinds of the leads area: workspace_settings, offices, teams,
routing_rules and leads (documented in docs/fixtures.md)."""

from pydantic import BaseModel, ConfigDict

from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs, resolve_ref
from homebase.kit.errors import AdminError, ValidationFailed
from homebase.kit.wire import JsonObject
from homebase.leads import service as leads
from homebase.leads.schemas import LeadCreate
from homebase.routing.policy import update_lead_policy
from homebase.routing.rules import create_rule
from homebase.routing.schemas import RuleSpec
from homebase.workspaces import organization, time_zone


class _Named(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ref: str | None = None
    id: str | None = None
    name: str | None = None
    office: str | None = None  # teams only


async def load_workspace_settings(session: TenantSession, item: JsonObject, refs: Refs) -> str:
    zone = item.pop(time_zone.KEY, None)
    if zone is not None:
        await time_zone.set_time_zone(session, str(zone))
    await update_lead_policy(session, item)
    return session.workspace_id


async def load_office(session: TenantSession, item: JsonObject, refs: Refs) -> str:
    spec = _Named.model_validate(item)
    if spec.office is not None:
        raise AdminError("office: offices do not belong to an office")
    row = await organization.create_office(session, name=spec.name, office_id=spec.id)
    row_id: str = row["id"]
    return row_id


async def load_team(session: TenantSession, item: JsonObject, refs: Refs) -> str:
    spec = _Named.model_validate(item)
    row = await organization.create_team(
        session, name=spec.name, team_id=spec.id, office_id=resolve_ref(refs, spec.office, "office")
    )
    row_id: str = row["id"]
    return row_id


async def load_routing_rule(session: TenantSession, item: JsonObject, refs: Refs) -> str:
    spec = RuleSpec.model_validate(item)
    row = await create_rule(session, spec, lambda value, what: resolve_ref(refs, value, what))
    row_id: str = row["id"]
    return row_id


async def load_lead(session: TenantSession, item: JsonObject, refs: Refs) -> str:
    """A lead as POST /leads takes it, plus "ref" and "assignee" (a member to hand it to
    instead of routing it)."""
    item.pop("ref", None)
    assignee = resolve_ref(refs, item.pop("assignee", None), "assignee")
    if assignee is not None:
        item["skip_routing"] = True
    data = LeadCreate.model_validate(item)
    row = await leads.create_lead(session, data)
    if assignee is not None:
        try:
            await leads.assign_lead(session, row["id"], assignee_id=assignee)
        except ValidationFailed as error:
            raise AdminError("assignee: is not a member of this workspace") from error
    row_id: str = row["id"]
    return row_id
