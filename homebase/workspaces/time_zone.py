"""A workspace's time zone (`time_zone`, an IANA name, default America/New_York): kept in
the workspace row's `settings` JSON column. Showing hours and the AI's sense of "today"
are read in it (docs/ai.md). Set by `homebase admin set-workspace-time-zone` and by the
`workspace_settings` fixture kind."""

from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from homebase.db.tenancy import TenantSession
from homebase.kit.errors import ValidationFailed
from homebase.workspaces.lead_policy import stored_settings

DEFAULT = "America/New_York"
KEY = "time_zone"


def checked(name: str) -> str:
    """The IANA name, or ValidationFailed naming `time_zone` (an abbreviation, an offset
    or an unknown name is refused: showing hours need the zone's rules)."""
    if name not in available_timezones():
        raise ValidationFailed.for_field(KEY, f"'{name[:64]}' is not an IANA time zone name")
    return name


async def time_zone(session: TenantSession) -> ZoneInfo:
    stored = (await stored_settings(session)).get(KEY)
    try:
        return ZoneInfo(stored) if isinstance(stored, str) else ZoneInfo(DEFAULT)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT)


async def set_time_zone(session: TenantSession, name: str) -> str:
    stored = await stored_settings(session)
    await session.save_workspace_settings({**stored, KEY: checked(name)})
    return name
