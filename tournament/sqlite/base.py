"""Django's SQLite backend, with the write transactions of every process taken one at a time, in turn.

A threaded gunicorn worker runs several requests at once, and several workers share the database file. SQLite
admits one writer, and a writer that finds the write lock taken sleeps and retries until its busy timeout: the
retries are not queued, so under load a save could lose every retry and fail with "database is locked" once the
timeout ran out (it did, as a few server errors, with 4 workers of 8 threads on a starved machine). Here a thread
takes its process's lock for the database, then the lock every process holds on a file beside the database
(``flock``, which the kernel hands to a waiting process and releases if the holder dies), before
``BEGIN IMMEDIATE``, and gives both back when the transaction ends: SQLite's busy wait never sees two writers of
the app, and a writer waits its turn as long as it takes rather than failing. Reads outside a transaction take
neither and stay concurrent (WAL).
"""

import fcntl
import os
import threading

from django.db.backends.sqlite3 import base

_locks: dict[str, threading.Lock] = {}
_files: dict[tuple[str, int], int] = {}
_locks_guard = threading.Lock()


def write_lock(name: str) -> threading.Lock:
    """The process's lock for the write transactions on the database file ``name``."""
    with _locks_guard:
        return _locks.setdefault(name, threading.Lock())


def _lock_file(name: str) -> int:
    """The process's open lock file beside the database file ``name``, on which the processes take turns (opened
    by each process itself: a lock taken through a descriptor inherited across a fork would be shared)."""
    key = (name, os.getpid())
    with _locks_guard:
        if key not in _files:
            _files[key] = os.open(f"{name}-writer.lock", os.O_RDWR | os.O_CREAT, 0o644)
        return _files[key]


class DatabaseWrapper(base.DatabaseWrapper):
    holds_write_lock = False

    def _start_transaction_under_autocommit(self):
        name = self.settings_dict["NAME"]
        lock = write_lock(name)
        lock.acquire()
        self.holds_write_lock = True
        try:
            if not self.is_in_memory_db():
                # Held by this thread alone (the process's lock above): the other processes wait here.
                fcntl.flock(_lock_file(name), fcntl.LOCK_EX)
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_write_lock(closed=True)
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
        """Give the locks back once this connection's transaction is over (a failed commit leaves it open)."""
        if self.holds_write_lock and (closed or self.connection is None or not self.connection.in_transaction):
            self.holds_write_lock = False
            name = self.settings_dict["NAME"]
            if not self.is_in_memory_db():
                fcntl.flock(_lock_file(name), fcntl.LOCK_UN)
            write_lock(name).release()
