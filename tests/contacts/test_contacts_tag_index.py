"""The tag filter (`tag=`) through its index: SQLite's `contact_tags` table, written by
triggers on contacts (migration 0017), PostgreSQL's GIN index on tags (0016).

Whatever writes a contact (create, update, anonymization, a hand-written row, a delete),
the filter answers what each contact's own `tags` say.
"""

import json

from sqlalchemy import select, text

from homebase.contacts import repository
from homebase.contacts.schemas import ContactFilters
from homebase.db.tenancy import TenantSession
from tests.support import walk_pages

contacts = repository.contacts


async def create(tenant, **fields):
    response = await tenant.post("/v1/contacts", json=fields)
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def tagged(tenant, tag, **params):
    response = await tenant.get("/v1/contacts", params={"tag": tag, "limit": 200, **params})
    assert response.status_code == 200, response.text
    return [item["id"] for item in response.json()["data"]]


async def index_rows(runtime, workspace_id):
    async with runtime.db.transaction() as connection:
        return sorted(
            (
                await connection.execute(
                    text("SELECT tag, contact_id FROM contact_tags WHERE workspace_id = :w"),
                    {"w": workspace_id},
                )
            ).all()
        )


async def tags_of_contacts(runtime, workspace_id):
    async with runtime.db.transaction() as connection:
        return sorted(
            (
                await connection.execute(
                    text(
                        "SELECT value, contacts.id FROM contacts, json_each(contacts.tags) "
                        "WHERE workspace_id = :w"
                    ),
                    {"w": workspace_id},
                )
            ).all()
        )


async def test_the_tag_filter_follows_every_write(tenant, runtime):
    dana = await create(tenant, first_name="Dana", tags=["vip", "buyer"])
    sam = await create(tenant, first_name="Sam", tags=["buyer"])
    await create(tenant, first_name="Grace")
    assert await tagged(tenant, "vip") == [dana]
    assert await tagged(tenant, "buyer") == [sam, dana]
    assert await tagged(tenant, "VIP") == []  # exact, as the JSON comparison was

    response = await tenant.patch(f"/v1/contacts/{dana}", json={"tags": ["seller"]})
    assert response.status_code == 200, response.text
    assert await tagged(tenant, "vip") == []
    assert await tagged(tenant, "buyer") == [sam]
    assert await tagged(tenant, "seller") == [dana]
    response = await tenant.patch(f"/v1/contacts/{sam}", json={"first_name": "Samuel"})
    assert response.status_code == 200, response.text
    assert await tagged(tenant, "buyer") == [sam]  # a change to another column keeps them

    # Anonymization scrubs personal data in place and keeps the tags (docs/decisions.md).
    assert (await tenant.delete(f"/v1/contacts/{dana}")).status_code == 200
    assert await tagged(tenant, "seller") == [dana]
    # An erased contact takes no writes (409 contact_erased); clearing tags still unindexes.
    response = await tenant.patch(f"/v1/contacts/{sam}", json={"tags": []})
    assert response.status_code == 200, response.text
    assert await tagged(tenant, "buyer") == []
    if runtime.db.is_sqlite:
        assert await index_rows(runtime, tenant.id) == await tags_of_contacts(runtime, tenant.id)


async def test_the_tag_index_follows_hand_written_rows_and_deletes(tenant, runtime):
    """SQLite: the triggers index what any statement writes, not only the service."""
    if not runtime.db.is_sqlite:
        return
    keep = await create(tenant, first_name="Keep", tags=["a", "b"])
    async with runtime.db.transaction() as connection:
        await connection.execute(
            text(
                "INSERT INTO contacts (id, workspace_id, first_name, stage, tags, created_at, "
                "updated_at) VALUES ('con_hand', :w, 'Hand', 'LEAD', :tags, '2026-01-01 00:00:00', "
                "'2026-01-01 00:00:00')"
            ),
            {"w": tenant.id, "tags": '["b", "b", 7, {"x": 1}, "c"]'},
        )
    assert await index_rows(runtime, tenant.id) == sorted(
        [("a", keep), ("b", "con_hand"), ("b", keep), ("c", "con_hand")]
    )
    assert await tagged(tenant, "b") == sorted(["con_hand", keep], reverse=True)
    assert await tagged(tenant, "7") == []  # a number never equalled the text filter
    async with runtime.db.transaction() as connection:
        await connection.execute(
            text("UPDATE contacts SET tags = 'not json' WHERE id = :id"), {"id": keep}
        )
        await connection.execute(text("DELETE FROM contacts WHERE id = 'con_hand'"))
    assert await index_rows(runtime, tenant.id) == []


async def test_pages_of_a_tag_walk_every_tagged_contact_once_in_order(tenant):
    made = []
    for index in range(7):
        made.append(
            await create(
                tenant,
                first_name=f"T{index}",
                tags=["open-house"],
                stage="HOT_LEAD" if index % 2 else "LEAD",
            )
        )
        await create(tenant, first_name=f"Other{index}", tags=["buyer"])
    seen = await walk_pages(tenant, "/v1/contacts", {"tag": "open-house", "limit": 2})
    assert seen == sorted(made, reverse=True)
    assert await tagged(tenant, "open-house", stage="HOT_LEAD") == sorted(made[1::2], reverse=True)


async def test_another_workspaces_tags_are_not_found(tenant, other_tenant):
    await create(other_tenant, first_name="Hidden", tags=["vip"])
    mine = await create(tenant, first_name="Mine", tags=["vip"])
    assert await tagged(tenant, "vip") == [mine]


async def test_the_tag_filter_reads_its_index(tenant, runtime):
    """SQLite walks contact_tags' primary key in keyset order and looks each contact up;
    it reads no contact's JSON and sorts nothing. PostgreSQL: the GIN index applies."""
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id)
        if not runtime.db.is_sqlite:
            await connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
            probe = (
                select(contacts.c.id)
                .where(repository.has_tag(session))
                .compile(dialect=connection.dialect)
            )
            plan = " ".join(
                row[0]
                for row in (
                    await connection.exec_driver_sql(
                        "EXPLAIN " + str(probe), (json.dumps(["vip"]),)
                    )
                ).all()
            )
            assert "ix_contacts_tags" in plan, plan
            return
        for stage in (None, "HOT_LEAD"):
            statement, values = repository.list_statement(
                session,
                ContactFilters(tag="vip", stage=stage),
                pii=True,
                after_id="con_zzzz",
                limit=50,
            )
            plan = " ".join(
                row[3]
                for row in (
                    await connection.exec_driver_sql(
                        "EXPLAIN QUERY PLAN " + _literal(connection, statement, values)
                    )
                ).all()
            )
            assert (
                "SEARCH contact_tags USING PRIMARY KEY (workspace_id=? AND tag=? AND contact_id<?)"
            ) in plan, plan
            assert "TEMP B-TREE" not in plan and "json_each" not in plan, plan


def _literal(connection, statement, values) -> str:
    return str(
        statement.params(values).compile(
            dialect=connection.dialect, compile_kwargs={"literal_binds": True}
        )
    )
