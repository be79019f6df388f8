"""The erasure is an explicit list (homebase/erasure/registry.py): every table about a
contact is scrubbed by a listed scrubber or kept with a written reason. A table added
later that holds a contact reference or a person's address fails here until it joins."""

import re
import subprocess
import sys

from sqlalchemy import Table

from homebase.erasure.registry import KEPT, SCRUBBERS
from homebase.models import Base

TABLES: dict[str, Table] = dict(Base.metadata.tables)
# Columns that hold a person's details copied from a contact (or typed about them): a
# contact's own, and the addresses messaging, calls and the suppression list store.
PERSONAL = re.compile(
    r"^(first_name|last_name|full_name|email|email_lower|phone|phone_e164"
    r"|address|from_address|to_address|counterpart|from_number|to_number|ip)$"
)


def _refers_to_contact(table: Table) -> bool:
    return any(
        column.name in {"contact_id", "contact_ids"}
        or any(key.column.table.name == "contacts" for key in column.foreign_keys)
        for column in table.columns
    )


def about_a_contact() -> dict[str, str]:
    """Each table that is about a contact, with why: a contact reference (`contact_id`,
    `contact_ids`, a key to contacts), a table a scrubber covers (it holds a person's
    data: an import's rows), a key to such a table (a row of a row about the contact: an
    import's refused rows), or a column holding a person's details."""
    found = {"contacts": "the contact itself"}
    found |= {name: "a contact reference" for name, t in TABLES.items() if _refers_to_contact(t)}
    found |= {name: "a scrubber covers it" for name in covered() if name not in found}
    grew = True
    while grew:
        grew = False
        for name, table in TABLES.items():
            if name in found:
                continue
            parents = {key.column.table.name for key in table.foreign_keys} & set(found)
            if parents:
                found[name] = f"a key to {sorted(parents)[0]}"
                grew = True
    for name, table in TABLES.items():
        personal = [column.name for column in table.columns if PERSONAL.match(column.name)]
        if personal and name not in found:
            found[name] = f"personal columns {personal}"
    return found


def covered() -> dict[str, str]:
    return {table: scrubber.name for scrubber in SCRUBBERS for table in scrubber.tables}


def test_every_table_about_a_contact_is_scrubbed_or_kept_with_a_reason():
    missing = {
        name: why
        for name, why in about_a_contact().items()
        if name not in covered() and name not in KEPT
    }
    assert not missing, f"add these to homebase/erasure/registry.py: {missing}"


def test_the_walk_finds_what_it_should():
    """The rules above are not vacuous: the tables known to hold a person's data are found."""
    found = about_a_contact()
    for name in (
        "contacts", "timeline_events", "leads", "consent_artifacts", "messages", "calls",
        "appointments", "tasks", "deals", "automation_enrolments", "automation_step_runs",
        "outbox_events", "webhook_deliveries", "idempotency_keys", "suppressions",
        "imports", "import_errors", "campaign_enrolments", "dnc_registrations",
    ):  # fmt: skip
        assert name in found, name


def test_the_lists_name_real_tables_once_with_reasons():
    named = [table for scrubber in SCRUBBERS for table in scrubber.tables]
    assert len(named) == len(set(named)), "a table is scrubbed by one scrubber"
    assert not set(named) & set(KEPT), "a table is scrubbed or kept, not both"
    assert set(named) | set(KEPT) <= set(TABLES), "no stale table names"
    assert set(KEPT) <= set(about_a_contact()), "kept tables are ones the walk finds"
    assert all(len(reason.split()) >= 5 for reason in KEPT.values()), "a reason per kept table"
    assert len({scrubber.name for scrubber in SCRUBBERS}) == len(SCRUBBERS)
    assert SCRUBBERS[0].tables == ("contacts",), "the contact's own row first"
    assert SCRUBBERS[-1].tables == ("outbox_events",), "the stored events last"


def test_nothing_registers_a_scrubber_by_being_imported():
    """The erasure code imported alone has every scrubber: nothing depends on the app
    having imported the domains first, and no domain appends to a list of another."""
    script = "from homebase.erasure.service import SCRUBBERS; print(len(SCRUBBERS))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == [str(len(SCRUBBERS))]
