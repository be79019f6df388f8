"""The header table the mapping pre-selects from, on the headers real CRMs export, and
the value synonyms."""

import pytest

from homebase.contacts.schemas import ContactStage
from homebase.imports import headers
from homebase.imports.csv_rows import CONTACT_FIELDS, suggested_mapping
from homebase.imports.schemas import ImportObject

# The first row of each CRM's contacts export (columns trimmed to the people's fields).
EXPORTS = {
    "Follow Up Boss": (
        "First Name,Last Name,Stage,Source,Assigned To,Email 1,Email 2,Phone 1,Phone 2,"
        "Tags,Background,Lender",
        {
            "First Name": "first_name",
            "Last Name": "last_name",
            "Stage": "stage",
            "Source": "source",
            "Assigned To": "owner_id",
            "Email 1": "email",
            "Phone 1": "phone",
            "Tags": "tags",
            "Background": "notes",
        },
    ),
    "kvCORE / BoldTrail": (
        "First Name,Last Name,Email,Cell Phone,Home Phone,Status,Source,Assigned Agent,"
        "Hashtags,Notes",
        {
            "First Name": "first_name",
            "Last Name": "last_name",
            "Email": "email",
            "Cell Phone": "phone",
            "Status": "stage",
            "Source": "source",
            "Assigned Agent": "owner_id",
            "Hashtags": "tags",
            "Notes": "notes",
        },
    ),
    "Lofty": (
        "First Name,Last Name,Email,Phone,Stage,Lead Source,Agent,Tags,Note",
        {
            "First Name": "first_name",
            "Last Name": "last_name",
            "Email": "email",
            "Phone": "phone",
            "Stage": "stage",
            "Lead Source": "source",
            "Agent": "owner_id",
            "Tags": "tags",
            "Note": "notes",
        },
    ),
    "HubSpot": (
        "Record ID,First Name,Last Name,Email,Phone Number,Mobile Phone Number,Contact owner,"
        "Lifecycle Stage,Original Source",
        {
            "First Name": "first_name",
            "Last Name": "last_name",
            "Email": "email",
            "Phone Number": "phone",
            "Contact owner": "owner_id",
            "Lifecycle Stage": "stage",
            "Original Source": "source",
        },
    ),
    "Salesforce": (
        "Lead ID,First Name,Last Name,Email,Phone,Mobile,Lead Owner,Lead Status,Lead Source,"
        "Description",
        {
            "First Name": "first_name",
            "Last Name": "last_name",
            "Email": "email",
            "Phone": "phone",
            "Lead Owner": "owner_id",
            "Lead Status": "stage",
            "Lead Source": "source",
            "Description": "notes",
        },
    ),
    "Google Contacts": (
        "First Name,Middle Name,Last Name,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,"
        "Phone 1 - Value,Labels,Notes",
        {
            "First Name": "first_name",
            "Last Name": "last_name",
            "E-mail 1 - Value": "email",
            "Phone 1 - Value": "phone",
            "Labels": "tags",
            "Notes": "notes",
        },
    ),
}


@pytest.mark.parametrize("crm", sorted(EXPORTS))
def test_each_crms_export_is_pre_mapped(crm):
    header, expected = EXPORTS[crm]
    assert suggested_mapping(header.split(","), ImportObject.CONTACTS) == expected


def test_each_guess_says_why_and_custom_fields_match_by_key_or_label():
    columns = ["Email 1", "Pre-Approved", "move_in", "Stage"]
    found = headers.guess(
        columns, CONTACT_FIELDS, [("pre_approved", "Pre-Approved"), ("move_in", "Move-in date")]
    )
    assert {column: guess.field for column, guess in found.items()} == {
        "Email 1": "email",
        "Pre-Approved": "custom_fields.pre_approved",
        "move_in": "custom_fields.move_in",
        "Stage": "stage",
    }
    assert found["Email 1"].reason.startswith("matches 'Email 1'")
    assert found["Pre-Approved"].reason == "matches the custom field 'Pre-Approved'"
    assert found["move_in"].reason == "matches the custom field's key 'move_in'"


def test_leads_are_offered_their_own_fields_only():
    mapped = suggested_mapping(["Phone 1", "Assigned To", "Source"], ImportObject.LEADS)
    assert mapped == {"Phone 1": "phone", "Source": "source"}


@pytest.mark.parametrize(
    ("value", "stage"),
    [
        ("Prospect", ContactStage.LEAD),
        ("Hot Prospect", ContactStage.HOT_LEAD),
        ("Closed", ContactStage.PAST_CLIENT),
        ("salesqualifiedlead", ContactStage.HOT_LEAD),
        ("Closed - Not Converted", ContactStage.TRASH),
        ("active_client", ContactStage.ACTIVE_CLIENT),
        ("Sphere of Influence", ContactStage.SPHERE),
        ("Pending Offer Maybe", None),
    ],
)
def test_stage_synonyms(value, stage):
    assert headers.stage_of(value) is stage


def test_boolean_synonyms():
    assert [
        headers.boolean_of(v) for v in ("yes", "Y", "TRUE", "1", "no", "n", "0", "Pending")
    ] == [
        True,
        True,
        True,
        True,
        False,
        False,
        False,
        None,
    ]
