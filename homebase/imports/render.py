"""Import records to the ImportJob and ImportRowErrors wire types."""

from typing import cast

from homebase.imports.records import ImportErrorRecord, ImportRecord
from homebase.imports.schemas import (
    ImportJob,
    ImportMatchKey,
    ImportObject,
    ImportRowErrors,
    ImportRowKind,
    ImportStatus,
    InvalidCell,
)
from homebase.kit.clock import isoformat


def job(row: ImportRecord) -> ImportJob:
    rows = row["row_count"]
    options = row["options"]
    return {
        "id": row["id"],
        # stored as the enums' values, which are what the wire sends
        "object": cast(ImportObject, row["object"]),
        "status": cast(ImportStatus, row["status"]),
        "match_on": cast(list[ImportMatchKey], options["match_on"]),
        "skip_routing": options["skip_routing"],
        "first_touch": bool(options.get("first_touch")),
        "dry_run": row["dry_run"],
        "on_invalid_cell": cast(InvalidCell, options.get("on_invalid_cell", InvalidCell.REFUSE)),
        "file_name": options.get("file_name"),
        "counts": {
            "rows": rows,
            "created": row["created_count"],
            "updated": row["updated_count"],
            "unchanged": row["unchanged_count"],
            "failed": row["failed_count"],
            "warnings": row["warnings_count"],
            "unmatchable": row["unmatchable_count"],
        },
        "refused_by_reason": row["refused_by_reason"],
        "progress": round(row["position"] / rows, 4) if rows else 1.0,
        "created_at": isoformat(row["created_at"]),
        "started_at": isoformat(row["started_at"]),
        "finished_at": isoformat(row["finished_at"]),
    }


def row_errors(row: ImportErrorRecord) -> ImportRowErrors:
    return {
        "index": row["row_index"],
        "line": row["line"],
        "kind": cast(ImportRowKind, row["kind"]),
        "errors": row["errors"],
    }
