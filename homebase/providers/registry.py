from homebase.config import Settings
from homebase.providers.base import Provider
from homebase.providers.local import LocalProvider
from homebase.providers.smtp import SmtpProvider
from homebase.providers.twilio import TwilioProvider


def provider_for(channel: str, settings: Settings) -> Provider:
    """HOMEBASE_EMAIL_PROVIDER picks email's; HOMEBASE_SMS_PROVIDER SMS and WhatsApp's."""
    if channel == "EMAIL":
        return SmtpProvider(settings) if settings.email_provider == "smtp" else LocalProvider()
    return TwilioProvider(settings) if settings.sms_provider == "twilio" else LocalProvider()
