"""Import rows to wire payloads."""

from typing import Any

from homebase.kit.clock import isoformat


def job(row: dict[str, Any]) -> dict[str, Any]:
    rows = row["row_count"]
    return {
        "id": row["id"],
        "object": row["object"],
        "status": row["status"],
        "match_on": row["options"]["match_on"],
        "skip_routing": row["options"]["skip_routing"],
        "counts": {
            "rows": rows,
            "created": row["created_count"],
            "updated": row["updated_count"],
            "unchanged": row["unchanged_count"],
            "failed": row["failed_count"],
        },
        "progress": round(row["position"] / rows, 4) if rows else 1.0,
        "created_at": isoformat(row["created_at"]),
        "started_at": isoformat(row["started_at"]),
        "finished_at": isoformat(row["finished_at"]),
    }


def row_errors(row: dict[str, Any]) -> dict[str, Any]:
    return {"index": row["row_index"], "errors": row["errors"]}
