from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.import_match_key import ImportMatchKey
from ..models.import_object import ImportObject
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.import_create_rows_item import ImportCreateRowsItem


T = TypeVar("T", bound="ImportCreate")


@_attrs_define
class ImportCreate:
    """The import's envelope is checked at once (400 naming its members); each row is
    checked by the worker as POST /v1/contacts or POST /v1/leads checks its body, and a
    refused row is a result (GET /v1/imports/{id}/errors), not a 400.

        Attributes:
            object_ (ImportObject):
            rows (list[ImportCreateRowsItem]): 1 to 5000 objects, each the body POST /v1/contacts or POST /v1/leads takes;
                the whole request stays within HOMEBASE_MAX_BODY_BYTES.
            match_on (list[ImportMatchKey] | Unset): Contacts only: how a row finds the contact it updates, in order of
                precedence: `email` (the same address, any case), `phone` (the same E.164 number). A row matching none creates a
                contact; `[]` always creates. Default ["email", "phone"]. Leads are always created, each linked to a contact as
                POST /v1/leads links it (same phone, else same email).
            skip_routing (bool | Unset): Leads only: create every lead without routing it (a row's own skip_routing is
                honoured too). Default: False.
    """

    object_: ImportObject
    rows: list[ImportCreateRowsItem]
    match_on: list[ImportMatchKey] | Unset = UNSET
    skip_routing: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_.value

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        match_on: list[str] | Unset = UNSET
        if not isinstance(self.match_on, Unset):
            match_on = []
            for match_on_item_data in self.match_on:
                match_on_item = match_on_item_data.value
                match_on.append(match_on_item)

        skip_routing = self.skip_routing

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "object": object_,
                "rows": rows,
            }
        )
        if match_on is not UNSET:
            field_dict["match_on"] = match_on
        if skip_routing is not UNSET:
            field_dict["skip_routing"] = skip_routing

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.import_create_rows_item import ImportCreateRowsItem

        d = dict(src_dict)
        object_ = ImportObject(d.pop("object"))

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = ImportCreateRowsItem.from_dict(rows_item_data)

            rows.append(rows_item)

        _match_on = d.pop("match_on", UNSET)
        match_on: list[ImportMatchKey] | Unset = UNSET
        if _match_on is not UNSET:
            match_on = []
            for match_on_item_data in _match_on:
                match_on_item = ImportMatchKey(match_on_item_data)

                match_on.append(match_on_item)

        skip_routing = d.pop("skip_routing", UNSET)

        import_create = cls(
            object_=object_,
            rows=rows,
            match_on=match_on,
            skip_routing=skip_routing,
        )

        return import_create
