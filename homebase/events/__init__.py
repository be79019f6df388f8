"""GET /v1/events: the workspace's stored catalogue events, as webhooks carry them, in one
total order (occurred_at, id) that a client walks and resumes (docs/webhooks.md, "The
events API")."""
