"""What a `homebase` command prints (../shared/CONTRACT.md, "Commands"): on success one JSON
object on stdout; on failure one line on stderr, `error: <reason>`, and a non-zero exit:
2 for a usage error (unknown command or option, missing or invalid value), 1 otherwise."""

import json
import logging
import sys
from typing import Any, NoReturn

import click
from pydantic import ValidationError

from homebase.config import get_settings
from homebase.kit import logs
from homebase.kit.errors import AdminError

USAGE = 2
FAILED = 1


def print_json(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, default=str) + "\n")


def configure_logs(level: str | int = logging.WARNING) -> None:
    """One set-up for every command (kit/logs.py); HOMEBASE_LOG_FORMAT=json makes each line
    one JSON object, Alembic's and uvicorn's included. Reading the settings here also
    refuses bad HOMEBASE_* values before the command does anything."""
    logs.configure(get_settings().log_format, level)


def fail(reason: str, code: int = FAILED) -> NoReturn:
    line = " ".join(part.strip() for part in reason.splitlines() if part.strip())
    sys.stderr.write(f"error: {line}\n")
    sys.exit(code)


def usage_reason(error: click.UsageError) -> str:
    """Click's message with the command it is about, instead of its usage block."""
    path = error.ctx.command_path if error.ctx is not None else "homebase"
    message = error.format_message().rstrip()
    if not message.endswith((".", "?", "!")):
        message += "."
    return f"{path}: {message} Try '{path} --help'."


def failure_reason(error: Exception) -> str:
    if isinstance(error, AdminError):
        return str(error)
    if isinstance(error, ValidationError):  # settings refused: say which variable and why
        return settings_problems(error)
    first_line = str(error).splitlines()[0] if str(error) else ""
    cause = error.__cause__  # e.g. DatabaseUnavailable's driver error
    if cause is not None and str(cause):
        first_line += f" ({type(cause).__name__}: {str(cause).splitlines()[0]})"
    return f"{type(error).__name__}: {first_line}"


def settings_problems(error: ValidationError) -> str:
    """One line: each refused HOMEBASE_* setting with its reason."""
    problems = []
    for item in error.errors():
        message = item["msg"].removeprefix("Value error, ")
        names = [str(part) for part in item["loc"]]
        problems.append(f"HOMEBASE_{'_'.join(names).upper()}: {message}" if names else message)
    return "; ".join(problems)
