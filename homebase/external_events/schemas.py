"""The data of each externally caused event; docs/automations.md lists them."""

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from homebase.kit.schema_rules import Moment

Ref = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class DocumentSigned(BaseModel):
    model_config = ConfigDict(extra="forbid")

    document_id: Ref = Field(description="The signing service's document id.")
    name: Title
    deal_id: Id | None = Field(None, description="A deal of this workspace.")
    contact_id: Id | None = Field(None, description="A contact of this workspace.")
    signer_name: Annotated[str, StringConstraints(max_length=120)] | None = None
    signed_at: Moment | None = Field(None, description="Default: now.")


class SavedSearchSent(BaseModel):
    model_config = ConfigDict(extra="forbid")

    saved_search_id: Ref
    name: Title
    contact_id: Id = Field(description="A contact of this workspace: who got the digest.")
    listing_ids: Annotated[list[Id], Field(max_length=50)] = Field(
        default_factory=list, description="Listings of this workspace in the digest."
    )
    channel: Annotated[str, StringConstraints(pattern="^(EMAIL|SMS)$")] = "EMAIL"
    sent_at: Moment | None = Field(None, description="Default: now.")


SCHEMAS: dict[str, type[BaseModel]] = {
    "document.signed": DocumentSigned,
    "saved_search.sent": SavedSearchSent,
}
