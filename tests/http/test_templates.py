"""The page templates (homebase/templates, rendered by homebase/http/templates.py):
escaping cannot be turned off, every template compiles, and no Python module builds HTML.
tests/http/test_page_escaping.py sends hostile values through every page over HTTP."""

import ast
import re
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePosixPath

import pytest
from jinja2 import TemplateSyntaxError, UndefinedError

from homebase.http.templates import ENVIRONMENT, TEMPLATES, readable, relative, render
from tests.source_support import parse_file

PACKAGE = Path(__file__).resolve().parents[2] / "homebase"
HOSTILE = "<script>alert(\"x\")</script> 'q' & {{ 7*7 }}"
# An HTML tag, opening or closing, in a Python string literal (f-strings included: their
# literal parts are string constants too).
HTML_TAG = re.compile(
    r"<\s*/?\s*(!doctype|html|head|body|div|p|a|form|input|table|thead|tbody|tr|td|th|ul|"
    r"ol|li|h[1-6]|strong|em|b|i|code|pre|br|label|button|span|nav|main|header|footer|"
    r"script|style|link|meta|small|fieldset|legend|textarea|select|option|img|iframe)\b",
    re.IGNORECASE,
)


def template_names() -> list[str]:
    folder = PACKAGE / TEMPLATES
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*.html"))


def test_values_are_escaped_in_text_and_attributes():
    page = ENVIRONMENT.from_string('<p title="{{ value }}">{{ value }}</p>').render(value=HOSTILE)
    assert "<script>" not in page and '"x"' not in page and "'q'" not in page
    assert (
        page.count("&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &#39;q&#39; &amp; {{ 7*7 }}")
        == 2
    )  # never evaluated as a template either


@pytest.mark.parametrize(
    "source",
    [
        "{{ value|safe }}",
        "{% filter safe %}{{ value }}{% endfilter %}",
        "{% autoescape false %}{{ value }}{% endautoescape %}",
        "{%- autoescape false -%}{{ value }}{% endautoescape %}",
    ],
)
def test_a_template_cannot_turn_escaping_off(source):
    with pytest.raises(TemplateSyntaxError):
        ENVIRONMENT.from_string(source)


def test_a_missing_value_is_an_error_and_none_is_empty():
    with pytest.raises(UndefinedError):
        ENVIRONMENT.from_string("<p>{{ nothing }}</p>").render()
    assert ENVIRONMENT.from_string("<p>{{ value }}</p>").render(value=None) == "<p></p>"


@pytest.mark.parametrize("name", template_names())
def test_every_template_compiles(name):
    ENVIRONMENT.get_template(name)


def test_pages_extend_the_one_layout():
    """Every page template extends base.html; the others are macro files."""
    for name in template_names():
        source = (PACKAGE / TEMPLATES / name).read_text()
        assert (
            '{% extends "base.html" %}' in source
            or name == "base.html"
            or ("{% macro" in source and "<html" not in source)
        ), name


def test_every_template_file_is_package_data():
    """An installed (non-editable) copy has only what pyproject's package-data names."""
    pyproject = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
    globs = [
        PurePosixPath(glob) for glob in pyproject["tool"]["setuptools"]["package-data"]["homebase"]
    ]
    for path in (PACKAGE / TEMPLATES).rglob("*"):
        if path.is_file():
            name = PurePosixPath(path.relative_to(PACKAGE).as_posix())
            # setuptools' `*` stays within one folder: the same depth, matched part by part.
            assert any(
                len(name.parts) == len(glob.parts) and name.match(str(glob)) for glob in globs
            ), f"{name} is not in package-data"


def test_the_docs_page_escapes_what_it_is_given():
    page = render(
        "docs.html", title=HOSTILE, vendor=HOSTILE, assets="/a", openapi="/o", redirect="/r"
    )
    assert "<script>alert" not in page and "&lt;script&gt;" in page


def test_no_python_module_builds_html_or_markup():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = parse_file(path)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and (HTML_TAG.search(node.value))
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            if isinstance(node, ast.ImportFrom) and node.module == "markupsafe":
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} imports markupsafe")
            if isinstance(node, ast.Import) and any(
                alias.name == "markupsafe" for alias in node.names
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} imports markupsafe")
    assert found == [], "HTML belongs in homebase/templates: " + ", ".join(found)


NOW = datetime(2026, 11, 26, 19, 48, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "moment,phrase",
    [
        (NOW, "just now"),
        (NOW - timedelta(seconds=59), "just now"),
        (NOW + timedelta(seconds=59), "in under a minute"),
        (NOW - timedelta(minutes=1), "1 minute ago"),
        (NOW - timedelta(minutes=3, seconds=20), "3 minutes ago"),
        (NOW - timedelta(minutes=59, seconds=59), "59 minutes ago"),
        (NOW - timedelta(hours=1), "1 hour ago"),
        (NOW - timedelta(hours=23, minutes=59), "23 hours ago"),
        (NOW - timedelta(days=1), "1 day ago"),
        (NOW - timedelta(days=59), "59 days ago"),
        (NOW - timedelta(days=60), "2 months ago"),
        (NOW - timedelta(days=729), "24 months ago"),
        (NOW - timedelta(days=800), "2 years ago"),
        (NOW + timedelta(minutes=1), "in 1 minute"),
        (NOW + timedelta(minutes=16), "in 16 minutes"),
        (NOW + timedelta(hours=5), "in 5 hours"),
        (NOW + timedelta(days=90), "in 3 months"),
        ("2026-11-26T19:45:30.000Z", "3 minutes ago"),  # the API's shapes hold text
        (NOW.replace(tzinfo=None) - timedelta(hours=2), "2 hours ago"),  # naive is UTC
        (None, None),
    ],
)
def test_relative_time(moment, phrase):
    assert relative(moment, NOW) == phrase


def test_readable_time_and_the_when_macro():
    assert readable(NOW) == "26 Nov 2026, 19:48 UTC"
    assert readable(datetime(2026, 3, 5, 7, 4, tzinfo=UTC)) == "5 Mar 2026, 07:04 UTC"
    assert readable("2026-01-02T03:04:05.000+02:00") == "2 Jan 2026, 01:04 UTC"
    assert readable(None) is None
    page = ENVIRONMENT.from_string(
        '{% from "macros.html" import when %}{{ when(moment, now) }}|{{ when(none, now) }}'
    ).render(moment=NOW - timedelta(minutes=3), now=NOW, none=None)
    assert page == (
        '<time datetime="2026-11-26T19:45:30.000Z">26 Nov 2026, 19:45 UTC</time>'
        ' <small class="ago">(3 minutes ago)</small>|'
    )
