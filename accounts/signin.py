"""Limits on password guessing, per address and per account.

Per address: at most 20 sign-in attempts a minute (the form here; the token API has DRF's
`auth` throttle at the same rate).

Per account (OWASP ASVS 2.2.1: at most 100 failed attempts an hour): the failures of an account
are counted for an hour from the first one; past 100, the account refuses passwords for the
rest of that hour, from anywhere it is not trusted. A browser where the account signed in
before is trusted: it carries a signed device cookie naming the account, its failures are not
counted and the lock does not apply to it (the per-address limit still does). So an attacker
who guesses from many addresses gets 100 tries an hour, and cannot lock the real person out of
their own browser; a script asking for a token (no cookie) waits for the hour to end, and the
tokens it already holds keep working. Counters live in the cache (Redis; process memory while
Redis is down, see core/cache.py).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.utils.translation import gettext as _

ADDRESS_ATTEMPTS = 20  # per client address and minute
ACCOUNT_WINDOW_SECONDS = 3600
DEVICE_COOKIE = "qa_device"
DEVICE_SALT = "accounts.signin.device"
DEVICE_MAX_AGE = 365 * 24 * 3600


def address_allowed(address: str) -> bool:
    """Count an attempt from this address; False past ADDRESS_ATTEMPTS in the minute."""
    key = f"login-attempts:{address}"
    cache.add(key, 0, timeout=60)
    return cache.incr(key) <= ADDRESS_ATTEMPTS


def _account_key(username: str) -> str:
    digest = hashlib.sha256(username.strip().casefold().encode("utf-8", "replace")).hexdigest()
    return f"login-failures:{digest[:32]}"


def account_locked(username: str) -> bool:
    """Tell whether this account refuses untrusted attempts for now."""
    return (cache.get(_account_key(username)) or 0) >= settings.LOGIN_ACCOUNT_FAILURES


def account_failed(username: str) -> None:
    """Count a failed attempt on this account (kept an hour from the first failure)."""
    key = _account_key(username)
    cache.add(key, 0, timeout=ACCOUNT_WINDOW_SECONDS)
    try:
        cache.incr(key)
    except ValueError:  # expired between add and incr: a new window starts
        cache.add(key, 1, timeout=ACCOUNT_WINDOW_SECONDS)


def locked_message() -> str:
    return _(
        "Too many failed sign-ins for this account in the last hour. Sign in from a browser "
        "where you signed in before, wait for the hour to end, or ask an admin for a link to "
        "set a new password."
    )


def device_token(username: str) -> str:
    """Return the signed device cookie's value for an account that just signed in."""
    return signing.dumps(username.strip().casefold(), salt=DEVICE_SALT, compress=True)


def device_trusted(cookie: str | None, username: str) -> bool:
    """Tell whether this browser signed in as this account before (a valid device cookie)."""
    if not cookie or not isinstance(username, str):
        return False
    try:
        known = signing.loads(cookie, salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE)
    except signing.BadSignature:
        return False
    return known == username.strip().casefold()
