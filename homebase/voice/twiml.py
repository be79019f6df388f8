"""The TwiML the service answers the provider with (docs/voice.md, "Placing a call")."""

from xml.sax.saxutils import escape, quoteattr

HEAD = '<?xml version="1.0" encoding="UTF-8"?>'


def connect(action_url: str, relay_url: str, greeting: str) -> str:
    """A call handed to ConversationRelay: `greeting` is spoken first and cannot be
    interrupted; when the relay ends (`end`), the provider asks `action_url` what next."""
    relay = (
        f"<ConversationRelay url={quoteattr(relay_url)} welcomeGreeting={quoteattr(greeting)}"
        ' welcomeGreetingInterruptible="none" interruptible="any" dtmfDetection="true" />'
    )
    return f"{HEAD}<Response><Connect action={quoteattr(action_url)}>{relay}</Connect></Response>"


def dial(number: str, caller_id: str | None) -> str:
    """A warm transfer: the lead is connected to `number` (a member's phone)."""
    caller = f" callerId={quoteattr(caller_id)}" if caller_id else ""
    return f"{HEAD}<Response><Dial{caller}><Number>{escape(number)}</Number></Dial></Response>"


def hangup() -> str:
    return f"{HEAD}<Response><Hangup/></Response>"


def say_then_hangup(text: str) -> str:
    """A voicemail: `text` spoken after the beep, then the call ends."""
    return f"{HEAD}<Response><Say>{escape(text)}</Say><Hangup/></Response>"
