"""The workspace console: member sign-in and sessions, and the server-rendered pages
for API keys, connected apps, OAuth apps and webhooks (docs/console.md)."""
