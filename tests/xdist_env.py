"""Each process of a parallel run (pytest-xdist) gets a Redis database of its own.

Loaded with `-p tests.xdist_env` (pyproject's addopts), so it runs before Django reads its
settings. The test databases are already one per process (pytest-django names them
`test_qaplatform_gw0`, `…_gw1`); without this the Redis queues would be shared, and a real
worker started by one process would take the jobs of the other's tests (they name rows of
another database). Worker `gwN` uses the database after REDIS_URL's by N; a run without
xdist is left as it is.
"""

import os

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
_url = os.environ.get("REDIS_URL", "")
if _worker.startswith("gw") and _url:
    _base, _slash, _db = _url.rpartition("/")
    if _slash and _db.isdigit() and "://" in _base:
        os.environ["REDIS_URL"] = f"{_base}/{int(_db) + int(_worker[2:])}"
