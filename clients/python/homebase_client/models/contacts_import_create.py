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

from ..models.import_match_key import ImportMatchKey
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contacts_import_create_rows_item import ContactsImportCreateRowsItem


T = TypeVar("T", bound="ContactsImportCreate")


@_attrs_define
class ContactsImportCreate:
    """An import of contacts (scope contacts:write): each row is a POST /v1/contacts body,
    matched to an existing contact by `match_on`. `skip_routing` is for leads: false or
    left out here.

        Attributes:
            object_ (Literal['contacts']): contacts (scope contacts:write).
            rows (list[ContactsImportCreateRowsItem]): 1 to 5000 objects, each the body POST /v1/contacts takes; the whole
                request stays within HOMEBASE_MAX_BODY_BYTES.
            match_on (list[ImportMatchKey] | Unset): How a row finds the contact it updates, in order of precedence: `email`
                (the same address, any case), `phone` (the same E.164 number). A row matching none creates a contact; `[]`
                always creates. Default ["email", "phone"].
            skip_routing (bool | Unset): Leads only (contacts are not routed): false or left out; true is 400 naming
                skip_routing. Default: False.
    """

    object_: Literal["contacts"]
    rows: list[ContactsImportCreateRowsItem]
    match_on: list[ImportMatchKey] | Unset = UNSET
    skip_routing: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        object_ = self.object_

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
        from ..models.contacts_import_create_rows_item import (
            ContactsImportCreateRowsItem,
        )

        d = dict(src_dict)
        object_ = cast(Literal["contacts"], d.pop("object"))
        if object_ != "contacts":
            raise ValueError(f"object must match const 'contacts', got '{object_}'")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = ContactsImportCreateRowsItem.from_dict(rows_item_data)

            rows.append(rows_item)

        _match_on = d.pop("match_on", UNSET)
        match_on: list[ImportMatchKey] | Unset = UNSET
        if _match_on is not UNSET:
            match_on = []
            for match_on_item_data in _match_on:
                match_on_item = ImportMatchKey(match_on_item_data)

                match_on.append(match_on_item)

        skip_routing = d.pop("skip_routing", UNSET)

        contacts_import_create = cls(
            object_=object_,
            rows=rows,
            match_on=match_on,
            skip_routing=skip_routing,
        )

        return contacts_import_create
