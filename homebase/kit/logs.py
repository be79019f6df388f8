"""The one logging setup: every process (serve, worker, migrate, admin) and every library
in it (uvicorn, Alembic, SQLAlchemy) logs through the root logger's one handler.

HOMEBASE_LOG_FORMAT=text (default): `time LEVEL logger message key=value ...`.
HOMEBASE_LOG_FORMAT=json: one JSON object per line: time, level, logger, message, the
request's context (request_id, workspace_id, route, ...) when a request is being served,
and the line's own fields (`event(log, "message", field=value)`).

Context travels in a ContextVar: each request (and each worker task) runs in its own
asyncio task with its own copy, so what one request binds never shows in another's lines.

Redaction is a backstop, not the policy: code never logs a secret, a message body or an
unmasked phone or email in the first place; the formatters still mask anything shaped
like one of our credentials (hbk_, hbo_*, hbs_, whsec_) in the final text, exception
tracebacks included.
"""

import logging
import logging.config
import re
import time
from contextvars import ContextVar
from typing import Any

import orjson

FORMATS = ("text", "json")
_context: ContextVar[dict[str, Any] | None] = ContextVar("homebase_log_context", default=None)

# Our credentials carry a recognisable prefix (auth/api_keys.py, oauth/tokens.py,
# oauth/service.py, console/sessions.py, webhooks/service.py): keep the prefix, mask the rest.
_SECRET = re.compile(r"\b(hbk_|hbo_[a-z]+_|hbs_|whsec_)[A-Za-z0-9_\-.~+/=]{4,}")
# Standard LogRecord attributes: anything else on a record came in through `extra`.
# color_message: uvicorn's copy of the message with terminal colours.
_RECORD_ATTRIBUTES = frozenset(logging.makeLogRecord({}).__dict__) | {
    "message",
    "asctime",
    "color_message",
}


def redact(text: str) -> str:
    return _SECRET.sub(lambda match: match.group(1) + "***", text)


def bind(**fields: Any) -> None:
    """Adds fields to the current task's log context (a request's id, workspace, ...)."""
    _context.set({**(_context.get() or {}), **fields})


def context() -> dict[str, Any]:
    return dict(_context.get() or {})


def clear() -> None:
    _context.set(None)


def event(
    logger: logging.Logger, message: str, *, level: int = logging.INFO, **fields: Any
) -> None:
    """One structured line: `fields` become JSON members (or key=value in text)."""
    if logger.isEnabledFor(level):
        logger.log(level, message, extra={"fields": fields})


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = context()
    own = getattr(record, "fields", None)
    if isinstance(own, dict):
        fields.update(own)
    for name, value in record.__dict__.items():  # plain `extra={...}` from libraries
        if name not in _RECORD_ATTRIBUTES and name != "fields" and not name.startswith("_"):
            fields.setdefault(name, value)
    return fields


def _timestamp(record: logging.LogRecord) -> str:
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{seconds}.{int(record.msecs):03d}Z"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name, value in _fields(record).items():
            if value is not None:
                line.setdefault(name, value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        text = orjson.dumps(line, default=str).decode()
        return redact(text)


class TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        parts = [_timestamp(record), record.levelname, record.name, record.getMessage()]
        parts += [f"{name}={value}" for name, value in _fields(record).items() if value is not None]
        text = " ".join(str(part) for part in parts)
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return redact(text)


def dict_config(log_format: str = "text", level: str | int = "INFO") -> dict[str, Any]:
    """The configuration for logging.config.dictConfig, also handed to uvicorn as its
    `log_config` so its server processes (one per --workers) configure the same way."""
    if log_format not in FORMATS:
        raise ValueError(f"HOMEBASE_LOG_FORMAT must be one of {', '.join(FORMATS)}")
    level = logging.getLevelName(level) if isinstance(level, int) else level.upper()
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"homebase": {"()": f"{formatter.__module__}.{formatter.__name__}"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "homebase",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            # uvicorn's own handlers would print past ours; its lines propagate to root.
            # Its access log is off: the request line (http/request_log.py) replaces it.
            "uvicorn": {"handlers": [], "propagate": True, "level": level},
            "uvicorn.error": {"handlers": [], "propagate": True, "level": level},
            "uvicorn.access": {"handlers": [], "propagate": False, "level": "WARNING"},
            # Alembic lists each of its plugins at INFO on every start; the migrations it
            # runs (alembic.runtime.migration) stay visible.
            "alembic.runtime.plugins": {"level": "WARNING"},
        },
    }


def configure(log_format: str = "text", level: str | int = "INFO") -> dict[str, Any]:
    config = dict_config(log_format, level)
    logging.config.dictConfig(config)
    return config
