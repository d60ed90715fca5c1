"""The shared cache in the app's own database, with writes that do not wait for the disk on SQLite.

A kept page is a copy that can always be rendered again: losing the last few to a power cut costs a render,
not a result. The venue's SQLite database flushes every commit to disk (``PRAGMA synchronous=FULL``, so a
saved hand survives a power cut), and the page cache lives in that database; at 512 teams a standings render
wrote the lock, the page and the lock's release, three flushes holding the write lock that the phones'
saves queue on. Here the cache's own writes commit with ``synchronous=NORMAL``, which in WAL mode keeps the
database consistent and defers the flush to the next checkpoint or the next durable commit (a save's commit
flushes everything written before it). Writes inside a transaction keep the connection's setting: SQLite
does not let it change there.
"""

from contextlib import contextmanager

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.db import DatabaseCache
from django.db import connections, router

NORMAL = 1


class PageCache(DatabaseCache):
    def _base_set(self, mode, key, value, timeout=DEFAULT_TIMEOUT):
        with self._undurable():
            return super()._base_set(mode, key, value, timeout)

    def _base_delete_many(self, keys):
        with self._undurable():
            return super()._base_delete_many(keys)

    def clear(self):
        with self._undurable():
            return super().clear()

    @contextmanager
    def _undurable(self):
        """Commit what runs inside without flushing to disk, on SQLite and outside a transaction."""
        connection = connections[router.db_for_write(self.cache_model_class)]
        if connection.vendor != "sqlite" or connection.in_atomic_block:
            yield
            return
        connection.ensure_connection()
        # The driver's own connection: a setting, not one of the page's queries (the counts tests pin).
        raw = connection.connection
        level = raw.execute("PRAGMA synchronous").fetchone()[0]
        raw.execute(f"PRAGMA synchronous={min(level, NORMAL)}")
        try:
            yield
        finally:
            if connection.connection is raw:
                raw.execute(f"PRAGMA synchronous={level}")
