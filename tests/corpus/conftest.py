import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
PIAF = SHARED / "piaf" / "piaf-v1.0.json"
PIAF_2020 = SHARED / "piaf" / "piaf-dataset-2020-02-24.json"
AGENT = "qaplatform-tests/1.0 (https://example.org; tests@example.org)"


@pytest.fixture(autouse=True)
def wikipedia_settings(settings):
    """A user agent (Wikimedia requires one) and no pause between requests to the fakes."""
    settings.WIKIPEDIA_USER_AGENT = AGENT
    settings.WIKIPEDIA_MIN_INTERVAL = 0


def shared_file(path: Path) -> Path:
    """Return a file of ../shared/data, failing in CI and skipping elsewhere when missing."""
    if not path.exists():
        message = f"{path} is missing: the tests read the PIAF data from ../shared/data"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


@pytest.fixture
def piaf_path():
    return shared_file(PIAF)


@pytest.fixture
def piaf_2020_path():
    return shared_file(PIAF_2020)
