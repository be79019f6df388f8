from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.leads_import_create_rows_item import LeadsImportCreateRowsItem


T = TypeVar("T", bound="LeadsImportCreate")


@_attrs_define
class LeadsImportCreate:
    """An import of leads (scope leads:write): each row is a POST /v1/leads body, always
    created and linked to a contact as POST /v1/leads links it (same phone, else same
    email). `match_on` is for contacts: refused here.

        Attributes:
            object_ (Literal['leads']): leads (scope leads:write).
            rows (list[LeadsImportCreateRowsItem]): 1 to 5000 objects, each the body POST /v1/leads takes; the whole request
                stays within HOMEBASE_MAX_BODY_BYTES.
            skip_routing (bool | Unset): Create every lead without routing it (a row's own skip_routing is honoured too).
                Default: False.
            first_touch (bool | Unset): Queue the AI's first text for each lead whose consent allows AI outreach, as POST
                /v1/leads does, when the responder persona's first_touch is `text`; spaced at most
                HOMEBASE_AI_FIRST_TOUCH_PER_MINUTE (default 20) a minute per workspace. False (the default): an import texts
                nobody. Default: False.
            dry_run (bool | Unset): Count what the import would do (created, updated, unchanged, refused, warnings,
                unmatchable) and write no record: no contact, lead or event. The dry run runs in the worker like an import, with
                progress, and does not take the workspace's one running import slot. Default: False.
    """

    object_: Literal["leads"]
    rows: list[LeadsImportCreateRowsItem]
    skip_routing: bool | Unset = False
    first_touch: bool | Unset = False
    dry_run: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        skip_routing = self.skip_routing

        first_touch = self.first_touch

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "rows": rows,
            }
        )
        if skip_routing is not UNSET:
            field_dict["skip_routing"] = skip_routing
        if first_touch is not UNSET:
            field_dict["first_touch"] = first_touch
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.leads_import_create_rows_item import LeadsImportCreateRowsItem

        d = dict(src_dict)
        object_ = cast(Literal["leads"], d.pop("object"))
        if object_ != "leads":
            raise ValueError(f"object must match const 'leads', got '{object_}'")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = LeadsImportCreateRowsItem.from_dict(rows_item_data)

            rows.append(rows_item)

        skip_routing = d.pop("skip_routing", UNSET)

        first_touch = d.pop("first_touch", UNSET)

        dry_run = d.pop("dry_run", UNSET)

        leads_import_create = cls(
            object_=object_,
            rows=rows,
            skip_routing=skip_routing,
            first_touch=first_touch,
            dry_run=dry_run,
        )

        return leads_import_create
