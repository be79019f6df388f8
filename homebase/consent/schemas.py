import re
from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$")


def _uri(value: str) -> str:
    if not _URI.match(value):
        raise ValueError("must be an absolute URI such as https://example.com/form")
    return value


Uri = Annotated[str, StringConstraints(max_length=2048), AfterValidator(_uri),
                Field(json_schema_extra={"format": "uri"})]


class ConsentIn(BaseModel):
    """Evidence of consent captured with the lead; every member is optional."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "captured_at": "2026-11-20T17:03:58Z",
        "source_url": "https://demo-realty.example/contact",
        "ip": "203.0.113.7",
        "form_snapshot": {"consent_text": "I agree to be contacted by Demo Realty, "
                                          "including by automated text and AI calls.",
                          "checkbox": True}}]})

    captured_at: datetime | None = Field(None, description="When the person consented; "
                                                           "defaults to when it was recorded.")
    source_url: Uri | None = None
    ip: Annotated[str, StringConstraints(max_length=64)] | None = None
    form_snapshot: dict[str, Any] | None = None


class ConsentOut(BaseModel):
    id: str
    captured_at: datetime
    recorded_at: datetime
    expires_at: datetime
    source_url: str | None
    ip: str | None
