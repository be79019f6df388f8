"""SMS and WhatsApp through a Twilio-compatible REST API at HOMEBASE_TWILIO_BASE_URL.

POST {base}/2010-04-01/Accounts/{sid}/Messages.json, form-encoded To, From, Body and
StatusCallback, HTTP Basic auth sid:token; WhatsApp addresses carry "whatsapp:".
A 2xx answer's `sid` is the provider message id; anything else is a refusal whose
`message` (or status line) becomes the failure reason. Failing to connect is NOT_SENT
(the request never left; retried); a transport error after that (a timeout waiting for
the answer, a dropped connection) is UNKNOWN: the API may have queued the text.
"""

import httpx

from homebase.config import Settings
from homebase.providers.base import NOT_SENT, UNKNOWN, Outbound, ProviderResult, unsendable


def _address(channel: str, number: str) -> str:
    return f"whatsapp:{number}" if channel == "WHATSAPP" else number


class TwilioProvider:
    name = "twilio"

    def __init__(self, settings: Settings):
        self.settings = settings

    @property
    def url(self) -> str:
        base = self.settings.twilio_base_url.rstrip("/")
        return f"{base}/2010-04-01/Accounts/{self.settings.twilio_account_sid}/Messages.json"

    async def send(self, message: Outbound) -> ProviderResult:
        refused = unsendable(message)
        if refused is not None:
            return refused
        form = {
            "To": _address(message.channel, message.to_address),
            "From": _address(message.channel, message.from_address),
            "Body": message.body,
        }
        if message.status_callback:
            form["StatusCallback"] = message.status_callback
        auth = (self.settings.twilio_account_sid, self.settings.twilio_auth_token)
        try:
            async with httpx.AsyncClient(
                timeout=self.settings.messaging_provider_timeout_seconds
            ) as client:
                response = await client.post(self.url, data=form, auth=auth)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol) as error:
            return ProviderResult(
                accepted=False,
                failure=NOT_SENT,
                error=f"twilio unreachable: {type(error).__name__}: {error}",
            )
        except httpx.HTTPError as error:
            return ProviderResult(
                accepted=False,
                failure=UNKNOWN,
                error=f"twilio answer lost: {type(error).__name__}: {error}",
            )
        return _result(response)


def _result(response: httpx.Response) -> ProviderResult:
    try:
        payload = response.json()
    except ValueError:
        payload = {}
    if not isinstance(payload, dict):
        payload = {}
    if response.is_success and payload.get("sid"):
        return ProviderResult(
            accepted=True, provider_message_id=str(payload["sid"]), status=payload.get("status")
        )
    detail = payload.get("message") or response.reason_phrase or "no reason given"
    code = f" (code {payload['code']})" if payload.get("code") else ""
    return ProviderResult(
        accepted=False, error=f"twilio HTTP {response.status_code}{code}: {detail}"[:500]
    )
