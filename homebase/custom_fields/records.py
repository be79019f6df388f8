"""A custom field as the code carries it: the `custom_fields` table's row (models/
custom_field.py), typed. A record's values are JSON keyed by field id on the record's
own row (contacts', deals'); their typed copies (custom_field_values) are definitions.py's.

The workspace is the session's: a read may carry `workspace_id`, nothing reads it."""

from datetime import date, datetime

from typing_extensions import TypedDict


class CustomFieldRecord(TypedDict):
    id: str
    object: str  # a CustomFieldObject value: contacts | deals
    key: str
    label: str
    type: str  # a CustomFieldType value
    choices: list[str] | None  # a select's, in order
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None


class CustomFieldChanges(TypedDict, total=False):
    """Columns an update or a deletion changes (service.update_field, delete_field)."""

    label: str
    choices: list[str] | None
    updated_at: datetime
    deleted_at: datetime | None


class ValueRecord(TypedDict):
    """A row of `custom_field_values` (models/custom_field_value.py): a record's value of
    one field, typed, for the lists' filters (definitions.value_rows)."""

    field_id: str
    record_id: str
    value_key: str
    object: str  # contacts | deals
    value_number: float | None
    value_date: date | None
    value_boolean: bool | None
