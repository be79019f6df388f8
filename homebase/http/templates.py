"""Every HTML page the service serves is a Jinja2 template under homebase/templates/,
extending base.html; Python code passes plain values and never builds markup.

Escaping cannot be turned off, neither by a caller nor by a template:

- autoescape is on for every template whatever its name, and `render()` has no option;
- the `safe` filter is removed, so `{{ value|safe }}` (or `{% filter safe %}`) is a
  compile error rather than a way to emit a value as markup;
- the `{% autoescape %}` tag is refused when a template is compiled (`_RefuseAutoescapeTag`);
- no Python module builds `markupsafe.Markup` (tests/http/test_templates.py walks the source).

A missing name is an error (StrictUndefined), never an empty string; None renders as ""
(`finalize`), as the hand-called escape helper these templates replaced did.

Times are shown one way everywhere: macros.html's `when(moment, now)` puts the filters
`readable` ("26 Nov 2026, 19:48 UTC") and `relative` ("3 minutes ago", "in 2 hours",
against the `now` the page was given, the runtime's clock) in a `<time datetime>`."""

from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, TemplateSyntaxError
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream

from homebase.kit.clock import isoformat

TEMPLATES = "templates"


class _RefuseAutoescapeTag(Extension):
    """`{% autoescape false %}` would switch escaping off for a block; a template that
    contains the tag at all does not compile."""

    def filter_stream(self, stream: TokenStream) -> Iterable[Token]:
        return self._checked(stream)

    def _checked(self, stream: TokenStream) -> Iterator[Token]:
        after_block_begin = False
        for token in stream:
            if after_block_begin and token.type == "name" and token.value == "autoescape":
                raise TemplateSyntaxError(
                    "the autoescape tag is not allowed: escaping is always on",
                    token.lineno,
                    stream.name,
                    stream.filename,
                )
            after_block_begin = token.type == "block_begin"
            yield token


def _finalize(value: Any) -> Any:
    return "" if value is None else value


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def moment_of(value: datetime | str | None) -> datetime | None:
    """A time as a UTC datetime: rows hold datetimes (naive ones are UTC), the API's
    shapes (exports, grants) hold ISO 8601 text."""
    if value is None or value == "":
        return None
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def readable(value: datetime | str | None) -> str | None:
    """`26 Nov 2026, 19:48 UTC` (English month names whatever the locale)."""
    moment = moment_of(value)
    if moment is None:
        return None
    return f"{moment.day} {MONTHS[moment.month - 1]} {moment.year}, {moment:%H:%M} UTC"


def _count(number: int, unit: str) -> str:
    return f"{number} {unit}" if number == 1 else f"{number} {unit}s"


def relative(value: datetime | str | None, now: datetime) -> str | None:
    """How long ago (or, for a future time, how long until) `value` is at `now`: "just now"
    within the last minute ("in under a minute" within the next), then whole minutes,
    hours, days (up to 60), months (30 days, up to 24) and years (365 days), rounded
    down."""
    moment = moment_of(value)
    if moment is None:
        return None
    seconds = int((moment - (moment_of(now) or moment)).total_seconds())
    future, seconds = seconds > 0, abs(seconds)
    if seconds < 60:
        return "in under a minute" if future else "just now"
    minutes, hours, days = seconds // 60, seconds // 3600, seconds // 86400
    if minutes < 60:
        amount = _count(minutes, "minute")
    elif hours < 24:
        amount = _count(hours, "hour")
    elif days < 60:
        amount = _count(days, "day")
    elif days < 730:
        amount = _count(days // 30, "month")
    else:
        amount = _count(days // 365, "year")
    return f"in {amount}" if future else f"{amount} ago"


def _environment() -> Environment:
    environment = Environment(
        loader=PackageLoader("homebase", TEMPLATES),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=_finalize,
        extensions=[_RefuseAutoescapeTag],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )  # package data: they change only with the code
    del environment.filters["safe"]
    environment.filters["isoformat"] = lambda value: isoformat(moment_of(value))
    environment.filters["readable"] = readable
    environment.filters["relative"] = relative
    return environment


ENVIRONMENT = _environment()


def render(name: str, /, **context: Any) -> str:
    """The template `name` (a path under homebase/templates) rendered with `context`."""
    return ENVIRONMENT.get_template(name).render(context)


def asset(name: str) -> bytes:
    """A static file kept beside the templates (the console's stylesheet)."""
    return (files("homebase") / TEMPLATES / name).read_bytes()
