"""Webhook subscriptions in the console: list, create (the secret shown once), delete, and
each one's delivery log with redeliver.

The rules (URL safety, event catalogue, sealed secrets, cancelling pending deliveries,
redelivery) are homebase/webhooks/service.py's, called with a member principal; an
ApiError it raises is shown on the page, with the transaction rolled back."""

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import Response

from homebase.auth.principal import Principal
from homebase.auth.scopes import ALL_SCOPES, expand
from homebase.console.common import (
    csrf_input,
    field,
    keyset_page,
    member_page,
    member_session,
    posted_form,
    see_other,
    signed_in,
)
from homebase.console.pages import ConsolePageError, e, message_box
from homebase.console.sessions import Member
from homebase.console.webhook_creators import MEMBER_KIND, describe
from homebase.http.errors import field_errors
from homebase.kit.clock import isoformat
from homebase.kit.errors import ApiError, NotFound
from homebase.outbox.catalogue import EVENT_TYPES
from homebase.runtime import get_runtime
from homebase.webhooks import repository, service
from homebase.webhooks.safety import look_up_url
from homebase.webhooks.schemas import WebhookCreate

router = APIRouter(include_in_schema=False)
PATH = "/console/webhooks"
CREDENTIAL_KIND = MEMBER_KIND


def member_principal(member: Member) -> Principal:
    """Members hold every scope in their own workspace (v1 has no roles)."""
    return Principal(workspace_id=member.workspace_id, scopes=expand(ALL_SCOPES),
                     granted_scopes=ALL_SCOPES, credential_kind=CREDENTIAL_KIND,
                     credential_id=member.user_id, rate_limit_bucket=f"console:{member.user_id}",
                     rate_limit_per_min=0)


def _not_found(error: ApiError) -> ConsolePageError:
    return ConsolePageError(error.status, "Not found" if error.status == 404 else "Refused",
                            error.message)


def _create_form(request: Request, member: Member, url: str, chosen: list[str],
                 errors: list[str]) -> str:
    boxes = "".join(
        f"<label><input type=\"checkbox\" name=\"event_types\" value=\"{e(name)}\""
        f"{' checked' if name in chosen else ''}> <code>{e(name)}</code></label>"
        for name in EVENT_TYPES)
    return ("<h2>Add a subscription</h2>" + "".join(message_box(text) for text in errors)
            + f"<form method=\"post\" action=\"{PATH}\">{csrf_input(request, member)}"
            "<label>URL <input type=\"url\" name=\"url\" maxlength=\"2048\" required "
            f"value=\"{e(url)}\"></label><fieldset><legend>Events (none ticked: every event)"
            f"</legend>{boxes}</fieldset><button type=\"submit\">Subscribe</button></form>")


async def _list_page(request: Request, member: Member, *, url: str = "",
                     chosen: list[str] | None = None, errors: list[str] | None = None,
                     notice: str | None = None, status: int = 200) -> Response:
    async with member_session(request, member) as session:
        rows, older = await keyset_page(
            request, session,
            lambda after, limit: repository.list_statement(session, after_id=after, limit=limit))
        creators = await describe(session, rows)
    lines = "".join(
        f"<tr id=\"{e(row['id'])}\"><td><a href=\"{PATH}/{e(row['id'])}\">{e(row['url'])}</a>"
        f"</td><td>{e(' '.join(row['event_types']) or 'every event')}</td>"
        f"<td><code>{e(row['secret_hint'])}…</code></td><td>{creators[row['id']]}</td>"
        f"<td>{e(isoformat(row['created_at']))}"
        f"</td><td><form method=\"post\" action=\"{PATH}/{e(row['id'])}/delete\">"
        f"{csrf_input(request, member)}<button type=\"submit\">Delete</button></form></td></tr>"
        for row in rows)
    table = ("<table><thead><tr><th>URL</th><th>Events</th><th>Secret</th><th>Created by</th>"
             "<th>Created</th>"
             f"<th></th></tr></thead><tbody>{lines}</tbody></table>" if rows
             else "<p>No webhook subscriptions yet.</p>")
    body = (message_box(notice, "notice") + table + older
            + _create_form(request, member, url, chosen or [], errors or []))
    return member_page(request, member, "Webhooks", body, status)


@router.get(PATH)
async def list_webhooks(request: Request, deleted: str | None = None) -> Response:
    member = await signed_in(request)
    return await _list_page(request, member,
                            notice="The subscription was deleted." if deleted else None)


@router.post(PATH)
async def create_webhook(request: Request) -> Response:
    member = await signed_in(request)
    form = await posted_form(request, member)
    url = field(form, "url")
    chosen = [value for value in form.getlist("event_types") if isinstance(value, str)]
    try:
        body = WebhookCreate(url=url, event_types=chosen)
    except ValidationError as invalid:
        errors = [f"{item['field']}: {item['message']}"
                  for item in field_errors(invalid.errors())]
        return await _list_page(request, member, url=url, chosen=chosen, errors=errors,
                                status=400)
    runtime = get_runtime(request)
    # Resolved before the transaction opens, as on the API (docs/webhooks.md).
    answers = await look_up_url(body.url, runtime.settings, runtime.resolver)
    try:
        async with member_session(request, member, write=True) as session:
            row, secret = await service.create_subscription(
                session, member_principal(member), body, runtime.settings, answers)
    except ApiError as refused:
        return await _list_page(request, member, url=url, chosen=chosen,
                                errors=[refused.message], status=refused.status)
    page = ("<p>Deliveries are signed with this secret. Copy it now: it is shown only once."
            f"</p><p class=\"secret\" id=\"new-secret\">{e(secret)}</p>"
            f"<p>URL: {e(row['url'])}</p><p><a href=\"{PATH}\">Back to webhooks</a></p>")
    return member_page(request, member, "Webhook subscription created", page, no_store=True)


@router.post(PATH + "/{subscription_id}/delete")
async def delete_webhook(request: Request, subscription_id: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    try:
        async with member_session(request, member, write=True) as session:
            await service.delete_subscription(session, subscription_id)
    except NotFound as missing:
        raise _not_found(missing) from None
    return see_other(f"{PATH}?deleted=1")


@router.get(PATH + "/{subscription_id}")
async def delivery_log(request: Request, subscription_id: str,
                       redelivered: str | None = None) -> Response:
    member = await signed_in(request)
    async with member_session(request, member) as session:
        subscription = await repository.get_active(session, subscription_id)
        if subscription is None:
            raise ConsolePageError(404, "Not found", "No such webhook subscription.")
        rows, older = await keyset_page(
            request, session, lambda after, limit: repository.deliveries_statement(
                session, subscription_id, after_id=after, limit=limit))
        attempts = await repository.attempts_of(session, [row["id"] for row in rows])
        creator = (await describe(session, [subscription]))[subscription_id]
    lines = "".join(_delivery_row(request, member, subscription_id, row, attempts[row["id"]])
                    for row in rows)
    table = ("<table><thead><tr><th>Event</th><th>Status</th><th>Attempts</th>"
             "<th>Last answer</th><th>Created</th><th></th></tr></thead>"
             f"<tbody>{lines}</tbody></table>" if rows else "<p>No deliveries yet.</p>")
    notice = message_box("The delivery is due again now." if redelivered else None, "notice")
    body = (f"{notice}<p>URL: <code>{e(subscription['url'])}</code></p>"
            f"<p>Created by: {creator}</p>"
            f"<h2>Deliveries</h2>{table}{older}<p><a href=\"{PATH}\">All webhooks</a></p>")
    return member_page(request, member, "Webhook deliveries", body)


def _delivery_row(request: Request, member: Member, subscription_id: str, row: dict,
                  attempts: list[dict]) -> str:
    action = f"{PATH}/{e(subscription_id)}/deliveries/{e(row['id'])}/redeliver"
    log = "<br>".join(
        f"#{e(item['number'])} {e(item['outcome'])} {e(item['status_code'] or '')} "
        f"{e(item['error'] or '')} {e(isoformat(item['started_at']))}" for item in attempts)
    last = row["last_status_code"] or row["last_error"] or ""
    return (f"<tr id=\"{e(row['id'])}\"><td><code>{e(row['event_type'])}</code><br>"
            f"{e(row['event_id'])}</td><td>{e(row['status'])}</td><td>{e(row['attempts'])}"
            f"<br><small>{log}</small></td><td>{e(last)}</td>"
            f"<td>{e(isoformat(row['created_at']))}</td><td><form method=\"post\" "
            f"action=\"{action}\">{csrf_input(request, member)}"
            "<button type=\"submit\">Redeliver</button></form></td></tr>")


@router.post(PATH + "/{subscription_id}/deliveries/{delivery_id}/redeliver")
async def redeliver(request: Request, subscription_id: str, delivery_id: str) -> Response:
    member = await signed_in(request)
    await posted_form(request, member)
    try:
        async with member_session(request, member, write=True) as session:
            await service.redeliver(session, subscription_id, delivery_id)
    except ApiError as refused:
        raise _not_found(refused) from None
    return see_other(f"{PATH}/{subscription_id}?redelivered=1")

