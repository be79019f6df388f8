"""The compliance gates every send passes, in the spec's order, as one pure function.

    evaluate(workspace, recipient, channel, now, window) -> Allowed | Blocked

No I/O: callers (messaging/service.py at request time, messaging/jobs.py again just
before the provider is called) load the state into these dataclasses. The first
refusing gate wins; its `reason` is the category in "Blocked (<reason>): <text>".

1. account_suspended  a suspended workspace sends nothing, on any channel (suspension is
                      this gate and nothing else: its keys, tokens, console, webhooks
                      and OAuth go on; docs/messaging.md)
2. opted_out          the address is suppressed (STOP reply, bounce, manual entry)
3. a2p_not_approved   SMS/WhatsApp need a sending number the carrier approved
4. quiet_hours        proactive texts only inside the window in the recipient's local
                      time, in every zone the area code maps to, within the stricter
                      rule of the number's state (compliance/lawful_hours.py: its days
                      and hours); no zone -> refused
5. consent_missing    proactive texts need an unexpired, unrevoked consent artifact
6. attempt_limit      of the consent family: a state that limits proactive contacts per
                      number (Florida, Oklahoma, Maryland: 3 per 24 hours on the same
                      subject, the workspace) refuses one more

Gates 3-5 concern texts (SMS and WhatsApp); email's hard gate is the suppression list.

`confirmation=True` is the one text that passes every gate but the opt-out gate: the
confirmation of an opt-out, which the carrier requires (messaging/confirmation.py).
"""

from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from homebase.compliance import lawful_hours
from homebase.compliance.lawful_hours import SendingWindow as SendingWindow
from homebase.compliance.timezones import zones_for_number
from homebase.kit.masking import mask_phone

TEXT_CHANNELS = frozenset({"SMS", "WHATSAPP"})


@dataclass(frozen=True)
class WorkspaceState:
    status: str  # active | suspended


@dataclass(frozen=True)
class SenderState:
    number: str
    a2p_status: str  # approved | pending | rejected


@dataclass(frozen=True)
class RecipientState:
    address: str  # E.164 for texts, lower-case email for email
    suppression: str | None = None  # why the address is suppressed, None when it is not
    proactive: bool = True  # no inbound from this address within the reply window
    has_consent: bool = False
    sender: SenderState | None = None  # the number the text would leave from
    zones: tuple[str, ...] | None = field(default=None)  # None: resolve from the address
    state: str | None = None  # the number's US state; None: resolve from the address
    # When this workspace's proactive texts reached the number in the last 24 hours
    # (loaded only for a state with an attempt limit: compliance/lawful_hours.py).
    attempts: tuple[datetime, ...] = ()


@dataclass(frozen=True)
class Allowed:
    allowed: bool = True


@dataclass(frozen=True)
class Blocked:
    reason: str
    text: str
    allowed: bool = False

    @property
    def message(self) -> str:
        return f"Blocked ({self.reason}): {self.text}"


Decision = Allowed | Blocked


def evaluate(
    workspace: WorkspaceState,
    recipient: RecipientState,
    channel: str,
    now: datetime,
    window: SendingWindow = SendingWindow(),
    *,
    confirmation: bool = False,
) -> Decision:
    gates = _CONFIRMATION_GATES if confirmation else _GATES
    for gate in gates:
        decision = gate(workspace, recipient, channel, now, window)
        if decision is not None:
            return decision
    return Allowed()


def _account(
    workspace: WorkspaceState,
    recipient: RecipientState,
    channel: str,
    now: datetime,
    window: SendingWindow,
) -> Blocked | None:
    if workspace.status != "active":
        return Blocked(
            "account_suspended",
            f"The workspace is {workspace.status}; it sends nothing on any channel.",
        )
    return None


def _suppression(
    workspace: WorkspaceState,
    recipient: RecipientState,
    channel: str,
    now: datetime,
    window: SendingWindow,
) -> Blocked | None:
    if recipient.suppression is not None:
        return Blocked(
            "opted_out",
            f"The recipient is on the workspace's suppression list ({recipient.suppression}).",
        )
    return None


def _a2p(
    workspace: WorkspaceState,
    recipient: RecipientState,
    channel: str,
    now: datetime,
    window: SendingWindow,
) -> Blocked | None:
    if channel not in TEXT_CHANNELS:
        return None
    sender = recipient.sender
    if sender is None:
        return Blocked(
            "a2p_not_approved", f"The workspace has no {channel} sending number registered."
        )
    if sender.a2p_status != "approved":
        return Blocked(
            "a2p_not_approved",
            f"The sending number {mask_phone(sender.number)} is {sender.a2p_status}, "
            "not carrier-approved (A2P 10DLC).",
        )
    return None


def local_times(zones: tuple[str, ...], now: datetime) -> list[tuple[str, datetime]]:
    return [(name, now.astimezone(ZoneInfo(name))) for name in zones]


def _quiet_hours(
    workspace: WorkspaceState,
    recipient: RecipientState,
    channel: str,
    now: datetime,
    window: SendingWindow,
) -> Blocked | None:
    if channel not in TEXT_CHANNELS or not recipient.proactive:
        return None
    zones = recipient.zones if recipient.zones is not None else zones_for_number(recipient.address)
    why = lawful_hours.refusal(now, zones, _rule(recipient), window)
    return Blocked("quiet_hours", why) if why is not None else None


def _rule(recipient: RecipientState) -> lawful_hours.StateRule | None:
    state = recipient.state or lawful_hours.state_for_number(recipient.address)
    return lawful_hours.rule_for(state)


def _consent(
    workspace: WorkspaceState,
    recipient: RecipientState,
    channel: str,
    now: datetime,
    window: SendingWindow,
) -> Blocked | None:
    if channel not in TEXT_CHANNELS or not recipient.proactive or recipient.has_consent:
        return None
    return Blocked(
        "consent_missing",
        "No unexpired consent artifact exists for the "
        "recipient's number; proactive texts need one.",
    )


def _attempt_limit(
    workspace: WorkspaceState,
    recipient: RecipientState,
    channel: str,
    now: datetime,
    window: SendingWindow,
) -> Blocked | None:
    if channel not in TEXT_CHANNELS or not recipient.proactive:
        return None
    why = lawful_hours.attempt_refusal(_rule(recipient), recipient.attempts)
    return Blocked("attempt_limit", why) if why is not None else None


_GATES = (_account, _suppression, _a2p, _quiet_hours, _consent, _attempt_limit)
_CONFIRMATION_GATES = tuple(gate for gate in _GATES if gate is not _suppression)
