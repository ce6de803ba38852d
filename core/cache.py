"""The shared cache, kept usable while Redis is down.

Rate limits (sign-in, tokens, submissions) keep their counters in the cache, shared by every
web process through Redis. When Redis cannot be reached, a limit must not turn into a refusal
of every request: `ResilientRedisCache` answers from this process's memory instead (the limits
then count per process, which is looser but still a limit), logs the outage at most once a
minute, and goes back to Redis as soon as it answers again.
"""

from __future__ import annotations

import logging
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

LOG_EVERY_SECONDS = 60
# Methods of Django's cache API that reach Redis; each falls back to memory on a Redis error.
FALLIBLE = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
)


class ReusedClients(RedisCacheClient):
    """Django's Redis cache client, keeping one `redis.Redis` per connection pool.

    Django makes a new `redis.Redis` on every cache call, which fills its table of reply
    callbacks each time: about 0.3 ms of CPU per call, measured on the work loop's hot path
    (bench/work_loop_profile.py --cprofile). A `redis.Redis` is safe to share between threads
    (each command takes a connection from the pool), so one per pool is enough.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:
                self._pools[index] = self._pool_class.from_url(
                    self._servers[index], **self._pool_options
                )
            client = self._clients[index] = self._client(connection_pool=self._pools[index])
        return client


class ResilientRedisCache(RedisCache):
    """Django's Redis cache that falls back to process memory while Redis is unreachable."""

    def __init__(self, server, params):
        options = {"socket_connect_timeout": 1, "socket_timeout": 2} | params.get("OPTIONS", {})
        super().__init__(server, params | {"OPTIONS": options})
        self._class = ReusedClients
        keys = {k: v for k, v in params.items() if k in ("TIMEOUT", "KEY_PREFIX", "VERSION")}
        self._fallback = LocMemCache(f"fallback-{server}", keys)
        self._logged_at = 0.0

    def _degraded(self, error: Exception) -> None:
        now = time.monotonic()
        if now - self._logged_at >= LOG_EVERY_SECONDS:
            self._logged_at = now
            logger.error(
                "Redis cache unreachable (%s): counters fall back to this process's memory",
                error,
            )

    def healthy(self) -> tuple[bool, str]:
        """Ask Redis itself (no fallback): (reachable, what to say)."""
        try:
            self._cache.get_client(write=True).ping()
        except RedisError as error:
            return False, f"unreachable ({type(error).__name__}); limits count per process"
        return True, "ok"


def _resilient(name: str):
    redis_method = getattr(RedisCache, name)

    def method(self, *args, **kwargs):
        try:
            return redis_method(self, *args, **kwargs)
        except RedisError as error:
            self._degraded(error)
            return getattr(self._fallback, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = redis_method.__doc__
    return method


for _name in FALLIBLE:
    setattr(ResilientRedisCache, _name, _resilient(_name))


def cache_health(cache) -> tuple[bool, str]:
    """Return (reachable, what to say) for the cache: a local one is always there."""
    if isinstance(cache, ResilientRedisCache):
        return cache.healthy()
    return True, "ok (this process's memory)"
