"""The OAuth 2.0 authorization server (RFC 6749, 7636, 7009, 9700) and the API side of
its access tokens. See docs/oauth.md."""
