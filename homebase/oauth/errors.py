"""RFC 6749 5.2 errors: `{"error", "error_description"}`, never the /v1 envelope."""

BASIC_CHALLENGE = {"WWW-Authenticate": 'Basic realm="homebase"'}


class OAuthError(Exception):
    """An error answered to the client. `commit` marks one whose writes must stand (a
    code presented twice, a retired refresh token: the revocation they trigger)."""

    def __init__(
        self,
        error: str,
        description: str,
        *,
        status: int = 400,
        headers: dict[str, str] | None = None,
        commit: bool = False,
    ):
        super().__init__(description)
        self.error = error
        self.description = description
        self.status = status
        self.headers = headers or {}
        self.commit = commit

    def body(self) -> dict[str, str]:
        return {"error": self.error, "error_description": self.description}


def invalid_request(description: str) -> OAuthError:
    return OAuthError("invalid_request", description)


def invalid_grant(description: str, *, commit: bool = False) -> OAuthError:
    return OAuthError("invalid_grant", description, commit=commit)


def invalid_client(description: str, *, used_basic: bool) -> OAuthError:
    """401 with a Basic challenge when the client tried the Authorization header."""
    if used_basic:
        return OAuthError("invalid_client", description, status=401, headers=BASIC_CHALLENGE)
    return OAuthError("invalid_client", description)


def invalid_scope(description: str) -> OAuthError:
    return OAuthError("invalid_scope", description)
