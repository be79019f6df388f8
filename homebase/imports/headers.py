"""What the columns and values of the common CRMs' exports mean: the table the console's
mapping page pre-selects from, and the synonyms it pre-fills value mapping with
(docs/imports-exports.md, "Headers the mapping recognizes" and "Value synonyms").

Pure data and lookups; no HTTP, no database. A header is compared normalized: lower case,
letters and digits only ("E-mail Address" and "email_address" are both "emailaddress").
"""

from collections.abc import Sequence
from dataclasses import dataclass

from homebase.contacts.schemas import ContactStage

# field -> the headers that name it, as Follow Up Boss, kvCORE/BoldTrail, Lofty, HubSpot,
# Salesforce and Google Contacts export them, and the usual plain words.
HEADERS: dict[str, tuple[str, ...]] = {
    "first_name": ("First Name", "First", "Given Name", "Firstname", "Name: First"),
    "last_name": ("Last Name", "Last", "Surname", "Family Name", "Lastname", "Name: Last"),
    "email": (
        "Email",
        "Email 1",
        "Email Address",
        "E-mail",
        "E-mail Address",
        "E-mail 1 - Value",
        "Primary Email",
        "Personal Email",
        "Mail",
    ),
    "phone": (
        "Phone",
        "Phone 1",
        "Phone Number",
        "Phone 1 - Value",
        "Mobile Phone",
        "Mobile Phone Number",
        "Mobile",
        "Cell",
        "Cell Phone",
        "Primary Phone",
        "Telephone",
        "Home Phone",
    ),
    "stage": (
        "Stage",
        "Status",
        "Lead Status",
        "Lifecycle Stage",
        "Contact Stage",
        "Pipeline Stage",
    ),
    "source": ("Source", "Lead Source", "Original Source", "Lead Type", "Source Name"),
    "tags": ("Tags", "Labels", "Hashtags", "Groups", "Group Membership", "Tag"),
    "notes": ("Notes", "Note", "Background", "Description", "Comments", "About"),
    "owner_id": (
        "Assigned To",
        "Assigned Agent",
        "Agent",
        "Lead Owner",
        "Contact Owner",
        "Owner",
        "Assigned User",
    ),
    "source_ref": ("Source Ref", "Reference", "External ID", "Source ID", "Record ID", "Lead ID"),
}

# The common stage names of those CRMs (FUB's stages, HubSpot's lifecycle stages,
# Salesforce's lead statuses, kvCORE's and Lofty's statuses), normalized, and ours.
STAGES: dict[str, ContactStage] = {
    "lead": ContactStage.LEAD,
    "new": ContactStage.LEAD,
    "newlead": ContactStage.LEAD,
    "prospect": ContactStage.LEAD,
    "subscriber": ContactStage.LEAD,
    "marketingqualifiedlead": ContactStage.LEAD,
    "opennotcontacted": ContactStage.LEAD,
    "workingcontacted": ContactStage.LEAD,
    "attemptedcontact": ContactStage.LEAD,
    "hot": ContactStage.HOT_LEAD,
    "hotlead": ContactStage.HOT_LEAD,
    "hotprospect": ContactStage.HOT_LEAD,
    "salesqualifiedlead": ContactStage.HOT_LEAD,
    "opportunity": ContactStage.HOT_LEAD,
    "qualified": ContactStage.HOT_LEAD,
    "appointmentset": ContactStage.HOT_LEAD,
    "nurture": ContactStage.NURTURE,
    "warm": ContactStage.NURTURE,
    "cold": ContactStage.NURTURE,
    "watch": ContactStage.NURTURE,
    "longterm": ContactStage.NURTURE,
    "active": ContactStage.ACTIVE_CLIENT,
    "activeclient": ContactStage.ACTIVE_CLIENT,
    "client": ContactStage.ACTIVE_CLIENT,
    "undercontract": ContactStage.ACTIVE_CLIENT,
    "pending": ContactStage.ACTIVE_CLIENT,
    "closedconverted": ContactStage.ACTIVE_CLIENT,
    "closed": ContactStage.PAST_CLIENT,
    "pastclient": ContactStage.PAST_CLIENT,
    "sold": ContactStage.PAST_CLIENT,
    "customer": ContactStage.PAST_CLIENT,
    "sphere": ContactStage.SPHERE,
    "sphereofinfluence": ContactStage.SPHERE,
    "soi": ContactStage.SPHERE,
    "friendsfamily": ContactStage.SPHERE,
    "trash": ContactStage.TRASH,
    "junk": ContactStage.TRASH,
    "archived": ContactStage.TRASH,
    "unqualified": ContactStage.TRASH,
    "closednotconverted": ContactStage.TRASH,
    "donotcontact": ContactStage.TRASH,
}

TRUE = ("yes", "y", "true", "t", "1", "x")
FALSE = ("no", "n", "false", "f", "0")


def normalized(text: str) -> str:
    return "".join(char for char in text.lower() if char.isalnum())


_BY_HEADER = {normalized(header): field for field, names in HEADERS.items() for header in names}


@dataclass(frozen=True)
class Guess:
    field: str
    reason: str  # what the page shows beside the pre-selection


def guess(
    columns: Sequence[str], fields: Sequence[str], custom: Sequence[tuple[str, str]] = ()
) -> dict[str, Guess]:
    """{column: guess} for the columns whose header names a field: a custom field's key
    or label (`custom`: (key, label) pairs; mapped as custom_fields.<key>), else the
    table above. Each field once, the first column naming it."""
    by_custom: dict[str, tuple[str, str]] = {}
    for key, label in custom:
        by_custom.setdefault(normalized(label), (key, f"matches the custom field {label!r}"))
        by_custom.setdefault(normalized(key), (key, f"matches the custom field's key {key!r}"))
    guesses: dict[str, Guess] = {}
    taken: set[str] = set()
    for column in columns:
        name = normalized(column)
        found = by_custom.get(name)
        if found is not None:
            field, reason = "custom_fields." + found[0], found[1]
        elif (table := _BY_HEADER.get(name)) is not None:
            field, reason = table, f"matches {column!r}, a header {field_word(table)}"
        else:
            continue
        if field in taken or not (field in fields or field.startswith("custom_fields.")):
            continue
        taken.add(field)
        guesses[column] = Guess(field, reason)
    return guesses


def field_word(field: str) -> str:
    return f"CRMs export for {field}"


def stage_of(value: str) -> ContactStage | None:
    """A stage name as those CRMs write it, or one of ours in any case and spacing."""
    name = normalized(value)
    for stage in ContactStage:
        if normalized(stage.value) == name:
            return stage
    return STAGES.get(name)


def boolean_of(value: str) -> bool | None:
    lowered = value.strip().lower()
    return True if lowered in TRUE else False if lowered in FALSE else None
