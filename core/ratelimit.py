"""Per-person limits on actions that cost the platform (or someone else) work, counted in the
shared cache like the sign-in limits (accounts/signin.py): in Redis for every web process, in
this process's memory while Redis is down (core/cache.py).

A window opens at a person's first action and lasts the rate's period; past the limit, the
action is refused until the window ends, and the refusal says when that is.
"""

from __future__ import annotations

import math
import time

from django.core.cache import cache

from core.errors import ServiceError

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class RateLimited(ServiceError):
    """Refused with 429: `retry_after` seconds until the window ends."""

    def __init__(self, errors: dict[str, list[str]], retry_after: int) -> None:
        super().__init__(errors, status=429)
        self.retry_after = retry_after


def parse_rate(rate: str) -> tuple[int, int]:
    """Return (actions, seconds) of a rate like "20/minute" (DRF's spelling)."""
    number, period = rate.split("/")
    return int(number), PERIODS[period[0]]


def rate_take(*, scope: str, who: object, rate: str) -> int | None:
    """Count one action of `who` in `scope`; return None while under the rate, else the
    seconds until the window ends (the action is then not to be done)."""
    limit, period = parse_rate(rate)
    key = f"rate:{scope}:{who}"
    now = time.time()
    cache.add(f"{key}:start", now, timeout=period)
    cache.add(key, 0, timeout=period)
    try:
        count = cache.incr(key)
    except ValueError:  # the window ended between add and incr: a new one starts
        cache.set(f"{key}:start", now, timeout=period)
        cache.add(key, 1, timeout=period)
        count = 1
    if count <= limit:
        return None
    start = cache.get(f"{key}:start") or now
    return max(1, math.ceil(start + period - now))
