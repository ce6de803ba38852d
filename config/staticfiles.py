"""Static files under content-hashed names, cached for a year (docs/decisions.md, issue 12).

`collectstatic` writes each file under a name holding a hash of its content, plus a gzipped
copy, into STATIC_ROOT; WhiteNoise serves them. A hashed name never changes content, so a
browser may keep it for a year without asking again; a new version is a new name.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage

ONE_YEAR = 31_536_000  # seconds


class HashedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's hashed, compressed storage, naming the hashed files under DEBUG too.

    Django's hashed storages give the plain name while DEBUG is on, so that an edited file
    shows without `collectstatic`. `make run` (DEBUG) collects the files first and serves them
    like production, so its pages must name the hashed files to get the long cache.
    """

    def url(self, name, force=False):
        return super().url(name, force=True)


def cache_for_a_year(headers, path, url):
    """Cache a hashed file for a year (WhiteNoise says ten; a year is the usual ceiling)."""
    if "immutable" in (headers.get("Cache-Control") or ""):
        headers["Cache-Control"] = f"max-age={ONE_YEAR}, public, immutable"
