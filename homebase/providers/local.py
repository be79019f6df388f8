"""The embedded default: records sends in this process instead of reaching a carrier,
so `make run` works offline. The message row itself is the durable record. It refuses
what a real provider would be refused (base.unsendable), so local runs show the same."""

import logging
from collections import deque

from homebase.providers.base import Outbound, ProviderResult, unsendable

log = logging.getLogger("homebase.providers.local")
RECORDED: deque[Outbound] = deque(maxlen=1000)  # the latest sends, for tests and demos


class LocalProvider:
    name = "local"

    async def send(self, message: Outbound) -> ProviderResult:
        refused = unsendable(message)
        if refused is not None:
            return refused
        RECORDED.append(message)
        log.info("local provider recorded %s %s", message.channel, message.message_id)
        return ProviderResult(
            accepted=True, provider_message_id=f"local_{message.message_id}", status="sent"
        )
