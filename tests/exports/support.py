"""Driving exports in tests: the worker's job by hand, the download through the app."""

import csv
import dataclasses
import io
from typing import Any
from urllib.parse import urlsplit

import orjson

from homebase.exports import jobs
from tests.support import make_key


async def run_exports(runtime) -> None:
    """One worker round of the export job, waiting for the files it starts."""
    await jobs.run(runtime)
    await runtime.background.idle()


async def export(tenant, runtime, **body: Any) -> dict[str, Any]:
    """POST /v1/exports, the worker, then GET: the completed export."""
    response = await tenant.post("/v1/exports", json=body)
    assert response.status_code == 202, response.text
    await run_exports(runtime)
    done = await tenant.get(f"/v1/exports/{response.json()['id']}")
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "completed", done.json()
    return done.json()


def path_of(url: str) -> str:
    return urlsplit(url).path


async def download(client, exported: dict[str, Any]):
    return await client.get(path_of(exported["download_url"]))


def ndjson(response) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in response.content.splitlines()]


def csv_rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"), newline="")))


async def listed(tenant, path: str, headers=None, **params: Any) -> list[dict[str, Any]]:
    """Every item of a list, walked page by page, as the list renders it."""
    items: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = {**params, "limit": 200, **({"cursor": cursor} if cursor else {})}
        response = await tenant.client.get(path, params=query, headers=headers or tenant.headers)
        assert response.status_code == 200, response.text
        body = response.json()
        items += body["data"]
        cursor = body["next_cursor"]
        if not body["has_more"]:
            return items


async def as_key(runtime, tenant, scopes: list[str]):
    """The tenant's workspace, seen through a new key holding exactly `scopes`."""
    key = (await make_key(runtime, tenant.id, scopes))[1]
    return dataclasses.replace(tenant, headers={"Authorization": f"token {key}"})
