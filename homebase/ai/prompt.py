"""What a model is given and what it answers: the one shape every provider speaks.

The service alone builds a Prompt (ai/context.py): the model has no tools and sees
nothing but what is here. A provider turns it into its own protocol and its answer
into a ModelAnswer, or raises ModelFailure (an error or a timeout: the job tries again
after a backoff, then hands the lead off).
"""

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Speaker = Literal["lead", "assistant", "agent"]


@dataclass(frozen=True)
class Turn:
    """One message of the conversation, oldest first: the lead's text, an earlier AI
    reply (`assistant`) or a person's message from the workspace (`agent`)."""

    speaker: Speaker
    text: str


@dataclass(frozen=True)
class ListingFacts:
    """An active listing of the workspace, when the conversation is about a property."""

    address: str
    city: str
    price: str | None  # "$612,000"
    beds: int | None
    baths: float | None
    url: str | None


@dataclass(frozen=True)
class Prompt:
    instructions: str  # the persona's, what the assistant is for
    persona_name: str
    tone: str
    first_name: str | None  # the contact's first name only
    stage: str
    lead_source: str | None
    lead_context: dict[str, Any] = field(default_factory=dict)  # allow-listed keys, masked
    conversation: tuple[Turn, ...] = ()  # the last messages, oldest first
    listings: tuple[ListingFacts, ...] = ()
    links: tuple[str, ...] = ()  # the only URLs a reply may carry
    phone: str | None = None  # the only number a reply may carry
    max_characters: int = 306  # what fits the reply's two segments after disclosure


@dataclass(frozen=True)
class ModelAnswer:
    reply: str | None  # the text to send, or None
    handoff: bool = False
    handoff_reason: str | None = None
    # The lead's texts revoke consent: the service suppresses the number and sends only
    # the opt-out's confirmation, never `reply` (ai/service.opt_out).
    opt_out: bool = False


class ModelFailure(Exception):
    """The model could not answer: an error, a refusal of the request, or a timeout."""


class Responder(Protocol):
    name: str  # in metrics and logs: local | openai

    async def answer(self, prompt: Prompt) -> ModelAnswer: ...
