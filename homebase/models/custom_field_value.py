from datetime import date

from sqlalchemy import Boolean, Date, Float, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.models.base import Base


class CustomFieldValue(Base):
    """One value of a custom field on one contact or deal, typed, for the lists' filters
    (`custom.<key>=...`); a multi_select value is one row per choice. The record's own
    `custom_fields` JSON is what responses render; the two are written together in the
    same transaction (custom_fields/service.py).

    `value_key` is the value's canonical text, compared by equality: a text (longer texts
    and those starting with "sha256:" as "sha256:" and their digest, so every key fits an
    index entry), a choice, a number as its shortest decimal, a date as YYYY-MM-DD,
    a boolean as true/false. The typed columns hold the same value for ranges and sorting."""

    __tablename__ = "custom_field_values"
    __table_args__ = (
        # A filter's page: the rows of one field and value, walked by record id (keyset).
        Index(
            "ix_custom_field_values_filter", "workspace_id", "field_id", "value_key", "record_id"
        ),
        # A record's values (rewrite on update, erasure).
        Index("ix_custom_field_values_record", "workspace_id", "object", "record_id"),
        # A deleted field's values, removed in batches by the worker.
        Index("ix_custom_field_values_field", "field_id", "record_id"),
    )

    field_id: Mapped[str] = mapped_column(ForeignKey("custom_fields.id"), primary_key=True)
    record_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    value_key: Mapped[str] = mapped_column(String(255), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    object: Mapped[str] = mapped_column(String(16))  # contacts | deals
    value_number: Mapped[float | None] = mapped_column(Float)
    value_date: Mapped[date | None] = mapped_column(Date)
    value_boolean: Mapped[bool | None] = mapped_column(Boolean)
