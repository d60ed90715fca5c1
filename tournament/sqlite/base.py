"""Django's SQLite backend, with a process's write transactions taken one at a time.

A threaded gunicorn worker runs several requests at once. SQLite admits one writer to a database, and a
writer that finds the write lock taken sleeps and retries until its busy timeout: the retries are not
queued, so with many threads in each of several processes a save can lose every retry and fail with
"database is locked" after the whole timeout. Here a thread takes its process's lock for the database
before ``BEGIN IMMEDIATE`` and gives it back when the transaction ends, so SQLite's busy wait only ever
sees one writer per process, and the threads of a process queue on a lock the operating system hands
straight to the next one. Reads outside a transaction do not take it and stay concurrent (WAL).
"""

import threading

from django.db import OperationalError
from django.db.backends.sqlite3 import base

_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def write_lock(name: str) -> threading.Lock:
    """The process's lock for the write transactions on the database file ``name``."""
    with _locks_guard:
        return _locks.setdefault(name, threading.Lock())


class DatabaseWrapper(base.DatabaseWrapper):
    holds_write_lock = False

    def _start_transaction_under_autocommit(self):
        lock = write_lock(self.settings_dict["NAME"])
        # As long as SQLite itself would wait: a writer that cannot get in is told, as before.
        if not lock.acquire(timeout=self.settings_dict["OPTIONS"].get("timeout", 5)):
            raise OperationalError("database is locked")
        self.holds_write_lock = True
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._release_write_lock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._release_write_lock()

    def _close(self):
        try:
            return super()._close()
        finally:
            self._release_write_lock(closed=True)

    def _release_write_lock(self, *, closed=False):
        """Give the lock back once this connection's transaction is over (a failed commit leaves it open)."""
        if self.holds_write_lock and (closed or not self.connection.in_transaction):
            self.holds_write_lock = False
            write_lock(self.settings_dict["NAME"]).release()
