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
from ..models.invalid_cell import InvalidCell
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.contacts_import_create_rows_item import ContactsImportCreateRowsItem
    from ..models.contacts_import_create_value_map import ContactsImportCreateValueMap


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
                (the same address, any case), `phone` (the same E.164 number), `name` (the same first and last name, any case,
                and the same owner; off by default). A row matching none creates a contact, and rows of the file that share a
                key merge into that one contact (later non-empty values win). A row carrying none of the keys is counted
                `unmatchable`; `[]` always creates. Default ["email", "phone"].
            value_map (ContactsImportCreateValueMap | Unset): Values to replace before a row is checked: `{field: {value as
                found: value or null}}`, a field being `stage`, `owner_id` or `custom_fields.<key>`. A found value matches
                exactly, else ignoring case and surrounding spaces; null leaves the member out of the row. An `owner_id` that is
                no member's id is also looked up as a member's email (any case) or full name (when exactly one member has it).
                At most 1000 values a field.
            on_invalid_cell (InvalidCell | Unset): What a row's invalid value the import may leave out does to the row.
            dry_run (bool | Unset): Count what the import would do (created, updated, unchanged, refused, warnings,
                unmatchable) and write no record: no contact, lead or event. The dry run runs in the worker like an import, with
                progress, and does not take the workspace's one running import slot. Default: False.
            skip_routing (bool | Unset): Leads only (contacts are not routed): false or left out; true is 400 naming
                skip_routing. Default: False.
    """

    object_: Literal["contacts"]
    rows: list[ContactsImportCreateRowsItem]
    match_on: list[ImportMatchKey] | Unset = UNSET
    value_map: ContactsImportCreateValueMap | Unset = UNSET
    on_invalid_cell: InvalidCell | Unset = UNSET
    dry_run: bool | Unset = False
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

        value_map: dict[str, Any] | Unset = UNSET
        if not isinstance(self.value_map, Unset):
            value_map = self.value_map.to_dict()

        on_invalid_cell: str | Unset = UNSET
        if not isinstance(self.on_invalid_cell, Unset):
            on_invalid_cell = self.on_invalid_cell.value

        dry_run = self.dry_run

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
        if value_map is not UNSET:
            field_dict["value_map"] = value_map
        if on_invalid_cell is not UNSET:
            field_dict["on_invalid_cell"] = on_invalid_cell
        if dry_run is not UNSET:
            field_dict["dry_run"] = dry_run
        if skip_routing is not UNSET:
            field_dict["skip_routing"] = skip_routing

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.contacts_import_create_rows_item import (
            ContactsImportCreateRowsItem,
        )
        from ..models.contacts_import_create_value_map import (
            ContactsImportCreateValueMap,
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

        _value_map = d.pop("value_map", UNSET)
        value_map: ContactsImportCreateValueMap | Unset
        if isinstance(_value_map, Unset):
            value_map = UNSET
        else:
            value_map = ContactsImportCreateValueMap.from_dict(_value_map)

        _on_invalid_cell = d.pop("on_invalid_cell", UNSET)
        on_invalid_cell: InvalidCell | Unset
        if isinstance(_on_invalid_cell, Unset):
            on_invalid_cell = UNSET
        else:
            on_invalid_cell = InvalidCell(_on_invalid_cell)

        dry_run = d.pop("dry_run", UNSET)

        skip_routing = d.pop("skip_routing", UNSET)

        contacts_import_create = cls(
            object_=object_,
            rows=rows,
            match_on=match_on,
            value_map=value_map,
            on_invalid_cell=on_invalid_cell,
            dry_run=dry_run,
            skip_routing=skip_routing,
        )

        return contacts_import_create
