from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: one workspace, a set of scopes, the kind of credential, and the
    rate-limit bucket the request counts against. API keys and OAuth tokens both
    resolve to this."""

    workspace_id: str
    scopes: frozenset[str]  # granted scopes with their implications expanded
    granted_scopes: tuple[str, ...]  # as granted, for display
    credential_kind: str  # "api_key" | "oauth_token"
    credential_id: str
    rate_limit_bucket: str
    rate_limit_per_min: int

    def has(self, scope: str) -> bool:
        return scope in self.scopes
