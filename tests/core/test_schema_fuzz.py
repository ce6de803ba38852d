"""The OpenAPI schema is true: Schemathesis calls every operation with generated input, as
each role and anonymously, and finds no 5xx and no answer that the schema does not describe
(status code, content type, body). Bounded: a fixed budget of examples per operation and
role, derandomized (the same cases every run), against the WSGI app in this process."""

from __future__ import annotations

import time

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.services import token_issue
from config.wsgi import application

# Per operation and identity: inputs the schema allows, then inputs it refuses (a bad id in
# a path, a limit that is no number…), whose answers must be described too (a JSON 4xx).
EXAMPLES = {GenerationMode.POSITIVE: 3, GenerationMode.NEGATIVE: 2}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def _run(operation, identity: str, headers: dict, failures: list, mode: GenerationMode) -> None:
    @settings(
        max_examples=EXAMPLES[mode],
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def check(case):
        case.call_and_validate(headers=headers, checks=CHECKS)

    try:
        check()
    except Unsatisfiable:  # nothing to negate: an operation without parameters or body
        if mode is not GenerationMode.NEGATIVE:
            raise
    except (Exception, BaseExceptionGroup) as error:  # one per operation and identity
        failures.append(f"{operation.label} as {identity} ({mode}): {str(error)[:400]}")


@pytest.mark.django_db
def test_every_operation_answers_as_its_schema_says_for_every_role(site, wsgi_in_test_transaction):
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    operations = [result.ok() for result in schema.get_all_operations()]
    identities = {"anonymous": {}} | {
        role: {"Authorization": f"Token {token_issue(user=site.users[role])}"}
        for role in ("annotator", "reviewer", "admin")
    }
    failures: list[str] = []
    started = time.monotonic()
    for name, headers in identities.items():
        for operation in operations:
            for mode in EXAMPLES:
                _run(operation, name, headers, failures, mode)
    print(f"{len(operations)} operations x {len(identities)}: {time.monotonic() - started:.1f} s")
    assert failures == [], "\n\n".join(failures)
