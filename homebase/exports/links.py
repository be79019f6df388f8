"""Download links of export files: `{public_url}/exports/{token}`, signed by kit/links.py
under their own purpose (a recording's token opens no export, and the reverse), valid
five minutes; GET /v1/exports/{id} issues a fresh one each time."""

from homebase.kit.links import LinkKind

LINKS = LinkKind(purpose="export-link", route="exports")
