"""Email over SMTP with the standard library, in a worker thread (never on the loop)."""

import asyncio
import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

from homebase.config import Settings
from homebase.providers.base import Outbound, ProviderResult


class SmtpProvider:
    name = "smtp"

    def __init__(self, settings: Settings):
        self.settings = settings

    def _build(self, message: Outbound) -> EmailMessage:
        email = EmailMessage()
        email["From"] = message.from_address
        email["To"] = message.to_address
        email["Subject"] = message.subject or ""
        domain = message.from_address.rpartition("@")[2] or None
        email["Message-ID"] = make_msgid(idstring=message.message_id, domain=domain)
        email["X-Homebase-Message-Id"] = message.message_id
        email.set_content(message.body)
        return email

    def _deliver(self, email: EmailMessage) -> None:
        settings = self.settings
        with smtplib.SMTP(settings.smtp_host, settings.smtp_port,
                          timeout=settings.messaging_provider_timeout_seconds) as client:
            if settings.smtp_starttls:
                client.starttls()
            if settings.smtp_username:
                client.login(settings.smtp_username, settings.smtp_password)
            client.send_message(email)

    async def send(self, message: Outbound) -> ProviderResult:
        email = self._build(message)
        try:
            await asyncio.to_thread(self._deliver, email)
        except (smtplib.SMTPException, OSError) as error:
            return ProviderResult(accepted=False,
                                  error=f"SMTP {type(error).__name__}: {error}"[:500])
        return ProviderResult(accepted=True, provider_message_id=email["Message-ID"],
                              status="sent")
