"""The schema comes only from the migrations, and instances may migrate at the same time."""

import asyncio
import json
import os
import sys

from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import create_async_engine

from homebase.models import Base


async def test_migrations_build_every_model_table(database_url):
    engine = create_async_engine(database_url)
    async with engine.connect() as connection:
        tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
    await engine.dispose()
    assert set(Base.metadata.tables) <= tables


async def test_instances_migrating_together_all_succeed(backend, tmp_path, request):
    """Three `homebase migrate` processes on one fresh database: all exit 0, same revision."""
    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/fresh.sqlite3"
    else:
        url = await _fresh_postgres_database(request)
    env = {**os.environ, "HOMEBASE_DATABASE_URL": url, "HOMEBASE_SECRET_KEY": "test-secret"}
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "homebase",
            "migrate",
            env=env,
            cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(3)
    ]
    results = [await asyncio.wait_for(process.communicate(), 120) for process in processes]
    assert [process.returncode for process in processes] == [0, 0, 0], results
    revisions = {json.loads(stdout)["revision"] for stdout, _ in results}
    assert len(revisions) == 1 and revisions.pop()


async def _fresh_postgres_database(request) -> str:
    import uuid

    from tests.support import create_database, drop_database_later

    name = f"homebase_migrate_{uuid.uuid4().hex[:8]}"
    url = await create_database(name)
    request.addfinalizer(lambda: drop_database_later(name))
    return url


async def test_0011_backfills_the_contact_of_existing_events(backend, tmp_path, request):
    """Events written before 0011 name their contact afterwards, by emit's rule."""
    from datetime import UTC, datetime

    from sqlalchemy import text

    from homebase.db.migrate import upgrade

    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/old.sqlite3"
    else:
        url = await _fresh_postgres_database(request)
    await upgrade(url, "0010")
    now = datetime.now(UTC)
    events = [
        ("evt_1", "contact.created", {"id": "con_1", "first_name": "Dana"}),
        ("evt_2", "contact.tag_added", {"id": "con_1", "tag": "x", "tags": ["x"]}),
        ("evt_3", "lead.created", {"id": "lea_1", "contact_id": "con_2"}),
        ("evt_4", "lead.created", {"id": "lea_2", "contact_id": None}),
        ("evt_5", "message.sent", {"id": "msg_1"}),
        ("evt_6", "deal.stage_changed", {"id": "dea_1", "contact_id": "con_3"}),
        ("evt_7", "contact.updated", {"id": 7}),
        ("evt_8", "document.signed", {"contact_id": "x" * 41}),
    ]
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO workspaces (id, name, status, settings, created_at) "
                    "VALUES ('wsp_1', 'W', 'active', '{}', :now)"
                ),
                {"now": now},
            )
            for event_id, event_type, data in events:
                await connection.execute(
                    text(
                        "INSERT INTO outbox_events (id, workspace_id, type, data, occurred_at) "
                        "VALUES (:id, 'wsp_1', :type, :data, :now)"
                    ),
                    {"id": event_id, "type": event_type, "data": json.dumps(data), "now": now},
                )
        await upgrade(url)
        async with engine.connect() as connection:
            rows = dict(
                (await connection.execute(text("SELECT id, contact_id FROM outbox_events"))).all()
            )
            indexes = await connection.run_sync(
                lambda sync: {i["name"] for i in inspect(sync).get_indexes("outbox_events")}
            )
    finally:
        await engine.dispose()
    assert rows == {
        "evt_1": "con_1",
        "evt_2": "con_1",
        "evt_3": "con_2",
        "evt_4": None,
        "evt_5": None,
        "evt_6": "con_3",
        "evt_7": None,
        "evt_8": None,
    }
    assert "ix_outbox_events_workspace_contact" in indexes


async def test_0014_canonicalises_stored_email_suppressions(backend, tmp_path, request):
    """Email suppressions stored before 0014 are compared in canonical form afterwards;
    phone ones are untouched, and messages gain next_attempt_at."""
    from datetime import UTC, datetime

    from sqlalchemy import text

    from homebase.db.migrate import upgrade

    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/old.sqlite3"
    else:
        url = await _fresh_postgres_database(request)
    await upgrade(url, "0011")
    now = datetime.now(UTC)
    stored = {
        "sup_1": ("email", " Dana@Example.COM "),
        "sup_2": ("email", "dana@example.com"),
        "sup_3": ("email", "Eve Q <EVE@example.com>"),
        "sup_4": ("phone", "+12125550142"),
        "sup_5": ("email", "ann@example.com\n"),
        "sup_6": ("email", "(x)Bob@Example.com"),
    }
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO workspaces (id, name, status, settings, created_at) "
                    "VALUES ('wsp_1', 'W', 'active', '{}', :now)"
                ),
                {"now": now},
            )
            for row_id, (kind, address) in stored.items():
                await connection.execute(
                    text(
                        "INSERT INTO suppressions (id, workspace_id, kind, address, reason,"
                        " evidence, created_at)"
                        " VALUES (:id, 'wsp_1', :kind, :address, 'manual', '{}', :now)"
                    ),
                    {"id": row_id, "kind": kind, "address": address, "now": now},
                )
        await upgrade(url)
        async with engine.connect() as connection:
            rows = dict(
                (await connection.execute(text("SELECT id, address FROM suppressions"))).all()
            )
            columns = await connection.run_sync(
                lambda sync: {c["name"] for c in inspect(sync).get_columns("messages")}
            )
    finally:
        await engine.dispose()
    assert rows == {
        "sup_1": "dana@example.com",
        "sup_2": "dana@example.com",
        "sup_3": "eve@example.com",
        "sup_4": "+12125550142",
        "sup_5": "ann@example.com",
        "sup_6": "bob@example.com",
    }
    assert "next_attempt_at" in columns


async def test_0016_indexes_the_contacts_that_exist(backend, tmp_path, request):
    """Contacts written before 0016 are found through the new search index afterwards,
    and rows written after it are kept in step (SQLite's triggers)."""
    from datetime import UTC, datetime

    from sqlalchemy import text

    from homebase.db.migrate import upgrade

    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/old.sqlite3"
    else:
        url = await _fresh_postgres_database(request)
    await upgrade(url, "0014")
    now = datetime.now(UTC)
    engine = create_async_engine(url)
    insert = text(
        "INSERT INTO contacts (id, workspace_id, first_name, last_name, email, email_lower, "
        "phone, phone_e164, stage, tags, created_at, updated_at) VALUES (:id, 'wsp_1', :first, "
        ":last, :email, :email, :phone, :e164, 'LEAD', '[]', :now, :now)"
    )
    people = [
        ("con_1", "Dana", "Reyes", "dana@example.com", "+1 415 555 0142", "+14155550142"),
        ("con_2", None, "Okafor", None, None, None),
    ]
    if backend == "sqlite":
        search = text("SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH :q")
        ids = text(
            "SELECT id FROM contacts WHERE rowid IN "
            "(SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH :q) ORDER BY id"
        )
    else:
        ids = text(
            "SELECT id FROM contacts WHERE lower(coalesce(first_name, '') || ' ' || "
            "coalesce(last_name, '')) LIKE '%' || :q || '%' OR email_lower LIKE "
            "'%' || :q || '%' OR phone_e164 LIKE '%' || :q || '%' ORDER BY id"
        )
    try:
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO workspaces (id, name, status, settings, created_at) "
                    "VALUES ('wsp_1', 'W', 'active', '{}', :now)"
                ),
                {"now": now},
            )
            for contact_id, first, last, email, phone, e164 in people:
                await connection.execute(
                    insert,
                    {
                        "id": contact_id,
                        "first": first,
                        "last": last,
                        "email": email,
                        "phone": phone,
                        "e164": e164,
                        "now": now,
                    },
                )
        await upgrade(url)
        async with engine.begin() as connection:
            if backend != "sqlite":  # the answers below come from the trigram indexes
                await connection.execute(text("SET LOCAL enable_seqscan = off"))
                plan = " ".join(
                    row[0]
                    for row in (
                        await connection.execute(
                            text(
                                "EXPLAIN SELECT id FROM contacts WHERE "
                                "lower(coalesce(first_name, '') || ' ' "
                                "|| coalesce(last_name, '')) LIKE '%reyes%'"
                            )
                        )
                    ).all()
                )
                assert "ix_contacts_search_name" in plan, plan

            async def found(q):
                phrase = '"' + q + '"' if backend == "sqlite" else q
                return [row[0] for row in (await connection.execute(ids, {"q": phrase})).all()]

            assert await found("a rey") == ["con_1"]
            assert await found("okafor") == ["con_2"]
            assert await found("example.com") == ["con_1"]
            assert await found("5550142") == ["con_1"]
            await connection.execute(
                text("UPDATE contacts SET last_name = 'Marlowe' WHERE id = 'con_1'")
            )
            await connection.execute(
                insert,
                {
                    "id": "con_3",
                    "first": "Wanda",
                    "last": "Reyes",
                    "email": None,
                    "phone": None,
                    "e164": None,
                    "now": now,
                },
            )
            assert await found("reyes") == ["con_3"]
            assert await found("marlowe") == ["con_1"]
            await connection.execute(text("DELETE FROM contacts WHERE id = 'con_3'"))
            assert await found("reyes") == []
            if backend == "sqlite":
                assert (await connection.execute(search, {"q": '"wanda"'})).all() == []
    finally:
        await engine.dispose()


async def test_0017_indexes_the_tags_that_exist(tmp_path):
    """SQLite: tags written before 0017 are in contact_tags afterwards (string members
    only), the triggers index later writes, and the downgrade removes table and triggers."""
    from datetime import UTC, datetime

    from alembic import command
    from sqlalchemy import create_engine, text

    from homebase.db.migrate import alembic_config, upgrade

    url = f"sqlite+aiosqlite:///{tmp_path}/old.sqlite3"
    await upgrade(url, "0016")
    engine = create_async_engine(url)
    insert = text(
        "INSERT INTO contacts (id, workspace_id, stage, tags, created_at, updated_at) "
        "VALUES (:id, 'wsp_1', 'LEAD', :tags, :now, :now)"
    )
    index = text("SELECT tag, contact_id FROM contact_tags ORDER BY tag, contact_id")
    now = datetime.now(UTC)
    try:
        async with engine.begin() as connection:
            await connection.execute(
                text(
                    "INSERT INTO workspaces (id, name, status, settings, created_at) "
                    "VALUES ('wsp_1', 'W', 'active', '{}', :now)"
                ),
                {"now": now},
            )
            for contact_id, tags in [
                ("con_1", '["vip", "buyer"]'),
                ("con_2", "[]"),
                ("con_3", '["vip", 3]'),
            ]:
                await connection.execute(insert, {"id": contact_id, "tags": tags, "now": now})
        await upgrade(url)
        async with engine.begin() as connection:
            assert (await connection.execute(index)).all() == [
                ("buyer", "con_1"),
                ("vip", "con_1"),
                ("vip", "con_3"),
            ]
            await connection.execute(insert, {"id": "con_4", "tags": '["new"]', "now": now})
            await connection.execute(
                text("UPDATE contacts SET tags = '[\"vip\"]' WHERE id = 'con_1'")
            )
            assert (await connection.execute(index)).all() == [
                ("new", "con_4"),
                ("vip", "con_1"),
                ("vip", "con_3"),
            ]
        sync = create_engine(f"sqlite:///{tmp_path}/old.sqlite3")
        with sync.begin() as connection:
            config = alembic_config()
            config.attributes["connection"] = connection
            command.downgrade(config, "0016")
        sync.dispose()
        async with engine.connect() as connection:
            tables = await connection.run_sync(lambda sync: set(inspect(sync).get_table_names()))
            triggers = (
                (
                    await connection.execute(
                        text("SELECT name FROM sqlite_master WHERE type = 'trigger'")
                    )
                )
                .scalars()
                .all()
            )
        assert "contact_tags" not in tables
        assert not [name for name in triggers if name.startswith("contact_tags")]
    finally:
        await engine.dispose()
