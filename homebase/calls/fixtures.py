"""load-fixtures kind `calls` (docs/fixtures.md)."""

from typing import Any

from homebase.calls import recordings, service
from homebase.calls.schemas import CallFixture
from homebase.config import get_settings
from homebase.db.tenancy import TenantSession
from homebase.fixtures.refs import Refs, resolve_ref
from homebase.kit.ids import new_id


# `item`: a fixture file's JSON object, checked by CallDetails (a boundary)
async def load_call(session: TenantSession, item: dict[str, Any], refs: Refs) -> str:
    item.pop("ref", None)
    for name, column in (("contact", "contact_id"), ("user", "user_id")):
        if name in item:
            item[column] = resolve_ref(refs, item.pop(name), name)
    data = CallFixture.model_validate(item)
    if data.recording_tone_seconds is not None:
        # A generated tone stands in for real audio, so demo links play something.
        key = f"fixtures/{session.workspace_id}/{new_id('rec')}.wav"
        await recordings.write_tone(get_settings().recordings_dir, key, data.recording_tone_seconds)
        data = data.model_copy(update={"recording_key": key})
    row = await service.record_call(session, data, provider_call_id=data.provider_call_id)
    row_id: str = row["id"]
    return row_id
