"""Member rows to wire payloads; the email is masked as contacts' are."""

from collections.abc import Callable, Set

from homebase.kit.clock import isoformat
from homebase.kit.masking import mask_email, mask_phone
from homebase.members.records import MemberRecord
from homebase.members.schemas import WorkspaceMember


def member(row: MemberRecord, *, pii: bool, routed: Set[str]) -> WorkspaceMember:
    """`routed`: the ids of the members routing can give leads (routing.service.routed_members)."""
    removed_at = row["removed_at"]
    return {
        "id": row["id"],
        "name": row["name"],
        "email": row["email"] if pii else mask_email(row["email"]),
        "pii_masked": not pii,
        "office_id": row["office_id"],
        "team_id": row["team_id"],
        "phone": row["phone"] if pii else mask_phone(row["phone"]),
        "takes_leads": removed_at is None and row["id"] in routed,
        "removed": removed_at is not None,
        "removed_at": isoformat(removed_at),
        "created_at": isoformat(row["created_at"]),
    }


def members(*, pii: bool, routed: Set[str]) -> Callable[[MemberRecord], WorkspaceMember]:
    return lambda row: member(row, pii=pii, routed=routed)
