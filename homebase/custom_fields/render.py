"""Records to wire payloads. A record's values are rendered by Definitions.render
(definitions.py), which contacts/render.py and deals/render.py call."""

from typing import cast

from homebase.custom_fields.records import CustomFieldRecord
from homebase.custom_fields.schemas import CustomField, CustomFieldObject, CustomFieldType
from homebase.kit.clock import isoformat


def custom_field(row: CustomFieldRecord) -> CustomField:
    return {
        "id": row["id"],
        # stored as the enums' values, which are what the wire sends
        "object": cast(CustomFieldObject, row["object"]),
        "key": row["key"],
        "label": row["label"],
        "type": cast(CustomFieldType, row["type"]),
        "choices": list(row["choices"]) if row["choices"] is not None else None,
        "created_at": isoformat(row["created_at"]),
        "updated_at": isoformat(row["updated_at"]),
    }
