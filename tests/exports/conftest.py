"""Fixtures shared by the exports tests: the evaluation tests' egress allowance, for the
releases scored by a model server on 127.0.0.1."""

from tests.evaluation.conftest import loopback_allowed  # noqa: F401
