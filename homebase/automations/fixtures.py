"""load-fixtures kinds `personas`, `automations` and `campaigns` (docs/fixtures.md).

Items name each other by ref ("persona": "ava") or by id; an invalid definition (an
unknown step type, a persona that does not use the step's channel, an unknown
placeholder, a member who is not in the workspace) is refused with the item's path."""

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from sqlalchemy import Table

from homebase.automations import repository
from homebase.automations.schemas import CampaignStatus
from homebase.automations.steps import ChannelName, Steps
from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs, resolve_ref
from homebase.kit.errors import AdminError
from homebase.kit.ids import new_id
from homebase.workspaces import references

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]


class PersonaFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
    tone: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
    channels: Annotated[list[ChannelName], Field(min_length=1, max_length=3)]
    signature: Annotated[str, StringConstraints(max_length=300)] | None = None


class AutomationFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    description: Annotated[str, StringConstraints(max_length=500)] | None = None
    enabled: bool = True
    steps: Steps


class CampaignFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Name
    persona_id: str | None = None
    automation_id: str | None = None
    status: CampaignStatus = CampaignStatus.draft
    audience: Annotated[str, StringConstraints(max_length=500)] | None = None


def _stamp(session: TenantSession, prefix: str, values: dict[str, Any]) -> dict[str, Any]:
    now = session.now()
    return {"id": new_id(prefix), **values, "created_at": now, "updated_at": now}


async def _must_exist(session: TenantSession, table: Table, row_id: str | None, what: str) -> None:
    if row_id is not None and await repository.get(session, table, row_id) is None:
        raise AdminError(f"{what}: no {what} '{row_id}' in this workspace")


async def load_persona(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    data = PersonaFixture.model_validate(item)
    channels = list(dict.fromkeys(channel.value for channel in data.channels))
    row = _stamp(session, "prs", {**data.model_dump(), "channels": channels})
    await repository.insert(session, repository.personas, row)
    row_id: str = row["id"]
    return row_id


async def _resolve_steps(session: TenantSession, raw_steps: Any, refs: Refs) -> Any:
    """Refs to ids in the raw steps (persona, assignee) before validation."""
    if not isinstance(raw_steps, list):
        return raw_steps
    resolved = []
    for raw in raw_steps:
        step = dict(raw) if isinstance(raw, dict) else raw
        if isinstance(step, dict):
            if "persona" in step:
                step["persona_id"] = resolve_ref(refs, step.pop("persona"), "persona")
            if "assignee" in step:
                step["assignee_id"] = resolve_ref(refs, step.pop("assignee"), "assignee")
        resolved.append(step)
    return resolved


async def _check_steps(session: TenantSession, data: AutomationFixture) -> None:
    for index, step in enumerate(data.steps):
        where = f"steps.{index}"
        if step.type == "send_message":
            persona = await repository.get(session, repository.personas, step.persona_id)
            if persona is None:
                raise AdminError(
                    f"{where}.persona: no persona '{step.persona_id}' in this workspace"
                )
            if step.channel.value not in persona["channels"]:
                raise AdminError(
                    f"{where}.channel: persona {persona['name']} does not use "
                    f"{step.channel.value} (it uses {', '.join(persona['channels'])})"
                )
        if (
            step.type == "create_task"
            and step.assignee_id is not None
            and not await references.member_exists(session, step.assignee_id)
        ):
            raise AdminError(
                f"{where}.assignee: '{step.assignee_id}' is not a member of this workspace"
            )


async def load_automation(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    item["steps"] = await _resolve_steps(session, item.get("steps"), refs)
    data = AutomationFixture.model_validate(item)
    await _check_steps(session, data)
    row = _stamp(session, "aut", {**data.model_dump(mode="json")})
    await repository.insert(session, repository.automations, row)
    row_id: str = row["id"]
    return row_id


async def load_campaign(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    for name in ("persona", "automation"):
        if name in item:
            item[f"{name}_id"] = resolve_ref(refs, item.pop(name), name)
    data = CampaignFixture.model_validate(item)
    await _must_exist(session, repository.personas, data.persona_id, "persona")
    await _must_exist(session, repository.automations, data.automation_id, "automation")
    row = _stamp(session, "cmp", data.model_dump(mode="json"))
    await repository.insert(session, repository.campaigns, row)
    row_id: str = row["id"]
    return row_id
