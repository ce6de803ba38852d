"""The OpenAPI schema's shared parts: every operation's error answers.

drf-spectacular documents each operation's success; the refusals every operation can give
(`core.api.exception_handler`'s `{"errors": {field: [messages]}}`) are added here, once, by a
postprocessing hook, so the schema says what the API answers (tests/core/test_schema_fuzz.py
checks it with Schemathesis).
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

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


def add_error_responses(result, generator, request, public):
    """Add the error answers (400, 401, 403, 404) to every operation that lacks them."""
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
            responses = operation.setdefault("responses", {})
            for code, description in ERRORS.items():
                responses.setdefault(
                    code,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": reference}},
                    },
                )
    return result
