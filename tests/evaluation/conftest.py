"""Fixtures shared by the evaluation tests: the hand-scored questions of the human performance
tests (`test_human`), for the page tests that compare the stored figure with them."""

import pytest

from tests.evaluation.test_human import answered, people, written  # noqa: F401


@pytest.fixture
def loopback_allowed(settings):
    """Let the egress policy reach the tests' model servers on 127.0.0.1, as an operator
    would allow a model server inside the cluster (EGRESS_ALLOWED_NETWORKS). A worker
    subprocess needs the same variable in its environment (LOOPBACK_ALLOWED_ENV)."""
    settings.EGRESS_ALLOWED_NETWORKS = ["127.0.0.0/8"]


LOOPBACK_ALLOWED_ENV = {"EGRESS_ALLOWED_NETWORKS": "127.0.0.0/8"}
