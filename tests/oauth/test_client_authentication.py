"""Every check of an OAuth client's secret goes through oauth/forms.py `authenticate_client`,
which counts each failure against the unauthenticated budget (docs/decisions.md
"Unauthenticated budget"): a module that compared a secret itself would give guessers an
unmetered endpoint, as /oauth/revoke once was. The budget's behaviour at each endpoint is
tested at the HTTP level in tests/ratelimit/test_unauthenticated_budget.py."""

from tests.source_support import users


def test_client_secrets_are_checked_only_by_the_counting_function():
    # The stored hash: made at registration, compared in one place.
    assert users("secret_hash") == {
        "oauth/service.py": {"_new_client", "secret_matches"},
        "models/oauth_client.py": {"<module>"},
    }
    # That comparison: only by the check that does not count ...
    assert users("secret_matches") == {"oauth/forms.py": {"<module>", "_verify_client"}}
    # ... which only the counting function calls; every endpoint calls that one.
    assert users("_verify_client") == {"oauth/forms.py": {"authenticate_client"}}
    # Reading the credentials can fail too (malformed HTTP Basic): only it reads them.
    assert users("client_auth") == {"oauth/forms.py": {"authenticate_client"}}
    assert set(users("authenticate_client")) == {"oauth/forms.py", "oauth/endpoints.py"}
