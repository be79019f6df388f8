"""Listings: only the workspace's own, with filters, fields, scope and tenancy."""

import pytest

from homebase.db.tenancy import TenantSession
from homebase.fixtures.load import load_fixtures
from homebase.kit.errors import AdminError
from tests.support import assert_error, failing_fields

LISTINGS = [
    {
        "ref": "sanchez",
        "address": "1421 Sanchez St",
        "city": "San Francisco",
        "state": "CA",
        "zip": "94131",
        "price": "1495000",
        "beds": 3,
        "baths": 2.5,
        "square_feet": 1840,
        "property_type": "single_family",
        "status": "active",
        "description": "Victorian.",
        "photos": [{"url": "https://cdn.example.com/1.jpg", "caption": "Front"}],
        "url": "https://www.reyes.example/listings/1421-sanchez",
    },
    {
        "address": "88 King St",
        "unit": "1204",
        "city": "san francisco",
        "state": "CA",
        "zip": "94107",
        "price": "899000.50",
        "beds": 1,
        "baths": 1,
        "square_feet": 720,
        "property_type": "condo",
        "status": "pending",
    },
    {
        "address": "500 University Ave",
        "city": "Palo Alto",
        "state": "CA",
        "zip": "94301",
        "price": "3250000",
        "beds": 5,
        "baths": 4,
        "status": "sold",
    },
]


async def load(runtime, tenant, document):
    async with runtime.db.transaction() as connection:
        return await load_fixtures(
            TenantSession(connection, tenant.id, clock=runtime.clock), document
        )


@pytest.fixture
async def listings(tenant, runtime):
    return (await load(runtime, tenant, {"listings": LISTINGS}))["listings"]


async def addresses(tenant, **params):
    response = await tenant.get("/v1/listings", params=params)
    assert response.status_code == 200, response.text
    return [item["address"] for item in response.json()["data"]]


async def test_lists_every_field_newest_first(tenant, listings):
    data = (await tenant.get("/v1/listings")).json()["data"]
    assert [item["id"] for item in data] == listings[::-1]
    sanchez = data[-1]
    assert sanchez["id"].startswith("lst_")
    assert {
        key: sanchez[key]
        for key in (
            "address",
            "city",
            "state",
            "zip",
            "price",
            "currency",
            "beds",
            "baths",
            "square_feet",
            "status",
        )
    } == {
        "address": "1421 Sanchez St",
        "city": "San Francisco",
        "state": "CA",
        "zip": "94131",
        "price": "1495000.00",
        "currency": "USD",
        "beds": 3,
        "baths": 2.5,
        "square_feet": 1840,
        "status": "active",
    }
    assert sanchez["photos"] == [{"url": "https://cdn.example.com/1.jpg", "caption": "Front"}]
    assert data[1]["unit"] == "1204" and data[1]["price"] == "899000.50"
    assert sanchez["url"] == "https://www.reyes.example/listings/1421-sanchez"
    assert data[1]["url"] is None


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"status": "active"}, ["1421 Sanchez St"]),
        ({"city": "SAN FRANCISCO"}, ["88 King St", "1421 Sanchez St"]),
        ({"zip": "94301"}, ["500 University Ave"]),
        ({"min_price": "899000.50", "max_price": "1495000"}, ["88 King St", "1421 Sanchez St"]),
        # A filter stores nothing: any number of digits, compared exactly with the stored cents.
        ({"min_price": "899000.501", "max_price": "1495000.009"}, ["1421 Sanchez St"]),
        ({"min_price": "899000.4999", "max_price": "1494999.999"}, ["88 King St"]),
        ({"max_price": "9682553920754.824", "status": "sold"}, ["500 University Ave"]),
        ({"min_price": "1.4950000001e6"}, ["500 University Ave"]),
        ({"min_beds": 3}, ["500 University Ave", "1421 Sanchez St"]),
        ({"min_baths": "2.5"}, ["500 University Ave", "1421 Sanchez St"]),
        ({"property_type": "condo"}, ["88 King St"]),
        ({"state": "CA", "status": "sold"}, ["500 University Ave"]),
    ],
)
async def test_filters(tenant, listings, params, expected):
    assert await addresses(tenant, **params) == expected


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"status": "for_sale"}, "status"),
        ({"min_price": "-5"}, "min_price"),
        ({"min_beds": "two"}, "min_beds"),
        ({"city": "x" * 81}, "city"),
        ({"limit": 0}, "limit"),
        ({"max_price": "10000000000000"}, "max_price"),
        ({"min_price": "NaN"}, "min_price"),
        ({"max_price": "1_000"}, "max_price"),
    ],
)
async def test_filter_validation(tenant, params, field):
    assert failing_fields(await tenant.get("/v1/listings", params=params)) == {field}


async def test_pages_and_fields(tenant, listings):
    first = (await tenant.get("/v1/listings", params={"limit": 2, "fields": "price"})).json()
    assert first["has_more"] and all(set(item) == {"id", "price"} for item in first["data"])
    rest = (
        await tenant.get(
            "/v1/listings", params={"limit": 2, "fields": "price", "cursor": first["next_cursor"]}
        )
    ).json()
    assert [item["id"] for item in rest["data"]] == [listings[0]] and not rest["has_more"]
    assert_error(
        await tenant.get("/v1/listings", params={"fields": "mls_id"}), 400, "validation_failed"
    )


async def test_fields_narrow_to_the_url(tenant, listings):
    data = (await tenant.get("/v1/listings", params={"fields": "url,status"})).json()["data"]
    assert data[-1] == {
        "id": listings[0],
        "url": "https://www.reyes.example/listings/1421-sanchez",
        "status": "active",
    }
    assert all(set(item) == {"id", "url", "status"} for item in data)


async def test_only_the_workspaces_own_listings(tenant, other_tenant, listings):
    assert (await other_tenant.get("/v1/listings")).json()["data"] == []


async def test_scope(make):
    others = await make(["deals:read"])
    error = assert_error(await others.get("/v1/listings"), 403, "insufficient_scope")
    assert error["details"]["missing_scope"] == "listings:read"
    readers = await make(["listings:read"])
    assert (await readers.get("/v1/listings")).status_code == 200


async def test_fixture_validation_names_the_item(tenant, runtime):
    with pytest.raises(AdminError, match=r"listings\[1\]\.price"):
        await load(runtime, tenant, {"listings": [LISTINGS[0], {**LISTINGS[1], "price": "x"}]})
    assert (await tenant.get("/v1/listings")).json()["data"] == []


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("www.reyes.example/listings/1", "must be an absolute http or https URL"),
        ("javascript:alert(1)", "must be an absolute http or https URL"),
        ("https://reyes.example/a\tb", "must not contain white space or control characters"),
        ("https://reyes.example/" + "a" * 2030, "String should have at most 2048 characters"),
        ("", "String should have at least 1 character"),
    ],
)
async def test_a_listing_url_is_an_absolute_web_address(tenant, runtime, url, message):
    with pytest.raises(AdminError) as refused:
        await load(runtime, tenant, {"listings": [{**LISTINGS[0], "url": url}]})
    assert "listings[0].url: " in str(refused.value) and message in str(refused.value)
    assert (await tenant.get("/v1/listings")).json()["data"] == []
