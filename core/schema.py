"""The OpenAPI schema's shared parts: every operation's error answers.

drf-spectacular documents each operation's success; the refusals every operation can give
(`core.api.exception_handler`'s `{"errors": {field: [messages]}}`) are added here, once, by a
postprocessing hook, so the schema says what the API answers (tests/core/test_schema_fuzz.py
checks it with Schemathesis).
"""

from __future__ import annotations

ERROR_SCHEMA = "ErrorResponse"
ERRORS = {
    "400": "Refused input: each field named with what was wrong.",
    "401": "No credentials, or credentials that are not valid.",
    "403": "Signed in, but this role may not do this.",
    "404": "No such object, or one this user may not read.",
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
