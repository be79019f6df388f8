"""Contact search through the trigram indexes (contacts/search.py, migration 0016).

A page is looked for among the FTS5 candidates when they are few (SQLite, `search.CAP`),
then among the newest `search.WINDOW` contacts, then through the index alone. The
`window` fixture sends every search to one of the three: each gives the rule's results
exactly (docs/decisions.md, "Contact search").
"""

import pytest
from sqlalchemy import select, text

from homebase.contacts import repository, search
from homebase.contacts.schemas import ContactFilters
from homebase.db.tenancy import TenantSession
from tests.support import make_key, walk_pages

contacts = search.contacts

PEOPLE = [
    dict(first_name="Dana", last_name="Reyes", email="dana@example.com", phone="+14155550142"),
    dict(first_name="Sam", last_name="Okafor", email="sam@okafor.net", phone="(510) 555-0199"),
    dict(
        first_name="Grace",
        last_name="Lindqvist",
        email="grace@example.org",
        phone="+1 650 555 0123",
    ),
    dict(first_name="Siobhan", last_name='O"Brien', email="s.obrien@example.ie"),
    dict(first_name="Émile", last_name="Zola", phone="call DANA"),
    dict(first_name=None, last_name="Solo", email="100%_sure@example.com"),
]


@pytest.fixture(
    params=[(200, 1), (0, 1), (0, 1000)], ids=["candidates", "through-index", "among-newest"]
)
def window(request, monkeypatch):
    """CAP 0 skips the candidates step (SQLite) unless nothing matches; WINDOW 1 sends
    nearly every search past the newest contacts."""
    cap, window = request.param
    monkeypatch.setattr(search, "CAP", cap)
    monkeypatch.setattr(search, "WINDOW", window)
    return window


async def create(tenant, **fields):
    response = await tenant.post(
        "/v1/contacts", json={k: v for k, v in fields.items() if v is not None}
    )
    assert response.status_code == 201, response.text
    return response.json()


async def fillers(tenant, count):
    for index in range(count):
        await create(tenant, first_name=f"Filler{index}", last_name="Person")


async def found(client, headers, q, **params):
    response = await client.get(
        "/v1/contacts", params={"q": q, "limit": 200, **params}, headers=headers
    )
    assert response.status_code == 200, response.text
    return sorted(item["last_name"] for item in response.json()["data"])


@pytest.fixture
async def roster(tenant):
    people = [await create(tenant, **person) for person in PEOPLE]
    await fillers(tenant, 3)  # the people are not the newest: the window misses them
    return people


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("lindq", ["Lindqvist"]),
        ("SAM", ["Okafor"]),
        ("dana reyes", ["Reyes"]),
        ("a rey", ["Reyes"]),
        (" reyes", ["Reyes"]),
        ("okafor.net", ["Okafor"]),
        ("555-0199", ["Okafor"]),
        ("5105550199", ["Okafor"]),
        ("555 01", ["Lindqvist", "Okafor", "Reyes"]),
        ("nobody", []),
        ("100%", ["Solo"]),
        ("0%_s", ["Solo"]),
        ("%%%", []),
        ("___", []),
        ('"br', ['O"Brien']),
        ('o"b', ['O"Brien']),
        ("dana", ["Reyes", "Zola"]),  # Zola's phone is free text: "call DANA"
        ("MILE ZO", ["Zola"]),
        (" solo", ["Solo"]),  # a contact without a first name is " Solo"
        ("Filler", ["Person", "Person", "Person"]),
        ("re", ["Reyes", "Solo"]),
        ("OK", ["Okafor"]),  # short: the scan, as before
        ("NEAR(a b)", []),
        ("{name}: x", []),
        ("a OR b", []),
        ("***", []),
    ],
)
async def test_search_keeps_the_rule(tenant, roster, window, q, expected, backend):
    if q == "dana" and backend == "postgres":
        expected = ["Reyes"]  # LIKE on the phone is case-sensitive there, as before 0016
    assert await found(tenant.client, tenant.headers, q) == expected


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("okafor.net", []),
        ("sam@okafor.net", ["Okafor"]),
        ("SAM@OKAFOR.NET ", ["Okafor"]),
        ("555-01", []),
        ("55501", []),
        ("(510) 555-0199", ["Okafor"]),
        ("4155550142", ["Reyes"]),
        ("+1 415 555 0142", ["Reyes"]),
        ("grace", ["Lindqvist"]),
        ("example", []),
        ("dana", ["Reyes"]),  # the free-text phone "call DANA" is not searched
    ],
)
async def test_masked_search_still_matches_only_exact_email_or_phone(
    tenant, roster, runtime, window, q, expected
):
    _, key = await make_key(runtime, tenant.id, ["contacts:read"])
    assert await found(tenant.client, {"Authorization": f"token {key}"}, q) == expected


@pytest.mark.parametrize("name", ["q", "source", "tag", "owner_id"])
async def test_a_nul_in_a_filter_is_a_400_naming_it(tenant, name):
    """PostgreSQL cannot compare text with a NUL: it was a 500 there."""
    response = await tenant.get("/v1/contacts", params={name: "x\x00yz"})
    assert response.status_code == 400, response.text
    assert [error["field"] for error in response.json()["error"]["details"]["errors"]] == [name]


async def test_filters_combine_with_the_indexed_search(tenant, window):
    await create(tenant, first_name="Ana", last_name="Marsh", stage="HOT_LEAD", tags=["vip"])
    await create(tenant, first_name="Ana", last_name="Marsden", stage="LEAD", tags=["vip"])
    await fillers(tenant, 2)
    headers = tenant.headers
    assert await found(tenant.client, headers, "mars", stage="HOT_LEAD") == ["Marsh"]
    assert await found(tenant.client, headers, "mars", tag="vip") == ["Marsden", "Marsh"]
    assert await found(tenant.client, headers, "mars", tag="nope") == []


async def test_pages_of_a_search_walk_every_match_once_in_order(tenant, monkeypatch):
    monkeypatch.setattr(search, "WINDOW", 2)
    made = []
    for index in range(7):
        made.append((await create(tenant, first_name="Match", last_name=f"M{index}"))["id"])
        await fillers(tenant, index % 3)
    seen = await walk_pages(tenant, "/v1/contacts", {"q": "match", "limit": 2})
    assert seen == sorted(made, reverse=True)


async def test_index_follows_every_write(tenant, window, runtime):
    """Create, rename, new email and phone, and anonymization (DELETE) all reach the index."""
    contact = await create(
        tenant,
        first_name="Wanda",
        last_name="Quintero",
        email="wq@example.com",
        phone="+14155550188",
    )
    await fillers(tenant, 2)
    headers, client = tenant.headers, tenant.client
    assert await found(client, headers, "quinter") == ["Quintero"]
    assert await found(client, headers, "5550188") == ["Quintero"]

    response = await tenant.patch(
        f"/v1/contacts/{contact['id']}",
        json={"last_name": "Marlowe", "email": "wm@example.net", "phone": "+14155550177"},
    )
    assert response.status_code == 200, response.text
    assert await found(client, headers, "quinter") == []
    assert await found(client, headers, "wq@example") == []
    assert await found(client, headers, "5550188") == []
    assert await found(client, headers, "marlow") == ["Marlowe"]
    assert await found(client, headers, "wm@example.n") == ["Marlowe"]
    assert await found(client, headers, "5550177") == ["Marlowe"]

    assert (await tenant.delete(f"/v1/contacts/{contact['id']}")).status_code == 200
    for q in ("marlow", "wanda", "wm@example", "5550177"):
        assert await found(client, headers, q) == []
    if runtime.db.is_sqlite:  # nothing of the erased contact is left to match
        async with runtime.db.transaction() as connection:
            hits = (
                await connection.execute(
                    text("SELECT count(*) FROM contacts_fts WHERE contacts_fts MATCH :q"),
                    {"q": '"marlowe" OR "wanda" OR "5550177"'},
                )
            ).scalar()
        assert hits == 0


async def test_other_workspaces_are_not_found_through_the_index(tenant, other_tenant, window):
    await create(other_tenant, first_name="Hidden", last_name="Neighbour")
    await fillers(tenant, 2)
    assert await found(tenant.client, tenant.headers, "neighbour") == []
    assert await found(other_tenant.client, other_tenant.headers, "neighbour") == ["Neighbour"]


def _explain(connection, statement, values) -> str:
    sql = str(
        statement.params(values).compile(
            dialect=connection.dialect, compile_kwargs={"literal_binds": True}
        )
    )
    return ("EXPLAIN QUERY PLAN " if connection.dialect.name == "sqlite" else "EXPLAIN ") + sql


async def test_the_index_answers_without_walking_the_workspace(tenant, runtime):
    """The index steps' plans read the trigram index, not every contact in id order."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        steps = repository.list_statement(
            session, ContactFilters(q="quintero"), pii=True, after_id="con_zzzz", limit=50
        )
        indexed, values = steps[-1]
        if runtime.db.is_sqlite:
            candidates = steps[0]
            assert isinstance(candidates, search.Candidates)
            for statement, extra in [(indexed, {}), (candidates.page, {search.FOUND: "[1, 2]"})]:
                plan = " ".join(
                    row[3]
                    for row in (
                        await connection.exec_driver_sql(
                            _explain(connection, statement, {**values, **extra})
                        )
                    ).all()
                )
                assert "INTEGER PRIMARY KEY" in plan, plan
                assert "ix_contacts_workspace_id_id" not in plan, plan
                assert ("contacts_fts" if statement is indexed else "SCAN found") in plan, plan
            plan = " ".join(
                row[3]
                for row in (
                    await connection.exec_driver_sql(
                        _explain(connection, candidates.probe, {**values, search.PROBE: 201})
                    )
                ).all()
            )
            assert "contacts_fts" in plan and "SCAN contacts " not in plan, plan
        else:  # ordered by an expression no index gives, so nothing walks ids
            plan = " ".join(
                row[0]
                for row in (
                    await connection.exec_driver_sql(_explain(connection, indexed, values))
                ).all()
            )
            assert "Sort Key: (((id)::text || ''::text)) DESC" in plan, plan
            # and the searched expressions are the trigram indexes' own
            await connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
            for index, column in [
                ("name", search.NAME),
                ("email", contacts.c.email_lower),
                ("phone", contacts.c.phone),
                ("e164", contacts.c.phone_e164),
            ]:
                probe = str(
                    select(contacts.c.id)
                    .where(column.like("%quintero%"))
                    .compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True})
                )
                plan = " ".join(
                    row[0] for row in (await connection.exec_driver_sql("EXPLAIN " + probe)).all()
                )
                assert f"ix_contacts_search_{index}" in plan, plan


async def test_more_candidates_than_the_cap_go_on_to_the_next_steps(
    tenant, other_tenant, monkeypatch
):
    """FTS5 knows no workspace: candidates of another workspace count toward CAP, and
    past it the window and the index still find this workspace's few matches; within
    it, the candidates alone give the page, cursor and all."""
    monkeypatch.setattr(search, "CAP", 3)
    monkeypatch.setattr(search, "WINDOW", 1)
    for index in range(3):
        await create(other_tenant, first_name="Zephyr", last_name=f"Other{index}")
    mine = [
        (await create(tenant, first_name="Zephyr", last_name=f"Mine{index}"))["id"]
        for index in range(2)
    ]
    await fillers(tenant, 2)
    assert await found(tenant.client, tenant.headers, "zephyr") == ["Mine0", "Mine1"]
    assert await found(tenant.client, tenant.headers, "zephyr", limit=1) == ["Mine1"]
    assert await found(tenant.client, tenant.headers, "other") == []
    monkeypatch.setattr(search, "CAP", 5)  # now within the cap: the candidates answer
    body = (await tenant.get("/v1/contacts", params={"q": "zephyr", "limit": 1})).json()
    assert [item["id"] for item in body["data"]] == [mine[1]] and body["has_more"]
    body = (
        await tenant.get(
            "/v1/contacts", params={"q": "zephyr", "limit": 1, "cursor": body["next_cursor"]}
        )
    ).json()
    assert [item["id"] for item in body["data"]] == [mine[0]] and not body["has_more"]


async def test_a_search_that_finds_nothing_is_one_statement(tenant, backend, monkeypatch):
    """SQLite: the FTS5 probe finds no candidate, so neither the newest contacts nor the
    contacts table are read for the page (PostgreSQL: the window, then the index)."""
    await fillers(tenant, 3)
    ran = []
    for name in ("fetch_one", "fetch_all"):
        original = getattr(TenantSession, name)

        def spy(self, statement, params=None, *, _original=original, _name=name):
            if params and search.FTS_QUERY in params:
                ran.append(_name)
            return _original(self, statement, params)

        monkeypatch.setattr(TenantSession, name, spy)
    assert await found(tenant.client, tenant.headers, "zqxw") == []
    assert ran == (["fetch_one"] if backend == "sqlite" else ["fetch_all"] * 2)


@pytest.mark.parametrize(
    ("q", "number"),
    [
        ("4155550", True),
        (" +1 (415) 555-0142 ", True),
        ("415.555.0142", True),
        ("415555", False),  # six digits: window first, as any term
        ("call 4155550142", False),
        ("415-555-0142 x7", False),
        ("٤١٥٥٥٥٠١٤٢", False),  # not a number's ASCII digits
    ],
)
def test_what_names_a_number(q, number):
    assert search.names_a_number(q) is number


async def test_a_number_is_looked_up_through_the_index_alone(tenant, backend, monkeypatch):
    """A query naming a number finds a few: on PostgreSQL its page is the index step's,
    one statement (SQLite: the FTS5 candidates'), its pages walking every match once."""
    monkeypatch.setattr(search, "WINDOW", 2)
    made = []
    for index in range(5):
        made.append(
            (await create(tenant, last_name=f"N{index}", phone=f"+1415555010{index}"))["id"]
        )
        await fillers(tenant, index % 2)
    ran = []
    original = TenantSession.fetch_all

    def spy(self, statement, params=None):
        if params and search.FTS_QUERY in params:
            ran.append("fetch_all")
        return original(self, statement, params)

    monkeypatch.setattr(TenantSession, "fetch_all", spy)
    seen = await walk_pages(tenant, "/v1/contacts", {"q": "415 5550", "limit": 2})
    assert seen == sorted(made, reverse=True)
    if backend == "postgres":
        assert ran == ["fetch_all"] * 3  # a statement a page, no window step


async def test_a_long_number_is_looked_up_by_its_last_digits_and_decided_by_the_rule(
    tenant, window
):
    """FTS5 is asked for the last seven digits of a long run (search._narrowed): both
    numbers below hold them, the rule keeps only the one holding the whole query."""
    assert (
        search.fts_query("+1 (415) 555-1234", True)
        == '{name email phone} : "+1 (415) 555-1234" OR {e164} : "5551234"'
    )
    assert search.fts_query("14155551234", True) == '"5551234"'
    assert search.fts_query("14155551234", False) == '{name} : "5551234"'
    await create(tenant, first_name="Near", last_name="Miss", phone="+1 650 555 1234")
    await create(tenant, first_name="Right", last_name="One", phone="+1 415 555 1234")
    await fillers(tenant, 2)
    assert await found(tenant.client, tenant.headers, "14155551234") == ["One"]
    assert await found(tenant.client, tenant.headers, "+14155551234") == ["One"]
    assert await found(tenant.client, tenant.headers, "5551234") == ["Miss", "One"]
