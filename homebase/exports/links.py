"""Download links of export files: `{public_url}/exports/{token}`, signed by kit/links.py
under their own purpose (a recording's token opens no export, and the reverse), valid
five minutes; GET /v1/exports/{id} issues a fresh one each time, and only to a
credential that may read the export (exports/service.readable: an unmasked file only to
one holding contacts:read:pii). The link is the authority at the download: whoever holds
it gets the file for its five minutes, as with a recording.

The purpose changed when unmasked files of every list (deals among them) became readable
only with contacts:read:pii: a link issued under the earlier rule, to a credential the
rule now refuses, does not verify under this purpose, so none outlives the rule."""

from homebase.kit.links import LinkKind

LINKS = LinkKind(purpose="export-file-link", route="exports")
