"""Every HTML page the service serves is a Jinja2 template under homebase/templates/,
extending base.html; Python code passes plain values and never builds markup.

Escaping cannot be turned off, neither by a caller nor by a template:

- autoescape is on for every template whatever its name, and `render()` has no option;
- the `safe` filter is removed, so `{{ value|safe }}` (or `{% filter safe %}`) is a
  compile error rather than a way to emit a value as markup;
- the `{% autoescape %}` tag is refused when a template is compiled (`_RefuseAutoescapeTag`);
- no Python module builds `markupsafe.Markup` (tests/http/test_templates.py walks the source).

A missing name is an error (StrictUndefined), never an empty string; None renders as ""
(`finalize`), as the hand-called escape helper these templates replaced did."""

from collections.abc import Iterable, Iterator
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
    environment.filters["isoformat"] = isoformat
    return environment


ENVIRONMENT = _environment()


def render(name: str, /, **context: Any) -> str:
    """The template `name` (a path under homebase/templates) rendered with `context`."""
    return ENVIRONMENT.get_template(name).render(context)


def asset(name: str) -> bytes:
    """A static file kept beside the templates (the console's stylesheet)."""
    return (files("homebase") / TEMPLATES / name).read_bytes()
