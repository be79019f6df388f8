"""Email over SMTP with the standard library, in a worker thread (never on the loop).

How far a failed send got decides what the worker may do with it (base.py): failing to
connect, STARTTLS or log in happens before any mail transaction (NOT_SENT, retried); the
server refusing the sender, the recipient or the data is a refusal (FAILED); the
connection breaking during the transaction is UNKNOWN (the server may have taken the
mail before the answer was lost), never retried. The envelope is given explicitly, so
the server is told exactly the checked address, whatever the headers say.

Every email to a contact carries the one-click unsubscribe headers of RFC 8058
(List-Unsubscribe with the HTTPS link, List-Unsubscribe-Post: List-Unsubscribe=One-Click;
a member's invitation, no message to a contact, carries none). The link is long (a
sealed token, messaging/unsubscribe.py), and the mail library folds a header line longer
than its policy's limit into RFC 2047 encoded words, which no mailbox provider reads as a
URL: the message is built with SMTP's own line limit (998) instead of the advisory 78.
"""

import asyncio
import contextlib
import smtplib
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import make_msgid

from homebase.config import Settings
from homebase.providers.base import NOT_SENT, UNKNOWN, Outbound, ProviderResult, unsendable

POLICY = SMTP.clone(max_line_length=998)
ONE_CLICK = "List-Unsubscribe=One-Click"

# The server answered the transaction with a refusal: nothing was accepted.
_REFUSALS = (
    smtplib.SMTPSenderRefused,
    smtplib.SMTPRecipientsRefused,
    smtplib.SMTPDataError,
    smtplib.SMTPHeloError,
    smtplib.SMTPNotSupportedError,
)


def _failed(error: BaseException, failure: str | None) -> ProviderResult:
    return ProviderResult(
        accepted=False, failure=failure, error=f"SMTP {type(error).__name__}: {error}"[:500]
    )


class SmtpProvider:
    name = "smtp"

    def __init__(self, settings: Settings):
        self.settings = settings

    def _build(self, message: Outbound) -> EmailMessage:
        email = EmailMessage(policy=POLICY)
        email["From"] = message.from_address
        email["To"] = message.to_address
        email["Subject"] = message.subject or ""
        domain = message.from_address.rpartition("@")[2] or None
        email["Message-ID"] = make_msgid(idstring=message.message_id, domain=domain)
        email["X-Homebase-Message-Id"] = message.message_id
        if message.unsubscribe_url is not None:
            email["List-Unsubscribe"] = f"<{message.unsubscribe_url}>"
            email["List-Unsubscribe-Post"] = ONE_CLICK
        email.set_content(message.body)
        return email

    def _deliver(self, email: EmailMessage, sender: str, recipient: str) -> ProviderResult | None:
        """None when the server accepted the mail, else the failed result."""
        settings = self.settings
        try:
            client = smtplib.SMTP(
                settings.smtp_host,
                settings.smtp_port,
                timeout=settings.messaging_provider_timeout_seconds,
            )
        except (smtplib.SMTPException, OSError) as error:
            return _failed(error, NOT_SENT)
        try:
            try:
                if settings.smtp_starttls:
                    client.starttls()
                if settings.smtp_username:
                    client.login(settings.smtp_username, settings.smtp_password)
            except (smtplib.SMTPException, OSError) as error:
                return _failed(error, NOT_SENT)
            try:
                client.send_message(email, from_addr=sender, to_addrs=[recipient])
            except _REFUSALS as error:
                return _failed(error, None)
            except (smtplib.SMTPException, OSError) as error:
                return _failed(error, UNKNOWN)
            return None
        finally:
            # The mail is accepted (or not) before QUIT: its answer changes nothing.
            with contextlib.suppress(smtplib.SMTPException, OSError):
                client.quit()
            client.close()

    async def send(self, message: Outbound) -> ProviderResult:
        refused = unsendable(message)
        if refused is not None:
            return refused
        try:
            email = self._build(message)
        except (ValueError, TypeError) as error:  # the mail library's own header checks
            return ProviderResult(accepted=False, error=f"not a valid email: {error}"[:500])
        failed = await asyncio.to_thread(
            self._deliver, email, message.from_address, message.to_address
        )
        if failed is not None:
            return failed
        return ProviderResult(accepted=True, provider_message_id=email["Message-ID"], status="sent")
