"""Span attribute names: the same words as the log fields (kit/logs.py), under one
namespace. Apart from tracing/__init__.py so that export.py, which only the SDK side
(setup.py) imports, needs nothing of it."""

REQUEST_ID = "homebase.request_id"
WORKSPACE_ID = "homebase.workspace_id"
CREDENTIAL_KIND = "homebase.credential_kind"
JOB = "homebase.job"
JOB_ITEMS = "homebase.job.items"
