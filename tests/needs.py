"""What a test needs from outside the project: a service, a shared data file, a package.

When it is missing, the test fails under CI=true (CI must never pass by skipping) and skips
elsewhere, saying what is missing, so that a developer without a service can still run the
rest. Every test reaches outside data and optional packages through these helpers.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from types import ModuleType

import pytest

IN_CI = os.environ.get("CI") == "true"

# ../shared/data beside the checkout: real outside data (PIAF, recorded MediaWiki replies).
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
PIAF = SHARED_DATA / "piaf" / "piaf-v1.0.json"
PIAF_2020 = SHARED_DATA / "piaf" / "piaf-dataset-2020-02-24.json"


def require_service(reason: str):
    """Fail in CI, skip (saying why) elsewhere."""
    if IN_CI:
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_file(path: Path, why: str = "") -> Path:
    """Return the path of a file the test reads; missing, fail in CI and skip elsewhere."""
    if not path.is_file():
        require_service(f"{path} is missing" + (f": {why}" if why else ""))
    return path


def require_module(name: str, why: str = "") -> ModuleType:
    """Import and return a package the test needs; missing, fail in CI and skip elsewhere."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        require_service(f"{name} cannot be imported ({error})" + (f": {why}" if why else ""))
        raise  # not reached: require_service fails or skips
