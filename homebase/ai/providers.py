"""Which model answers: HOMEBASE_AI_PROVIDER (config.py), "local" when unset."""

from homebase.ai.local import LocalResponder
from homebase.ai.prompt import Responder
from homebase.config import Settings

_LOCAL = LocalResponder()  # stateless
# One OpenAIResponder per configuration, kept for the process: its clients (one per
# event loop) hold the connection pool, so a call reuses the connections of the last.
# Keyed by value rather than by the Settings object, so settings rebuilt with the same
# values (tests, a reloaded configuration) share one.
_openai: dict[tuple[str, str, str, float], Responder] = {}


def responder_for(settings: Settings) -> Responder:
    if settings.ai_provider_name != "openai":
        return _LOCAL
    key = (
        settings.ai_base_url,
        settings.ai_api_key,
        settings.ai_model,
        settings.ai_timeout_seconds,
    )
    responder = _openai.get(key)
    if responder is None:
        # Start-up cost: the openai library takes about a second to import, which a
        # process on the local stand-in (or one that never answers a lead) never pays.
        from homebase.ai.openai_chat import OpenAIResponder

        responder = _openai[key] = OpenAIResponder(settings)
    return responder
