"""Reading the OpenAPI document in tests: answers and headers shared under `components`
(kit/openapi.py) are `$ref`s there; `inline` writes them back out for tests that read an
operation's answers."""

import copy
from typing import Any

SHARED = ("#/components/responses/", "#/components/headers/", "#/components/parameters/")


def follow(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """`node`, or what its reference into components/responses, /headers, /parameters names."""
    ref = node.get("$ref") if isinstance(node, dict) else None
    if isinstance(ref, str) and ref.startswith(SHARED):
        section, name = ref.removeprefix("#/components/").split("/", 1)
        return follow(document, document["components"][section][name])
    return node


def inline(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of `document` with every shared answer, header and parameter written out where
    it is named (schema references stay references)."""

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            node = follow(document, node)
            return {key: walk(value) for key, value in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    return {key: walk(value) for key, value in copy.deepcopy(document).items()}
