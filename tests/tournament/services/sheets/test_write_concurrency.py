import threading

import pytest
from django.db import connection

from tournament.errors import ServiceError
from tournament.services.sheets import HandEntry, StaleSheet, hand_record


@pytest.mark.django_db(transaction=True)
def test_two_devices_saving_the_same_table_at_once(table):
    """Both phones saw version 0; one save lands, the other is told the sheet changed."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "the in-memory SQLite test database cannot hold two connections' locks; the PostgreSQL pass runs this"
        )
    barrier = threading.Barrier(2)
    outcomes = []

    def save(bidder: str) -> None:
        try:
            barrier.wait()
            hand_record(table=table, version=0, entry=HandEntry("N", bidder, 3, "high", 9, "spades"))
            outcomes.append("saved")
        except StaleSheet as error:
            outcomes.append(error.message)
        except ServiceError as error:
            outcomes.append(f"unexpected: {error.message}")
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(bidder,)) for bidder in ("N", "E")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert "saved" in outcomes and len(outcomes) == 2
    refused = next(outcome for outcome in outcomes if outcome != "saved")
    assert refused.startswith("This sheet changed since you opened it: Hand 1: 3 ♠ by ")
    assert table.hands.count() == 1
