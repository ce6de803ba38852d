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


@pytest.fixture
def models_folder(settings, tmp_path):
    """Make the test's folder the models folder (MODELS_DIR), where runs find local models
    by their name relative to it; a worker subprocess gets it as MODELS_DIR."""
    settings.MODELS_DIR = tmp_path
    return tmp_path


@pytest.fixture
def models_under_basetemp(settings, tmp_path_factory):
    """Make pytest's temporary folder the models folder, for tests whose checkpoints live in
    folders shared between tests (module fixtures); return its path for a worker's env."""
    settings.MODELS_DIR = tmp_path_factory.getbasetemp()
    return settings.MODELS_DIR
