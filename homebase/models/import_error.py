from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from homebase.db.types import JSONValue
from homebase.models.base import Base


class ImportRowError(Base):
    """A row an import refused (`kind` refused) or wrote with a value left out (`kind`
    warning): its index in the request's `rows`, its CSV line when it came from a file,
    and the same {field, message} items a single create would have answered 400 with.
    Never a value of the row (homebase/imports/, docs/imports-exports.md)."""

    __tablename__ = "import_errors"
    __table_args__ = (
        Index("ix_import_errors_workspace_import_id", "workspace_id", "import_id", "id"),
    )

    # "<import id>.<index, 5 digits>": sorts in index order within an import, so the
    # errors list pages on it like every list on its id.
    id: Mapped[str] = mapped_column(String(48), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspaces.id"))
    import_id: Mapped[str] = mapped_column(ForeignKey("imports.id"))
    row_index: Mapped[int] = mapped_column(Integer)
    line: Mapped[int | None] = mapped_column(Integer)  # the CSV line the row starts on
    kind: Mapped[str] = mapped_column(String(16))  # refused | warning
    errors: Mapped[list[dict[str, Any]]] = mapped_column(JSONValue)
