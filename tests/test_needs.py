"""A missing service, data file or package fails the run in CI and skips it elsewhere."""

from pathlib import Path

import pytest

from tests import needs


@pytest.fixture(params=[True, False], ids=["ci", "local"])
def in_ci(request, monkeypatch):
    monkeypatch.setattr(needs, "IN_CI", request.param)
    return request.param


def outcome(in_ci: bool):
    return pytest.fail.Exception if in_ci else pytest.skip.Exception


def test_a_missing_file_fails_in_ci_and_skips_elsewhere(in_ci, tmp_path):
    with pytest.raises(outcome(in_ci)) as stopped:
        needs.require_file(tmp_path / "piaf.json", "the PIAF data")
    assert str(stopped.value) == f"{tmp_path / 'piaf.json'} is missing: the PIAF data"


def test_a_missing_package_fails_in_ci_and_skips_elsewhere(in_ci):
    with pytest.raises(outcome(in_ci)) as stopped:
        needs.require_module("no_such_package_here")
    assert str(stopped.value).startswith("no_such_package_here cannot be imported (")


def test_what_is_there_is_returned(in_ci, tmp_path):
    present = tmp_path / "here.json"
    present.write_text("{}")
    assert needs.require_file(present) == present
    assert needs.require_module("json").dumps([]) == "[]"


def test_the_shared_data_is_beside_the_checkout():
    assert Path(__file__).resolve().parents[2] / "shared" / "data" == needs.SHARED_DATA
    assert needs.PIAF.name == "piaf-v1.0.json"
