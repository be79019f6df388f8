"""load-fixtures kind `custom_fields` (docs/fixtures.md): a custom field of contacts or
deals, as POST /v1/custom-fields takes it (the demo's qualification fields)."""

from collections.abc import Mapping

from homebase.custom_fields import service
from homebase.custom_fields.schemas import CustomFieldCreate
from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs


async def load_custom_field(session: TenantSession, item: Mapping[str, object], refs: Refs) -> str:
    # Read only, to validate: the fixture's item as JSON, its `ref` left out.
    body = {key: value for key, value in item.items() if key != "ref"}
    row = await service.create_field(session, CustomFieldCreate.model_validate(body).root)
    row_id: str = row["id"]
    return row_id
