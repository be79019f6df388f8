"""What the sync tests share: a walk of an `updated_after` list, page by page."""

from typing import Any


async def walk(tenant: Any, path: str, updated_after: str, limit: int = 2, **params: Any) -> list:
    """Every record of one walk from `updated_after`, cursor by cursor, in the order
    served; checks each page's shape on the way."""
    records: list[dict[str, Any]] = []
    cursor = None
    for _ in range(1000):
        query = {**params, "updated_after": updated_after, "limit": limit}
        if cursor:
            query["cursor"] = cursor
        response = await tenant.get(path, params=query)
        assert response.status_code == 200, response.text
        body = response.json()
        assert len(body["data"]) <= limit
        records.extend(body["data"])
        if not body["has_more"]:
            assert body["next_cursor"] is None
            return records
        assert body["next_cursor"] and len(body["data"]) == limit
        cursor = body["next_cursor"]
    raise AssertionError("the walk did not end")


def ids(records: list[dict[str, Any]]) -> list[str]:
    return [record["id"] for record in records]


def in_change_order(records: list[dict[str, Any]]) -> list[str]:
    """The ids as a walk must serve them: by (updated_at, id). The tests' stamps are whole
    seconds (a frozen clock), so the rendered milliseconds are the stored stamps."""
    return [record["id"] for record in sorted(records, key=lambda r: (r["updated_at"], r["id"]))]
