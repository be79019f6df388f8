"""A workspace's lead policy (consent validity, routing windows) and its default phone
region (how a number written without a country code is read): kept in the workspace
row's `settings` JSON column, with their defaults. Not the process's settings
(config.Settings, HOMEBASE_*) nor the messaging send policy kept in the same column
(messaging/send_policy.py).

Documented in docs/leads.md; set with the `workspace_settings` fixture kind (the region
also on the console's home page, console/home.py), through
routing/policy.py (routing caches the policy, and a write drops that copy).
"""

import time
from typing import Annotated, Any

import phonenumbers
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from homebase.db.tenancy import TenantSession
from homebase.kit.phones import DEFAULT_REGION


def known_region(value: str) -> str:
    """An ISO 3166 region code phonenumbers knows (any case; kept upper case)."""
    region = value.strip().upper()
    if region not in phonenumbers.SUPPORTED_REGIONS:
        raise ValueError("is not a region code phone numbers are known for (ISO 3166, e.g. US)")
    return region


Region = Annotated[str, AfterValidator(known_region)]


class LeadPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Express written consent has no statutory expiry, but stale web-form consent is the
    # usual TCPA litigation target; a year is the common industry cut-off.
    consent_validity_days: int = Field(365, ge=1, le=3650)
    # "First available" counts each candidate's leads assigned within this window.
    first_available_window_hours: int = Field(24, ge=1, le=24 * 90)
    # How contacts' and leads' numbers written without a country code are read (their
    # phone_e164, the validity warning, a search by number).
    default_phone_region: Region = DEFAULT_REGION


async def stored_settings(session: TenantSession) -> dict[str, Any]:
    """Every setting the session's workspace stores (these and messaging's)."""
    row = await session.workspace()
    return (row["settings"] if row else None) or {}


async def lead_policy(session: TenantSession) -> LeadPolicy:
    stored = await stored_settings(session)
    known = {key: value for key, value in stored.items() if key in LeadPolicy.model_fields}
    return LeadPolicy.model_validate(known)


# The region is read by every contact and lead write, so it is kept per workspace for as
# long as routing keeps its inputs (routing/cache.py): a change through
# routing/policy.update_lead_policy drops this process's copy, another process sees it
# within REGION_TTL_SECONDS.
REGION_TTL_SECONDS = 2.0
_regions: dict[str, tuple[str, float]] = {}


async def phone_region(session: TenantSession) -> str:
    """The workspace's default_phone_region (US unless set)."""
    cached = _regions.get(session.workspace_id)
    now = time.monotonic()
    if cached is not None and now - cached[1] < REGION_TTL_SECONDS:
        return cached[0]
    stored = (await stored_settings(session)).get("default_phone_region")
    known = isinstance(stored, str) and stored in phonenumbers.SUPPORTED_REGIONS
    region = stored if known and isinstance(stored, str) else DEFAULT_REGION
    if len(_regions) >= 4096:
        _regions.clear()
    _regions[session.workspace_id] = (region, now)
    return region


def forget_phone_region(workspace_id: str) -> None:
    _regions.pop(workspace_id, None)
