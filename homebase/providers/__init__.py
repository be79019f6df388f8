"""Message providers behind one interface (base.py); `provider_for` picks by settings."""

from homebase.providers.base import Outbound, Provider, ProviderResult
from homebase.providers.registry import provider_for

__all__ = ["Outbound", "Provider", "ProviderResult", "provider_for"]
