"""Every free-form member (a request object bounded by kit/freeform.py, stored and echoed
as sent) is listed here with where it is masked: a new one fails this test until it is
rendered through kit.masking.mask_freeform for a credential without contacts:read:pii
(docs/decisions.md, "Masking free-form values"). Webhook payloads need nothing more:
webhooks/render.py masks every string of every payload."""

import importlib
import json
import pkgutil
import re
import typing

from pydantic import AfterValidator, BaseModel

import homebase
from homebase.kit import freeform
from tests.test_routes import build_offline_app

MASKED_WHERE = {
    ("LeadCreate", "context"): "leads/render.py lead(): tests/leads/test_lead_masking.py",
    ("ConsentIn", "form_snapshot"): "kept as evidence; no response or payload carries it",
}


def _bounded(annotation: typing.Any, metadata: list[typing.Any]) -> bool:
    if any(isinstance(item, AfterValidator) and item.func is freeform.bounded for item in metadata):
        return True
    if typing.get_origin(annotation) is typing.Annotated:
        _, *extra = typing.get_args(annotation)
        return _bounded(typing.get_args(annotation)[0], extra)
    return any(_bounded(argument, []) for argument in typing.get_args(annotation))


def _models() -> set[type[BaseModel]]:
    for module in pkgutil.walk_packages(homebase.__path__, "homebase."):
        if ".migrations." not in module.name:
            importlib.import_module(module.name)
    found, stack = set(), [BaseModel]
    while stack:
        for model in stack.pop().__subclasses__():
            if model.__module__.startswith("homebase.") and model not in found:
                found.add(model)
                stack.append(model)
    return found


def test_every_free_form_member_is_masked_or_never_rendered():
    members = {
        (model.__name__, name)
        for model in _models()
        for name, info in model.model_fields.items()
        if _bounded(info.annotation, info.metadata)
    }
    assert members == set(MASKED_WHERE)


def test_the_consent_snapshot_is_in_no_response_or_payload():
    """Its entry above says so: no schema a response or a webhook refers to, at any depth,
    has the member (the OpenAPI document)."""
    document = build_offline_app().openapi()
    schemas = document["components"]["schemas"]
    seen: set[str] = set()
    todo = [
        json.dumps(operation.get("responses", {}) if section == "paths" else operation)
        for section in ("paths", "webhooks")
        for item in document.get(section, {}).values()
        for operation in item.values()
    ]
    while todo:
        for name in re.findall(r'"#/components/schemas/([^"]+)"', todo.pop()):
            if name not in seen:
                seen.add(name)
                todo.append(json.dumps(schemas.get(name, {})))
    assert "Lead" in seen and "ConsentIn" not in seen
    assert not [
        name for name in seen if "form_snapshot" in schemas.get(name, {}).get("properties", {})
    ]
