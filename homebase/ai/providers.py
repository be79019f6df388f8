"""Which model answers: HOMEBASE_AI_PROVIDER (config.py), "local" when unset."""

import asyncio

from homebase.ai.local import LocalResponder
from homebase.ai.prompt import Responder
from homebase.config import Settings

_LOCAL = LocalResponder()  # stateless
# One OpenAIResponder per configuration, kept for the process: its clients (one per
# event loop) hold the connection pool, so a call reuses the connections of the last.
# Keyed by value rather than by the Settings object, so settings rebuilt with the same
# values (tests, a reloaded configuration) share one.
_openai: dict[tuple[str, str, str, float], Responder] = {}


def _key(settings: Settings) -> tuple[str, str, str, float]:
    return (
        settings.ai_base_url,
        settings.ai_api_key,
        settings.ai_model,
        settings.ai_timeout_seconds,
    )


async def loaded(settings: Settings) -> Responder:
    """`responder_for`, with the openai library's first import (more than a second) run
    on a thread: on the event loop it would stall every other job of the worker."""
    if settings.ai_provider_name == "openai" and _key(settings) not in _openai:
        return await asyncio.to_thread(responder_for, settings)
    return responder_for(settings)


def responder_for(settings: Settings) -> Responder:
    if settings.ai_provider_name != "openai":
        return _LOCAL
    key = _key(settings)
    responder = _openai.get(key)
    if responder is None:
        # Start-up cost: the openai library is slow to import, which a process on the
        # local stand-in (or one that never answers a lead) never pays.
        from homebase.ai.openai_chat import OpenAIResponder

        responder = _openai[key] = OpenAIResponder(settings)
    return responder
