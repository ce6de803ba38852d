"""API token keys: how they are made and how they are stored (their digest only). Pure."""

import hashlib
import secrets

KEY_BYTES = 20  # 40 hexadecimal characters, like Django REST framework's own tokens


def new_key() -> str:
    return secrets.token_hex(KEY_BYTES)


def key_digest(key: str) -> str:
    """Return the SHA-256 of a key, as stored. A key is random: no salt or stretching needed."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
