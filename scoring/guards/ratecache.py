"""The rate limits' counts (``scoring/guards/limits.py``):
a cache backend for django-ratelimit whose
``add`` and ``incr`` are each one statement, atomic on SQLite and on PostgreSQL.

django-ratelimit counts a client's requests with ``cache.add(key, 1)`` (a new window) and
``cache.incr(key)``. Django's database cache increments with a read and a write: requests at
the same moment counted once between them, and on PostgreSQL ten threads of one client created
63 to 96 games past a limit of 30. Here ``incr`` is ``UPDATE … SET value = value + 1`` and
``add`` an ``INSERT … ON CONFLICT`` that replaces only an expired count, each ``RETURNING`` what
it did. The table is made as Django's database cache makes one (``createcachetable``,
migration 0010, a table of its own): ``cache_key``, ``value`` (a count, as text),
``expires``; expired counts are deleted when a new window starts.
"""

from __future__ import annotations

from datetime import timedelta

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import BaseDatabaseCache
from django.db import connections, router
from django.utils import timezone

FOREVER = 10 * 365 * 86400  # a count without a timeout (rate limits always give one)


class CountsCache(BaseDatabaseCache):
    """Integer counts with an expiry, shared by every worker and server of the database."""

    def _run(self, sql: str, params: list, write: bool = True) -> list[tuple]:
        pick = router.db_for_write if write else router.db_for_read
        connection = connections[pick(self.cache_model_class)]
        table = connection.ops.quote_name(self._table)
        with connection.cursor() as cursor:
            cursor.execute(sql.format(table=table), params)
            return cursor.fetchall() if cursor.description else []

    def _moment(self, seconds: float = 0) -> object:
        """Now, or ``seconds`` from now, as the database compares it."""
        moment = timezone.now() + timedelta(seconds=seconds)
        connection = connections[router.db_for_write(self.cache_model_class)]
        return connection.ops.adapt_datetimefield_value(moment)

    def _expires(self, timeout) -> object:
        """When a count set now with ``timeout`` (seconds; None: never, 0: at once) ends."""
        if timeout is DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        return self._moment(FOREVER if timeout is None else timeout or -1)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> bool:
        """Start a count at ``value``, unless a count under ``key`` has not expired."""
        key = self.make_and_validate_key(key, version=version)
        now = self._moment()
        added = self._run(
            "INSERT INTO {table} (cache_key, value, expires) VALUES (%s, %s, %s) "
            "ON CONFLICT (cache_key) DO UPDATE SET value = excluded.value, "
            "expires = excluded.expires WHERE {table}.expires < %s RETURNING cache_key",
            [key, str(int(value)), self._expires(timeout), now],
        )
        if added:  # a new window: the counts of ended ones go
            self._run("DELETE FROM {table} WHERE expires < %s", [now])
        return bool(added)

    def incr(self, key, delta=1, version=None) -> int:
        """The count under ``key`` plus ``delta``, stored and returned; ValueError if there is
        none (or it expired)."""
        key = self.make_and_validate_key(key, version=version)
        rows = self._run(
            "UPDATE {table} SET value = CAST(CAST(value AS INTEGER) + %s AS TEXT) "
            "WHERE cache_key = %s AND expires >= %s RETURNING value",
            [int(delta), key, self._moment()],
        )
        if not rows:
            raise ValueError(f"Key '{key}' not found")
        return int(rows[0][0])

    def get(self, key, default=None, version=None):
        key = self.make_and_validate_key(key, version=version)
        rows = self._run(
            "SELECT value FROM {table} WHERE cache_key = %s AND expires >= %s",
            [key, self._moment()],
            write=False,
        )
        return int(rows[0][0]) if rows else default

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> None:
        key = self.make_and_validate_key(key, version=version)
        self._run(
            "INSERT INTO {table} (cache_key, value, expires) VALUES (%s, %s, %s) "
            "ON CONFLICT (cache_key) DO UPDATE SET value = excluded.value, "
            "expires = excluded.expires",
            [key, str(int(value)), self._expires(timeout)],
        )

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        rows = self._run(
            "UPDATE {table} SET expires = %s WHERE cache_key = %s AND expires >= %s "
            "RETURNING cache_key",
            [self._expires(timeout), key, self._moment()],
        )
        return bool(rows)

    def delete(self, key, version=None) -> bool:
        key = self.make_and_validate_key(key, version=version)
        return bool(
            self._run("DELETE FROM {table} WHERE cache_key = %s RETURNING cache_key", [key])
        )

    def clear(self) -> None:
        self._run("DELETE FROM {table}", [])
