"""The service secret, and the one rule for changing it without breaking what it protects.

New values (signed links, cursors, CSRF tokens, sealed secrets) always use the current key;
a value is accepted when it verifies or opens under the current key, then under the
previous one (HOMEBASE_SECRET_KEY_PREVIOUS), so an operator can switch keys while links,
sessions and sealed webhook secrets made under the old key keep working. `homebase admin
rotate-secrets` re-seals stored secrets under the current key, after which the previous key
can be dropped. Everything keyed by the secret goes through a Keyring (kit/crypto.py,
kit/sealed.py); nothing else reads the raw key.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Keyring:
    current: str
    previous: str | None = None

    @property
    def verifying(self) -> tuple[str, ...]:
        """The keys a value may have been made with, the current one first."""
        return (self.current,) if not self.previous else (self.current, self.previous)
