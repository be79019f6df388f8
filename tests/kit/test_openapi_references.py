"""Every `$ref` in the OpenAPI document resolves, and every schema, shared answer and
shared header it defines is used.

A dangling reference stops the TypeScript generators (openapi-typescript, @hey-api/openapi-ts)
outright, while openapi-python-client, which skips `webhooks`, never noticed the 422
answers FastAPI had left on each documented webhook, pointing at a schema removed from
`components`. So the whole document is walked here, `webhooks` included, not only `paths`.
"""

from typing import Any

import pytest

from tests.test_routes import build_offline_app


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return build_offline_app().openapi()


def references(value: Any, where: str = "#") -> list[tuple[str, str]]:
    """(location, $ref) of every reference anywhere in `value`, examples included."""
    found: list[tuple[str, str]] = []
    stack = [(value, where)]
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                found.append((at, node["$ref"]))
            stack.extend((item, f"{at}/{key}") for key, item in node.items())
        elif isinstance(node, list):
            stack.extend((item, f"{at}/{index}") for index, item in enumerate(node))
    return found


def resolve(document: dict[str, Any], ref: str) -> Any:
    """The node a local JSON pointer (RFC 6901) names; KeyError when there is none."""
    assert ref.startswith("#/"), f"not a reference inside the document: {ref}"
    node: Any = document
    for token in ref[2:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def test_every_reference_resolves(document):
    dangling = []
    for at, ref in references(document):
        try:
            resolve(document, ref)
        except (KeyError, IndexError, ValueError):
            dangling.append(f"{at}: {ref}")
    assert not dangling, "\n".join(sorted(dangling))
    assert len(references(document)) > 100  # the walk did find the document's references


def test_the_webhooks_section_is_walked(document):
    webhook_refs = references(document["webhooks"], "#/webhooks")
    assert len(document["webhooks"]) > 10 and webhook_refs
    assert all("HTTPValidationError" not in ref for _, ref in webhook_refs)
    for item in document["webhooks"].values():
        assert "422" not in item["post"]["responses"]  # validation errors are never 422 here


def test_every_component_schema_is_referenced(document):
    """From the operations and webhooks, following references through components."""
    schemas = document["components"]["schemas"]
    roots = {key: value for key, value in document.items() if key != "components"}
    reached: set[str] = set()
    pending = [ref for _, ref in references(roots)]
    followed: set[str] = set()
    while pending:
        ref = pending.pop()
        name = ref.rsplit("/", 1)[-1]
        if ref.startswith("#/components/schemas/") and name not in reached:
            reached.add(name)
            pending.extend(inner for _, inner in references(schemas[name]))
        elif ref not in followed:  # a shared answer or header (components/responses, ...)
            followed.add(ref)
            pending.extend(inner for _, inner in references(resolve(document, ref)))
    assert set(schemas) - reached == set()


def test_every_shared_answer_and_header_is_referenced(document):
    """components/responses and components/headers hold only what some answer names."""
    named = {ref for _, ref in references(document)}
    for section in ("responses", "headers"):
        declared = {f"#/components/{section}/{name}" for name in document["components"][section]}
        assert declared and declared <= named, sorted(declared - named)
