import threading

import pytest
from django.db import connection
from django.db.backends.sqlite3 import base as django_sqlite

from tests.conftest import round_published
from tournament.services.sheets import ChangeContext, HandEntry, StaleSheet, hand_record
from tournament.sqlite.base import write_lock

PHONES = 16


@pytest.fixture
def sqlite_file():
    if connection.vendor != "sqlite" or connection.is_in_memory_db():
        pytest.skip("the write lock is SQLite's; PostgreSQL lets its writers in at once")


@pytest.fixture
def writers(monkeypatch):
    """How many of the process's threads are at once between asking SQLite for its write lock (BEGIN) and ending
    their transaction: each is one more writer in SQLite's busy wait."""
    seen = {"now": 0, "most": 0}
    guard = threading.Lock()
    begin, commit, rollback = (
        django_sqlite.DatabaseWrapper._start_transaction_under_autocommit,
        django_sqlite.DatabaseWrapper._commit,
        django_sqlite.DatabaseWrapper._rollback,
    )

    def counted_begin(self):
        with guard:
            seen["now"] += 1
            seen["most"] = max(seen["most"], seen["now"])
        begin(self)

    def counted_end(end):
        def ended(self):
            if self.connection is not None and self.connection.in_transaction:
                with guard:
                    seen["now"] -= 1
            return end(self)

        return ended

    monkeypatch.setattr(django_sqlite.DatabaseWrapper, "_start_transaction_under_autocommit", counted_begin)
    monkeypatch.setattr(django_sqlite.DatabaseWrapper, "_commit", counted_end(commit))
    monkeypatch.setattr(django_sqlite.DatabaseWrapper, "_rollback", counted_end(rollback))
    return seen


def at_once(save, tables) -> list[str]:
    """Each table's phone saves at the same moment from its own thread (its own connection); their outcomes."""
    barrier = threading.Barrier(len(tables))
    outcomes = []

    def phone(table):
        try:
            barrier.wait()
            outcomes.append(save(table))
        except Exception as error:
            outcomes.append(f"{type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=(table,)) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.fixture
def tables(transactional_db, sqlite_file, tournament, make_teams):
    make_teams(tournament, 2 * PHONES)
    round_ = round_published(tournament)
    return list(round_.tables.order_by("number"))


def test_every_table_saving_at_once_is_saved_one_writer_at_a_time(tables, writers):
    def save(table):
        hand_record(table=table, entry=HandEntry("N", "N", 3, "high", 9, "spades"), context=ChangeContext(version=0))
        return "saved"

    assert at_once(save, tables) == ["saved"] * PHONES
    assert [table.hands.count() for table in tables] == [1] * PHONES
    assert writers["most"] == 1


def test_a_refused_save_lets_the_next_writer_in(tables, writers):
    """A save refused inside its transaction (rolled back) gives the lock back like a saved one."""

    def save_stale(table):
        try:
            hand_record(
                table=table, entry=HandEntry("N", "N", 3, "high", 9, "spades"), context=ChangeContext(version=7)
            )
        except StaleSheet:
            return "refused"
        return "saved"

    assert at_once(save_stale, tables) == ["refused"] * PHONES
    assert writers["most"] == 1
    lock = write_lock(connection.settings_dict["NAME"])
    assert lock.acquire(blocking=False)
    lock.release()
