"""The OpenAPI document: served, OpenAPI 3.1, every /v1 operation summarised and
identified, success and error responses documented with the one error envelope, every
referenced schema marked `required` with an example; and real responses conform to it."""

import re
from datetime import datetime
from typing import Any

import pytest

from tests.openapi_support import follow, inline
from tests.support import add_members, assert_error
from tests.test_routes import build_offline_app

SUCCESS = re.compile(r"^2\d\d$")
NO_CONTENT = {"204"}
FRAMEWORK_PATHS = ("/v1/openapi.json", "/v1/docs")


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    """With the shared answers and headers written out where they are named."""
    return inline(build_offline_app().openapi())


def operations(document: dict[str, Any]):
    """(method, path, operation) for every /v1 operation."""
    for path, item in document["paths"].items():
        if not path.startswith("/v1/") or path.startswith(FRAMEWORK_PATHS):
            continue
        for method, operation in item.items():
            yield method.upper(), path, operation


def component(document: dict[str, Any], ref: str) -> dict[str, Any]:
    assert ref.startswith("#/components/schemas/"), ref
    return document["components"]["schemas"][ref.rsplit("/", 1)[-1]]


def json_schema(response_or_body: dict[str, Any]) -> dict[str, Any] | None:
    return response_or_body.get("content", {}).get("application/json", {}).get("schema")


def check_all(document, check) -> None:
    """Runs `check(method, path, operation)` on every operation; one failure lists all."""
    problems = [
        f"{method} {path}: {problem}"
        for method, path, operation in operations(document)
        for problem in check(method, path, operation)
    ]
    assert not problems, "\n".join(problems)


# The document as served


async def test_the_document_is_served_as_openapi_3_1(client):
    response = await client.get("/v1/openapi.json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["openapi"].startswith("3.1")
    assert body["info"]["title"] and body["info"]["version"]
    assert "/v1/contacts" in body["paths"]


# Well below the document with its shared headers and error answers written out in every
# answer (docs/performance.md, "The OpenAPI document's size": those alone were some 400,000
# bytes), with room for new operations and for request variants declared per object (the
# exports' and imports' bodies, a custom field's by type).
DOCUMENT_BYTES_BOUND = 700_000
RATE_LIMIT = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After")


async def test_the_document_names_its_shared_headers_and_stays_small(client):
    """Every answer's rate-limit, request-id and Retry-After headers are `$ref`s into
    components/headers, never written out again, which keeps the served document small."""
    response = await client.get("/v1/openapi.json")
    assert len(response.content) < DOCUMENT_BYTES_BOUND, len(response.content)
    raw = response.json()
    shared = raw["components"]["headers"]
    answers = [
        answer
        for section in ("paths", "webhooks")
        for item in raw.get(section, {}).values()
        for operation in item.values()
        for answer in operation.get("responses", {}).values()
    ] + list(raw["components"]["responses"].values())
    named = 0
    for answer in answers:
        for name, header in answer.get("headers", {}).items():
            if name in RATE_LIMIT or name == "X-Request-Id":
                assert set(header) == {"$ref"}, (name, header)
                assert header["$ref"].removeprefix("#/components/headers/") in shared
                named += 1
    assert named > 200  # the walk did reach the answers' headers
    assert shared["X-RateLimit-Limit"]["schema"]["type"] == "integer"


async def test_the_docs_page_is_html(client):
    response = await client.get("/v1/docs")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "/v1/openapi.json" in response.text


def test_the_security_scheme_is_declared(document):
    schemes = document["components"]["securitySchemes"]
    assert schemes["ApiKey"] == {
        **schemes["ApiKey"],
        "type": "apiKey",
        "in": "header",
        "name": "Authorization",
    }
    assert document["security"] == [{"ApiKey": []}, {"OAuth2": []}]
    for method, path, operation in operations(document):
        for requirement in operation.get("security", []):
            assert set(requirement) <= set(schemes), f"{method} {path}"


def test_each_v1_operation_names_its_scope_for_oauth(document):
    contacts = document["paths"]["/v1/contacts"]
    assert contacts["get"]["security"] == [{"ApiKey": []}, {"OAuth2": ["contacts:read"]}]
    assert contacts["post"]["security"] == [{"ApiKey": []}, {"OAuth2": ["contacts:write"]}]
    assert document["paths"]["/v1/ping"]["get"]["security"] == [{"ApiKey": []}, {"OAuth2": []}]
    missing = [
        f"{method} {path}"
        for method, path, operation in operations(document)
        if path.startswith("/v1/")
        and "security" not in operation
        and not path.startswith(("/v1/openapi", "/v1/docs"))
    ]
    assert missing == []


# Every operation


def test_every_operation_has_a_summary_and_a_unique_operation_id(document):
    ids = [operation.get("operationId") for _, _, operation in operations(document)]
    assert len(ids) == len(set(ids)), "operationIds repeat"
    check_all(
        document,
        lambda method, path, operation: [
            problem
            for problem, missing in [
                ("no summary", not operation.get("summary")),
                ("no operationId", not operation.get("operationId")),
            ]
            if missing
        ],
    )


OPERATION_ID = re.compile(r"^[a-z][a-z0-9_]*$")
# FastAPI's fallback when two classes share a name: `homebase__messaging__schemas__Status`.
# openapi-python-client then finds two `Status` enums and drops what uses them.
COMPONENT_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*(_[A-Z][A-Za-z0-9]*_)?$")  # Page_Contact_


def test_every_operation_id_reads_well_in_generated_code_and_is_unique(document):
    """Every operation of the whole document (/v1, OAuth, provider callbacks, recordings and
    the `webhooks` section) has a snake_case id; generated clients name functions after it
    (`list_messages`, not FastAPI's `list_messages_v1_messages_get`)."""
    ids = [
        (f"{method.upper()} {path}", operation.get("operationId"))
        for section in ("paths", "webhooks")
        for path, item in document[section].items()
        for method, operation in item.items()
    ]
    assert len(ids) > 60
    assert [(where, id_) for where, id_ in ids if not OPERATION_ID.match(id_ or "")] == []
    seen: dict[str, str] = {}
    repeats = [
        f"{where} and {seen[id_]}: {id_}"
        for where, id_ in ids
        if seen.setdefault(id_, where) != where
    ]
    assert repeats == []
    assert document["paths"]["/v1/messages"]["get"]["operationId"] == "list_messages"
    assert document["paths"]["/v1/contacts/{id}"]["delete"]["operationId"] == "delete_contact"


def test_no_two_schemas_share_a_name(document):
    """Each class behind a component has a name of its own (MessageStatus, AppointmentStatus;
    not two `Status`), so the names generated clients give them never collide."""
    names = list(document["components"]["schemas"])
    assert [name for name in names if not COMPONENT_NAME.match(name)] == []
    # What generators make of them (PageContact from Page_Contact_) is unique too.
    class_names = [name.replace("_", "").lower() for name in names]
    assert len(class_names) == len(set(class_names))
    assert {
        "MessageStatus",
        "MessageDirection",
        "CallDirection",
        "AppointmentStatus",
        "Message",
    } <= set(names)


def _success_problems(document, method, path, operation) -> list[str]:
    successes = {
        status: response
        for status, response in operation["responses"].items()
        if SUCCESS.match(status)
    }
    if not successes:
        return ["no 2xx response"]
    problems = []
    for status, response in successes.items():
        schema = json_schema(response)
        if status in NO_CONTENT:
            continue
        if not schema:
            problems.append(f"{status} has no JSON schema")
        elif "$ref" not in schema and not (
            {"properties", "anyOf", "oneOf", "allOf", "items"} & set(schema)
        ):
            problems.append(f"{status} schema says nothing about the body: {schema}")
    return problems


def test_every_operation_documents_a_json_success_response(document):
    check_all(
        document,
        lambda method, path, operation: _success_problems(document, method, path, operation),
    )


def expected_errors(path: str, operation: dict[str, Any]) -> set[str]:
    expected = {"401", "429"}
    if path != "/v1/ping":
        expected.add("403")
    if "{id}" in path:
        expected.add("404")
    takes_input = "requestBody" in operation or any(
        parameter["in"] == "query" for parameter in operation.get("parameters", [])
    )
    if takes_input:
        expected.add("400")
    return expected


def is_error_envelope(document, schema: dict[str, Any] | None) -> bool:
    if not schema or "$ref" not in schema:
        return False
    envelope = component(document, schema["$ref"])
    if envelope.get("required") != ["error"]:
        return False
    error = envelope["properties"]["error"]
    error = component(document, error["$ref"]) if "$ref" in error else error
    return {"code", "message", "request_id"} <= set(error.get("required", []))


def _error_problems(document, method, path, operation) -> list[str]:
    responses = operation["responses"]
    problems = [
        f"does not document {status}"
        for status in sorted(expected_errors(path, operation) - set(responses))
    ]
    for status, response in responses.items():
        if status.startswith(("4", "5")) and not is_error_envelope(document, json_schema(response)):
            problems.append(f"{status} is not documented as the error envelope")
    if "422" in responses and not {"compliance_blocked", "idempotency_key_reused"} & set(
        re.findall(r"[a-z_]+", str(responses["422"]))
    ):
        problems.append(
            "documents a 422 that is not compliance_blocked or "
            "idempotency_key_reused (validation is 400)"
        )
    return problems


def test_every_operation_documents_its_errors_as_the_envelope(document):
    check_all(
        document, lambda method, path, operation: _error_problems(document, method, path, operation)
    )


def test_validation_is_never_documented_as_422(document):
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "ValidationError" not in schemas


def _referenced_schemas(operation) -> list[tuple[str, dict[str, Any]]]:
    found = []
    if "requestBody" in operation:
        found.append(("request body", json_schema(operation["requestBody"]) or {}))
    for status, response in operation["responses"].items():
        schema = json_schema(response)
        if schema is not None:
            found.append((f"{status} response", schema))
    return found


def _component_problems(document, method, path, operation) -> list[str]:
    problems = []
    if "requestBody" in operation:
        body_schema = json_schema(operation["requestBody"]) or {}
        if "$ref" not in body_schema:
            problems.append("request body is not a named component")
    for where, schema in _referenced_schemas(operation):
        if "$ref" not in schema:
            continue
        name = schema["$ref"].rsplit("/", 1)[-1]
        target = component(document, schema["$ref"])
        if not target.get("examples"):
            problems.append(f"{where} {name} has no examples")
        if "oneOf" in target:  # a union: its variants say what is required
            problems += _union_problems(document, f"{where} {name}", target)
        elif "required" not in target:
            problems.append(f"{where} {name} does not mark `required`")
    return problems


def _union_problems(document, where: str, union: dict[str, Any]) -> list[str]:
    """A union must be one generators can pick a variant of: a discriminator naming a
    required member of every variant, mapped to each of them, each with examples."""
    discriminator = union.get("discriminator") or {}
    member = discriminator.get("propertyName")
    if not member:
        return [f"{where} is a oneOf without a discriminator"]
    problems = []
    refs = [option.get("$ref") for option in union["oneOf"]]
    mapping = discriminator.get("mapping", {})
    if sorted(set(mapping.values())) != sorted(refs):
        problems.append(f"{where}: the discriminator does not map every variant")
    for tag, ref in mapping.items():  # each tag is one its variant's member takes
        tags = component(document, ref)["properties"][member]
        if tag not in tags.get("enum", [tags.get("const")]):
            problems.append(f"{where}: {tag} maps to {ref}, whose {member} does not list it")
    for ref in refs:
        variant = component(document, ref)
        name = ref.rsplit("/", 1)[-1]
        if member not in variant.get("required", []):
            problems.append(f"{where} variant {name} does not require {member}")
        if not variant.get("examples"):
            problems.append(f"{where} variant {name} has no examples")
    return problems


def test_every_referenced_schema_marks_required_and_has_an_example(document):
    check_all(
        document,
        lambda method, path, operation: _component_problems(document, method, path, operation),
    )


def test_every_v1_answer_documents_its_headers(document):
    rate_limit = {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}

    def problems(method, path, operation):
        for status, response in operation["responses"].items():
            headers = set(response.get("headers", {}))
            # A 401 reports the client address's unauthenticated budget.
            # 413 and 503 may come before the credential is read: no rate-limit headers.
            expected = (
                {"X-Request-Id"}
                | (set() if status in ("413", "503") else rate_limit)
                | (
                    {"WWW-Authenticate"}
                    if status == "401"
                    else {"Retry-After"}
                    if status in ("429", "503")
                    else set()
                )
            )
            if not expected <= headers:
                yield f"{status} does not document {sorted(expected - headers)}"
            for name in headers:
                if not response["headers"][name].get("schema", {}).get("examples"):
                    yield f"{status} header {name} has no schema with an example"

    check_all(document, lambda method, path, operation: list(problems(method, path, operation)))


FOUNDATION = ("/v1/ping", "/v1/contacts")


def test_foundation_operations_describe_success_and_path_parameters(document):
    """Ping and contacts: each success says what it returns (not FastAPI's "Successful
    Response") and each parameter (path and query) has a description and an example."""

    def problems(method, path, operation):
        if not path.startswith(FOUNDATION):
            return
        for status, response in operation["responses"].items():
            if SUCCESS.match(status) and response["description"] == "Successful Response":
                yield f"{status} has FastAPI's default description"
        for parameter in operation.get("parameters", []):
            if not (parameter.get("description") and parameter["schema"].get("examples")):
                yield f"parameter {parameter['name']} lacks a description or an example"

    check_all(document, lambda method, path, operation: list(problems(method, path, operation)))


def test_list_operations_document_the_page_rules(document):
    for method, path, operation in operations(document):
        schema = json_schema(operation["responses"].get("200", {})) or {}
        if "$ref" not in schema:
            continue
        page = component(document, schema["$ref"])
        if set(page.get("properties", {})) != {"data", "next_cursor", "has_more"}:
            continue
        assert set(page["required"]) == {"data", "next_cursor", "has_more"}, path
        parameters = {p["name"]: p for p in operation.get("parameters", [])}
        assert {"cursor", "limit"} <= set(parameters), f"{method} {path}"
        limit = parameters["limit"]["schema"]
        assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 200, 50), path


# Real responses conform to the document


def conform(document, schema: dict[str, Any], value: Any, where: str = "$") -> list[str]:
    """Where `value` departs from `schema`: types, required and documented members, enums,
    lengths, date-times. Members the schema does not name are reported too, so the
    document cannot fall behind what the service sends."""
    if "$ref" in schema:
        return conform(document, component(document, schema["$ref"]), value, where)
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            if all(conform(document, option, value, where) for option in schema[keyword]):
                return [f"{where}: {value!r} matches none of {keyword}"]
            return []
    problems = [
        problem
        for part in schema.get("allOf", [])
        for problem in conform(document, part, value, where)
    ]
    if "const" in schema and value != schema["const"]:
        problems.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{where}: {value!r} is not one of {schema['enum']}")
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types
    if types and not any(_is(kind, value) for kind in types):
        return problems + [f"{where}: {value!r} is not {types}"]
    if isinstance(value, dict):
        problems += _object_problems(document, schema, value, where)
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            problems += conform(document, schema["items"], item, f"{where}[{index}]")
    if isinstance(value, str):
        problems += _string_problems(schema, value, where)
    return problems


def _is(kind: str, value: Any) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(
        value,
        {
            "string": str,
            "integer": int,
            "number": (int, float),
            "boolean": bool,
            "null": type(None),
            "array": list,
            "object": dict,
        }[kind],
    )


def _object_problems(document, schema, value: dict, where: str) -> list[str]:
    properties = schema.get("properties", {})
    # Members a schema does not name are reported (the document must not fall behind what
    # the service sends), unless the schema is a rule on some members only: a branch of
    # allOf/oneOf without a type of its own (kit/schema_rules.exactly_one).
    extra = schema.get("additionalProperties", not properties or "type" not in schema)
    problems = [
        f"{where}: missing required member {name!r}"
        for name in schema.get("required", [])
        if name not in value
    ]
    problems += [
        f"{where}: {name!r} is sent without {other!r}"
        for name, others in schema.get("dependentRequired", {}).items()
        if name in value
        for other in others
        if other not in value
    ]
    for name, member in value.items():
        if name in properties:
            problems += conform(document, properties[name], member, f"{where}.{name}")
        elif isinstance(extra, dict):
            problems += conform(document, extra, member, f"{where}.{name}")
        elif extra is not True:
            problems.append(f"{where}: member {name!r} is not documented")
    return problems


def _string_problems(schema, value: str, where: str) -> list[str]:
    problems = []
    if len(value) > schema.get("maxLength", len(value)):
        problems.append(f"{where}: longer than {schema['maxLength']}")
    if len(value) < schema.get("minLength", 0):
        problems.append(f"{where}: shorter than {schema['minLength']}")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        problems.append(f"{where}: {value!r} does not match {schema['pattern']!r}")
    if schema.get("format") == "date-time":
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            problems.append(f"{where}: {value!r} is not a date-time")
    return problems


def assert_conforms(document, method: str, path: str, response) -> None:
    status = str(response.status_code)
    documented = document["paths"][path][method.lower()]["responses"]
    assert status in documented, f"{method} {path} answered an undocumented {status}"
    answer = follow(document, documented[status])
    schema = json_schema(answer)
    assert schema is not None, f"{method} {path} {status} has no schema"
    problems = conform(document, schema, response.json())
    # Every header the document promises for this answer is there, integers as integers.
    for name, shared in answer.get("headers", {}).items():
        header = follow(document, shared)
        value = response.headers.get(name)
        if value is None and header.get("required") is False:
            continue  # documented as sometimes absent (Idempotent-Replayed)
        if value is None:
            problems.append(f"header {name} is documented but missing")
        elif header["schema"]["type"] == "integer" and not value.isdigit():
            problems.append(f"header {name}: {value!r} is not an integer")
    assert not problems, f"{method} {path} {status}:\n" + "\n".join(problems)


def test_the_checker_notices_departures(document):
    contact = {"$ref": "#/components/schemas/Contact"}
    assert conform(document, contact, {"id": "con_1"})  # required members missing
    example = document["components"]["schemas"]["Page_Contact_"]["examples"][0]
    assert conform(
        document, {"$ref": "#/components/schemas/Page_Contact_"}, {**example, "surprise": 1}
    )
    assert conform(
        document,
        {"$ref": "#/components/schemas/ErrorEnvelope"},
        {"error": {"code": 1, "message": "m", "request_id": "r"}},
    )
    move = {"$ref": "#/components/schemas/AppointmentUpdate"}
    assert conform(document, move, {"starts_at": "2026-11-22T18:00:00Z"})  # without ends_at
    assert conform(document, {"$ref": "#/components/schemas/TaskCreate"}, {"title": "  "})


def test_the_error_envelope_documents_validation_items_and_missing_scope(document):
    details = document["components"]["schemas"]["ErrorDetails"]
    assert details["additionalProperties"] is True  # compliance_blocked adds its own
    assert {"errors", "missing_scope"} <= set(details["properties"])
    item = document["components"]["schemas"]["FieldError"]
    assert {"field", "in", "message"} <= set(item["required"])
    assert "type" in item["properties"]
    envelope = {"$ref": "#/components/schemas/ErrorEnvelope"}
    nameless = {
        "error": {
            "code": "validation_failed",
            "message": "m",
            "request_id": "r",
            "details": {"errors": [{"in": "body", "message": "m"}]},
        }
    }
    assert conform(document, envelope, nameless)  # an item without `field` departs


def test_every_example_conforms_to_its_schema(document):
    problems = [
        problem
        for name, schema in document["components"]["schemas"].items()
        for index, example in enumerate(schema.get("examples") or [])
        for problem in conform(document, schema, example, f"{name}.examples[{index}]")
    ]
    assert not problems, "\n".join(problems)


async def test_contact_responses_conform(app, runtime, tenant, make):
    document = app.openapi()
    await add_members(runtime, tenant.id, "usr_1")  # the owner_id below names a member
    created = await tenant.post(
        "/v1/contacts",
        json={
            "first_name": "Dana",
            "last_name": "Reyes",
            "email": "dana@example.com",
            "phone": "+1 415 555 0142",
            "stage": "HOT_LEAD",
            "source": "Zillow",
            "tags": ["buyer"],
            "notes": "n",
            "owner_id": "usr_1",
        },
    )
    assert created.status_code == 201
    assert_conforms(document, "POST", "/v1/contacts", created)
    contact_id = created.json()["id"]
    await tenant.post("/v1/contacts", json={})
    note = await tenant.post(f"/v1/contacts/{contact_id}/notes", json={"body": "Called."})
    assert_conforms(document, "POST", "/v1/contacts/{id}/notes", note)
    patched = await tenant.patch(
        f"/v1/contacts/{contact_id}", json={"stage": "SPHERE", "phone": None}
    )
    assert_conforms(document, "PATCH", "/v1/contacts/{id}", patched)

    for path in (
        "/v1/contacts",
        "/v1/contacts/{id}",
        "/v1/contacts/{id}/events",
        "/v1/contacts/{id}/notes",
    ):
        response = await tenant.get(path.format(id=contact_id))
        assert response.status_code == 200, response.text
        assert_conforms(document, "GET", path, response)
    page = await tenant.get("/v1/contacts", params={"limit": 1})
    assert page.json()["has_more"] is True and len(page.json()["data"]) == 1
    assert_conforms(document, "GET", "/v1/contacts", page)

    masked = await make(["contacts:read"])
    assert_conforms(document, "GET", "/v1/contacts", await masked.get("/v1/contacts"))
    erased = await tenant.delete(f"/v1/contacts/{contact_id}")
    assert_conforms(document, "DELETE", "/v1/contacts/{id}", erased)
    assert_conforms(document, "GET", "/v1/ping", await tenant.get("/v1/ping"))


async def test_error_bodies_conform(app, tenant, make):
    document = app.openapi()
    invalid = await tenant.post("/v1/contacts", json={"stage": "NOPE", "extra": 1})
    assert_error(invalid, 400, "validation_failed")
    assert_conforms(document, "POST", "/v1/contacts", invalid)
    missing = await tenant.get("/v1/contacts/con_00000000000000000000000000")
    assert_error(missing, 404, "not_found")
    assert_conforms(document, "GET", "/v1/contacts/{id}", missing)
    forbidden = await (await make(["leads:read"])).get("/v1/contacts")
    assert_error(forbidden, 403, "insufficient_scope")
    assert_conforms(document, "GET", "/v1/contacts", forbidden)
    bad_json = await tenant.client.post(
        "/v1/contacts", content=b"{", headers={**tenant.headers, "Content-Type": "application/json"}
    )
    assert_error(bad_json, 400, "invalid_json")
    assert_conforms(document, "POST", "/v1/contacts", bad_json)


@pytest.mark.parametrize("settings_overrides", [{"rate_limit_api_key_per_min": 1}])
async def test_a_429_conforms(app, tenant):
    await tenant.get("/v1/ping")
    limited = await tenant.get("/v1/ping")
    assert_error(limited, 429, "rate_limited")
    assert_conforms(app.openapi(), "GET", "/v1/ping", limited)


# Every operation once without a credential: more than the default budget of unauthenticated
# requests per client address (HOMEBASE_RATE_LIMIT_UNAUTHENTICATED_PER_MIN).
@pytest.mark.parametrize("settings_overrides", [{"rate_limit_unauthenticated_per_min": 10_000}])
async def test_every_operation_answers_401_as_documented(app, client):
    document = app.openapi()
    problems = []
    for method, path, _ in operations(document):
        url = re.sub(r"\{[^}]+\}", "x_unknown", path)
        response = await client.request(method, url, json={} if method != "GET" else None)
        if response.status_code != 401:
            problems.append(f"{method} {path}: {response.status_code} without a credential")
            continue
        try:
            assert_conforms(document, method, path, response)
        except AssertionError as error:
            problems.append(str(error))
    assert not problems, "\n".join(problems)


async def test_every_plain_get_conforms_on_an_empty_workspace(app, tenant):
    """Every GET without path parameters (lists, ping) answers 200 in its documented shape."""
    document = app.openapi()
    problems = []
    for method, path, _ in operations(document):
        if method != "GET" or "{" in path:
            continue
        response = await tenant.get(path)
        if response.status_code != 200:
            problems.append(f"GET {path}: {response.status_code} {response.text[:200]}")
            continue
        try:
            assert_conforms(document, method, path, response)
        except AssertionError as error:
            problems.append(str(error))
    assert not problems, "\n".join(problems)
