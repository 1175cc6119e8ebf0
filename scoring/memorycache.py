"""Django's local-memory cache, bounded in bytes as well as in entries.

A cached sheet page of a long game weighs about a megabyte: a bound on the number of entries
alone lets a worker grow by gigabytes. Here the values (pickled, as ``LocMemCache`` keeps
them) may weigh ``MAX_BYTES`` in all; the least recently used go first to make room, and a
value heavier than the whole bound is not kept.
"""

from __future__ import annotations

import pickle

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache

MAX_BYTES = 64 * 1024 * 1024
_sizes: dict[str, list[int]] = {}  # bytes held per cache name (shared like LocMemCache's data)


class BoundedMemoryCache(LocMemCache):
    def __init__(self, name: str, params: dict) -> None:
        super().__init__(name, params)
        options = params.get("OPTIONS") or {}
        self._max_bytes = int(options.get("MAX_BYTES", MAX_BYTES))
        self._held = _sizes.setdefault(name, [0])

    def validate_key(self, key) -> None:
        """Nothing to check: the keys are this app's own (names and hex digests), kept in this
        process's memory, never sent to a memcached. Django's check warns of keys a
        memcached would refuse, by a loop over every character of each key, on every get and
        set: some 70 times for a sheet drawn afresh."""

    @property
    def bytes_held(self) -> int:
        return self._held[0]

    def _set(self, key, value, timeout=DEFAULT_TIMEOUT) -> None:
        self._delete(key)
        if len(value) > self._max_bytes:
            return
        while self._cache and (
            len(self._cache) >= self._max_entries or self._held[0] + len(value) > self._max_bytes
        ):
            oldest, dropped = self._cache.popitem()  # the least recently used
            del self._expire_info[oldest]
            self._held[0] -= len(dropped)
        self._cache[key] = value
        self._cache.move_to_end(key, last=False)
        self._expire_info[key] = self.get_backend_timeout(timeout)
        self._held[0] += len(value)

    def _delete(self, key) -> bool:
        value = self._cache.get(key)
        if not super()._delete(key):
            return False
        self._held[0] -= len(value)
        return True

    def incr(self, key, delta=1, version=None):
        key = self.make_and_validate_key(key, version=version)
        with self._lock:
            if self._has_expired(key):
                self._delete(key)
                raise ValueError(f"Key '{key}' not found")
            old = self._cache[key]
            value = pickle.loads(old) + delta
            pickled = pickle.dumps(value, self.pickle_protocol)
            self._cache[key] = pickled
            self._cache.move_to_end(key, last=False)
            self._held[0] += len(pickled) - len(old)
        return value

    def clear(self) -> None:
        with self._lock:
            self._cache.clear()
            self._expire_info.clear()
            self._held[0] = 0
