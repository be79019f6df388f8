"""load-fixtures kind `dnc_registry` (docs/fixtures.md): the workspace's extract of the
National Do Not Call Registry, a number and when it was registered per item. Loaded, never
looked up over the network; a campaign does not reach a number on it unless the
number's consent artifact is newer than the registration (campaign_rules.py)."""

from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, StringConstraints

from homebase.automations import campaign_repository
from homebase.automations.records import DncRegistrationRecord
from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs
from homebase.kit.ids import new_id
from homebase.kit.phones import to_e164


def _e164(value: str) -> str:
    number = to_e164(value)
    if number is None:
        raise ValueError("is not a phone number (E.164, e.g. +14155550100)")
    return number


class DncFixture(BaseModel):
    model_config = ConfigDict(extra="forbid")

    phone: Annotated[str, StringConstraints(max_length=64), AfterValidator(_e164)]
    # The extract gives a day; a time is taken as given (UTC when it names no zone).
    registered_at: datetime | date


def _moment(value: datetime | date) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    return datetime(value.year, value.month, value.day, tzinfo=UTC)


async def load_dnc_registration(
    session: TenantSession, item: Mapping[str, object], refs: Refs
) -> str:
    data = DncFixture.model_validate({key: value for key, value in item.items() if key != "ref"})
    row: DncRegistrationRecord = {
        "id": new_id("dnc"),
        "phone_e164": data.phone,
        "registered_at": _moment(data.registered_at),
        "loaded_at": session.now(),
    }
    await campaign_repository.upsert_dnc(session, row)
    return row["id"]
