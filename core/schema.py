"""The OpenAPI schema's shared parts: every operation's error answers.

drf-spectacular documents each operation's success; the refusals every operation can give
(`core.api.exception_handler`'s `{"errors": {field: [messages]}}`) are added here, once, by a
postprocessing hook, so the schema says what the API answers (tests/core/test_schema_fuzz.py
checks it with Schemathesis).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from core.inputs import MAX_ID

ERROR_SCHEMA = "ErrorResponse"
ERRORS = {
    "400": "Refused input: each field named with what was wrong.",
    "401": "No credentials, or credentials that are not valid.",
    "403": "Signed in, but this role may not do this.",
    "404": "No such object, or one this user may not read.",
}
# The refusals only some operations give: each view declares its own (`error_responses`).
OTHER_ERRORS = {
    409: "Refused in the object's present state (a job not finished, a file in use…).",
    410: "Gone: removed on purpose (a snapshot's files pruned by its schedule).",
    413: "The body or file is larger than this operation accepts.",
    415: "The body's media type is not one this operation reads.",
    429: "Too many requests: wait before trying again.",
}


class ErrorResponseSerializer(serializers.Serializer):
    """`{"errors": {field: [messages]}}` (the hook below writes the same component)."""

    errors = serializers.DictField(child=serializers.ListField(child=serializers.CharField()))

    class Meta:
        ref_name = ERROR_SCHEMA


def error_responses(*codes: int) -> dict:
    """The schema of refusals an operation gives beyond 400/401/403/404, for `extend_schema`
    (`responses={200: …, **error_responses(409, 410)}`)."""
    return {
        code: OpenApiResponse(response=ErrorResponseSerializer, description=OTHER_ERRORS[code])
        for code in codes
    }


WRITES = {"post", "put", "patch", "delete"}
# An id as `core.inputs.parse_id` reads it: 0 is read too (and names no row: 404).
ID_SCHEMA = {"type": "integer", "minimum": 0, "maximum": MAX_ID}
# Parameters that name a row by its id, read by `core.inputs.parse_id` (at most bigint's).
ID_PARAMETERS = {"id", "file_id", "against", "article", "campaign", "release"}
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def add_error_responses(result, generator, request, public):
    """Add the error answers to every operation that lacks them: 400, 401, 403, 404 on all;
    409 (a state that refuses it) on every write; 415 on every operation with a body. A body
    the API reads as JSON is documented as JSON only: the form encodings DRF also reads
    cannot carry its lists and objects (a form's "" or "[1]" is a string). An id, in a path
    or a query, is a whole number from 0 to bigint's largest (`core.inputs.parse_id`), even
    where the view routes it as text."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas[ERROR_SCHEMA] = {
        "type": "object",
        "properties": {
            "errors": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            }
        },
        "required": ["errors"],
    }
    reference = {"$ref": f"#/components/schemas/{ERROR_SCHEMA}"}
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method.startswith("x-") or not isinstance(operation, dict):
                continue
            _ids_bounded(operation.get("parameters", []))
            body = operation.get("requestBody", {}).get("content", {})
            if "application/json" in body:
                for media_type in FORM_TYPES:
                    body.pop(media_type, None)
            _errors_added(operation, reference, write=method in WRITES, body=bool(body))
    return result


def _ids_bounded(parameters: list[dict]) -> None:
    """Give the parameters that name a row by its id the schema `core.inputs.parse_id` reads
    (a view routed with `<str:pk>` reads its id with it too)."""
    for parameter in parameters:
        named = (parameter.get("in"), parameter.get("name"), parameter.get("schema"))
        if named == ("path", "id", {"type": "string"}) or (
            named[1] in ID_PARAMETERS and named[2] == {"type": "integer"}
        ):
            parameter["schema"] = dict(ID_SCHEMA)


def _errors_added(operation: dict, reference: dict, *, write: bool, body: bool) -> None:
    """Add the error answers an operation lacks: 400, 401, 403, 404; 409 on a write; 415 with
    a body."""
    errors = dict(ERRORS)
    if write:
        errors["409"] = OTHER_ERRORS[409]
    if body:
        errors["415"] = OTHER_ERRORS[415]
    responses = operation.setdefault("responses", {})
    for code, description in errors.items():
        responses.setdefault(
            code,
            {"description": description, "content": {"application/json": {"schema": reference}}},
        )
