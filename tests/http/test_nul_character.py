"""U+0000 anywhere a /v1 request carries text (a path parameter, a query parameter, a
body value or key) is a 400 naming each such field, on both databases: PostgreSQL's text
and jsonb cannot store it (it was a 500 there), SQLite could (it was stored)."""

import pytest

from homebase.kit.nul import MESSAGE as NUL_MESSAGE


def _nul_errors(response) -> list[tuple[str, str]]:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_failed"
    assert all(item["message"] == NUL_MESSAGE for item in error["details"]["errors"])
    assert all(item["type"] == "nul_character" for item in error["details"]["errors"])
    return [(item["field"], item["in"]) for item in error["details"]["errors"]]


async def test_body_values_and_keys_are_named_and_nothing_is_written(tenant):
    response = await tenant.post(
        "/v1/leads",
        {
            "source": "Zillow",
            "phone": "+14155550100",
            "first_name": "A\u0000na",
            "context": {"ok": ["x", "y\u0000"], "bad\u0000key": 1, "nested": {"z": "\u0000"}},
        },
    )
    assert sorted(_nul_errors(response)) == [
        ("context.bad\\u0000key", "body"),
        ("context.nested.z", "body"),
        ("context.ok.1", "body"),
        ("first_name", "body"),
    ]
    assert (await tenant.get("/v1/leads")).json()["data"] == []
    assert (await tenant.get("/v1/contacts")).json()["data"] == []


async def test_a_path_parameter_is_named(tenant):
    response = await tenant.get("/v1/contacts/con_%00x")
    assert _nul_errors(response) == [("id", "path")]


@pytest.mark.parametrize("query", ["q=ab%00cd", "source=a%00", "unknown=%00"])
async def test_a_query_parameter_is_named(tenant, query):
    response = await tenant.get(f"/v1/contacts?{query}")
    assert _nul_errors(response) == [(query.partition("=")[0], "query")]


async def test_a_backslash_u_written_as_text_is_not_a_nul(tenant):
    """The JSON text \\\\u0000 is a backslash and five characters, not U+0000."""
    response = await tenant.post("/v1/contacts", {"first_name": "Ana", "notes": "\\u0000 ok"})
    assert response.status_code == 201, response.text
    assert response.json()["notes"] == "\\u0000 ok"


async def test_ping_refuses_a_nul_in_its_query_as_documented(tenant, client):
    response = await tenant.get("/v1/ping?x=%00")
    assert _nul_errors(response) == [("x", "query")]
    document = (await client.get("/v1/openapi.json")).json()
    assert "400" in document["paths"]["/v1/ping"]["get"]["responses"]
