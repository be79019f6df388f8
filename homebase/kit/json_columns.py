"""The text of a JSON column, both ways (the engines' json_serializer and
json_deserializer, db/engine.py): orjson, several times faster than json, and json for
what orjson refuses (NaN, integers beyond 64 bits), so every value reads back as it was
stored and the text is compact."""

import json
from typing import Any

import orjson


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def dumps(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value)
