import pytest

from tests.needs import PIAF, PIAF_2020, require_file

AGENT = "qaplatform-tests/1.0 (https://example.org; tests@example.org)"


@pytest.fixture(autouse=True)
def wikipedia_settings(settings):
    """A user agent (Wikimedia requires one) and no pause between requests to the fakes."""
    settings.WIKIPEDIA_USER_AGENT = AGENT
    settings.WIKIPEDIA_MIN_INTERVAL = 0


@pytest.fixture
def piaf_path():
    return require_file(PIAF)


@pytest.fixture
def piaf_2020_path():
    return require_file(PIAF_2020)
