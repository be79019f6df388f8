"""The placeholders of a persona's own texts: its `disclosure`, `handoff_reply` and
`signature` (docs/ai.md, "Personas and the model").

`{agent_first_name}`, `{agent_name}`, `{persona_name}` and `{workspace_name}`: the agent
is the contact's owner (a current member), else the workspace's name stands in for both
agent placeholders. A text with any other name in braces, or unbalanced braces, is
refused when the persona is written (load-fixtures, naming the field); `fill` never
raises, so a text stored before the rule still goes out, its unknown placeholders left as
written.
"""

import string

from pydantic import AfterValidator
from typing_extensions import TypedDict

from homebase.automations.records import PersonaRecord
from homebase.contacts.records import ContactRecord
from homebase.db.tenancy import TenantSession
from homebase.members import repository as members

PLACEHOLDERS = ("agent_first_name", "agent_name", "persona_name", "workspace_name")


class Signer(TypedDict):
    """What the placeholders stand for, for one contact."""

    agent_first_name: str
    agent_name: str
    persona_name: str
    workspace_name: str


def _names(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def checked(text: str) -> str:
    """`text`, or ValueError when it holds a placeholder not in PLACEHOLDERS (the error
    names the allowed ones, never the submitted text)."""
    try:
        names = _names(text)
    except ValueError:
        raise ValueError("has unbalanced braces: write {{ or }} for a brace") from None
    if names - set(PLACEHOLDERS):
        allowed = ", ".join("{" + name + "}" for name in PLACEHOLDERS)
        raise ValueError(f"holds a placeholder that is not one of {allowed}")
    return text


# The check, after a field's own constraints: Annotated[str, StringConstraints(...), CHECKED].
CHECKED = AfterValidator(checked)


class _Kept(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(text: str | None, signer: Signer) -> str | None:
    """`text` with its placeholders filled; None stays None. Never raises: an unknown
    placeholder, or braces that do not parse, stay as written."""
    if not text:
        return text
    try:
        return string.Formatter().vformat(text, (), _Kept(**signer))
    except (ValueError, IndexError, KeyError, AttributeError):
        return text


async def signer(session: TenantSession, contact: ContactRecord, persona: PersonaRecord) -> Signer:
    """The placeholders' values for texts to `contact` as `persona`."""
    workspace = await session.workspace()
    workspace_name = str(workspace["name"]) if workspace is not None else ""
    owner = contact["owner_id"]
    agent = await members.current_name(session, owner) if owner else None
    return {
        "agent_first_name": agent.split()[0] if agent else workspace_name,
        "agent_name": agent or workspace_name,
        "persona_name": persona["name"],
        "workspace_name": workspace_name,
    }
