"""The page cache in the database: its writes skip the disk flush on SQLite, a hand's save never does."""

import pytest
from django.core.cache import cache
from django.db import connection, transaction

pytestmark = pytest.mark.skipif(connection.vendor != "sqlite", reason="the flush setting is SQLite's")


def _synchronous() -> int:
    return connection.connection.execute("PRAGMA synchronous").fetchone()[0]


@pytest.fixture
def statements(db):
    """The statements the SQLite driver runs, PRAGMAs included (they are not Django queries)."""
    connection.ensure_connection()
    seen = []
    connection.connection.set_trace_callback(seen.append)
    yield seen
    connection.connection.set_trace_callback(None)


@pytest.mark.django_db(transaction=True)
def test_a_kept_page_is_written_without_a_flush_and_the_connection_flushes_again_after(statements):
    assert _synchronous() == 2  # FULL, as the settings ask for saves

    cache.set("page:a", b"rendered", 60)
    cache.delete("page:a")

    assert statements.count("PRAGMA synchronous=1") == 2
    assert statements[-1] == "PRAGMA synchronous=2"
    assert _synchronous() == 2
    assert cache.get("page:a") is None


@pytest.mark.django_db(transaction=True)
def test_a_cache_write_inside_a_transaction_keeps_the_flush(statements):
    with transaction.atomic():
        cache.set("page:b", b"rendered", 60)
        assert cache.get("page:b") == b"rendered"

    assert "PRAGMA synchronous=1" not in statements
    assert _synchronous() == 2
