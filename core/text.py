"""Text the database can store. Pure: no Django import, so pure modules can use it."""

import re

# NUL cannot be stored by PostgreSQL; lone surrogates cannot be encoded as UTF-8.
BAD_CHARACTERS = re.compile("[\x00\ud800-\udfff]")


def has_bad_characters(text: str) -> bool:
    return bool(BAD_CHARACTERS.search(text))
