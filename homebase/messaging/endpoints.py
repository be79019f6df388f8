from functools import partial
from typing import Annotated

from fastapi import Depends, Query
from starlette.requests import Request

from homebase.auth.dependencies import Tenant, require
from homebase.auth.principal import Principal
from homebase.auth.scopes import Scope
from homebase.compliance.remedies import REASON_REMEDIES
from homebase.http.lists import paginate
from homebase.http.router import v1_router
from homebase.kit.fields import Projection, field_selector
from homebase.kit.openapi import ONE_ERRORS, READ_ERRORS, error_responses
from homebase.kit.pagination import CHANGES_NOTE, Page, PageBody, PageRequest, page_request
from homebase.kit.responses import Sent, respond
from homebase.messaging import render, repository, service
from homebase.messaging.schemas import Message, MessageCreate, MessageFilters
from homebase.runtime import get_runtime

router = v1_router(prefix="/messages", tags=["messages"])

MessagesRead = Annotated[Principal, require(Scope.messages_read)]
MessagesSend = Annotated[Principal, require(Scope.messages_send)]
MessageFields = Annotated[Projection, Depends(field_selector(Message))]
Pages = Annotated[PageRequest, Depends(page_request)]

SEND_DESCRIPTION = """\
Sends through the same path the product uses. Every send passes the compliance gates,
in this order, and no option disables them:

1. **account_suspended**: a suspended workspace sends nothing, on any channel.
2. **opted_out**: the address is on the suppression list (a STOP reply, a bounce, ...).
3. **a2p_not_approved** (SMS, WhatsApp): the sending number must be carrier-approved.
4. **quiet_hours** (proactive texts): only inside the workspace's window (default
   08:00-20:00) in the recipient's local time, resolved from the area code; a number
   spanning several zones must be inside the window in all of them; no zone: refused.
   The number's state may be stricter (Texas: 09:00-21:00, Sunday from noon; some
   states: no Sundays or named holidays; docs/messaging.md, "Lawful hours by state").
5. **consent_missing** (proactive texts): an unexpired consent artifact for the number.
6. **attempt_limit** (proactive texts, of the consent family): Florida, Oklahoma and
   Maryland numbers get at most 3 proactive texts or calls per 24 hours from the workspace.

A text is *proactive* unless the recipient wrote to the workspace within the reply
window (default 24 hours). Email's hard gate is the suppression list.

A refusal answers 422 `compliance_blocked` with message `Blocked (<reason>): <text>` and
details `{message_id, status: "FAILED", recorded: true, reason}`; the attempt is stored
and listed by GET /messages. Do not retry a recorded refusal in a loop.

A send that passes is recorded QUEUED and answered 201; the background worker hands it
to the provider after the request commits (SENDING, then SENT or FAILED with
failure_reason), and provider status callbacks move it to DELIVERED or FAILED.
`message.sent` fires when the provider accepts it.

A queued send not marked `ai_generated` to a contact (by contact_id, or a `to` that is a
contact's address) is a person stepping in: it pauses the contact's AI auto-response
(ai_auto_response_paused_reason `human_message`; POST /v1/contacts/{id}/ai/resume resumes
it). A refused send pauses nothing.
"""


_BLOCKED_EXAMPLE = {
    "error": {
        "code": "compliance_blocked",
        "message": "Blocked (quiet_hours): It is 21:04 in America/Los_Angeles, a zone of the "
        "recipient's number; proactive texts go out only from 08:00 to 20:00 "
        "recipient local time.",
        "request_id": "req_01jd3v6k8h2k3m4n5p6q7r8s9t",
        "details": {
            "message_id": "msg_01jd3v6k8h2k3m4n5p6q7r8s9t",
            "status": "FAILED",
            "recorded": True,
            "reason": "quiet_hours",
            "remedy": REASON_REMEDIES["quiet_hours"],
        },
    }
}
SEND_ERRORS = error_responses(400, 401, 403, 404, 422, 429)
SEND_ERRORS[422] = {
    **SEND_ERRORS[422],
    "description": "compliance_blocked: a gate refused the send. message is "
    "`Blocked (<reason>): <text>`; details carry message_id "
    "(the recorded FAILED message), status FAILED, recorded "
    "true, reason (the gate) and remedy (what to do next about that gate).",
    "content": {"application/json": {"example": _BLOCKED_EXAMPLE}},
}


def _pii(principal: Principal) -> bool:
    return principal.has(Scope.contacts_read_pii)


@router.get(
    "",
    response_model=Page[Message],
    summary="List messages",
    description="Newest first: sent, queued, refused (FAILED) and received messages."
    + CHANGES_NOTE,
    responses=error_responses(*READ_ERRORS),
)
async def list_messages(
    request: Request,
    principal: MessagesRead,
    session: Tenant,
    page: Pages,
    fields: MessageFields,
    filters: Annotated[MessageFilters, Query()],
) -> Sent[PageBody[Message]]:
    return await paginate(
        request,
        session,
        page,
        repository.listing(session, filters),
        filters=filters,
        updated_after=filters.updated_after,
        render=partial(render.message, pii=_pii(principal)),
        fields=fields,
    )


@router.post(
    "",
    status_code=201,
    response_model=Message,
    summary="Send a text, WhatsApp message or email",
    description=SEND_DESCRIPTION,
    responses=SEND_ERRORS,
)
async def send_message(
    request: Request,
    body: MessageCreate,
    principal: MessagesSend,
    session: Tenant,
    fields: MessageFields,
) -> Sent[Message]:
    settings = get_runtime(request).settings
    row = await service.send_by_person(session, body.root, email_from=settings.email_from)
    return respond(render.message(row, pii=_pii(principal)), fields, 201)


@router.get(
    "/{id}",
    response_model=Message,
    summary="Retrieve a message",
    responses=error_responses(*ONE_ERRORS),
)
async def get_message(
    id: str, principal: MessagesRead, session: Tenant, fields: MessageFields
) -> Sent[Message]:
    row = await service.get_or_404(session, id)
    return respond(render.message(row, pii=_pii(principal)), fields)
