import threading

import pytest
from django.db import connection, transaction

from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.services.draws import round_unpublish
from tournament.services.sheets import ChangeContext, HandEntry, StaleSheet, hand_record
from tournament.services.sheets.write import locked_table


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
            hand_record(
                table=table, entry=HandEntry("N", bidder, 3, "high", 9, "spades"), context=ChangeContext(version=0)
            )
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
    assert refused.startswith("This sheet changed since you opened it: Hand 1: 3 Uptown ♠ by ")
    assert table.hands.count() == 1


def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's writers take turns by design; the PostgreSQL pass runs this")


def _in_thread(call) -> tuple[threading.Thread, list]:
    """``call`` run on its own connection in a thread; what it returned or raised lands in the list."""
    outcome = []

    def run():
        try:
            outcome.append(call())
        except ServiceError as error:
            outcome.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


@pytest.mark.django_db(transaction=True)
def test_a_save_does_not_wait_for_another_tables_save_to_commit(tournament, make_teams):
    """Two tables of one round save at once: the second is not held until the first commits (the table's
    round and tournament are not locked for update by a save)."""
    _postgres_only()
    make_teams(tournament, 4)
    first, second = round_published(tournament).tables.order_by("number")
    holding, release = threading.Event(), threading.Event()

    def first_save_left_open():
        with transaction.atomic():
            locked_table(first, first.version)
            holding.set()
            release.wait(timeout=30)

    held, _ = _in_thread(first_save_left_open)
    try:
        assert holding.wait(timeout=10)
        saving, outcome = _in_thread(
            lambda: hand_record(
                table=second, entry=HandEntry("N", "N", 3, "high", 9, "spades"), context=ChangeContext(version=0)
            )
        )
        saving.join(timeout=10)
        assert not saving.is_alive(), "the save waited for another table's open transaction"
        assert second.hands.count() == 1 and not isinstance(outcome[0], ServiceError)
    finally:
        release.set()
        held.join(timeout=30)


@pytest.mark.django_db(transaction=True)
def test_a_save_waits_for_the_round_being_unpublished_and_is_refused(tournament, make_teams):
    """The director unpublishes the round while a phone saves: the save waits for the director's change and
    then finds the round a draft, so no hand lands in a round that is no longer published."""
    _postgres_only()
    make_teams(tournament, 2)
    round_ = round_published(tournament)
    table = round_.tables.get()
    holding, release = threading.Event(), threading.Event()

    def unpublish_left_open():
        with transaction.atomic():
            round_unpublish(round=round_)
            holding.set()
            release.wait(timeout=30)

    unpublishing, _ = _in_thread(unpublish_left_open)
    assert holding.wait(timeout=10)
    saving, outcome = _in_thread(
        lambda: hand_record(
            table=table, entry=HandEntry("N", "N", 3, "high", 9, "spades"), context=ChangeContext(version=0)
        )
    )
    saving.join(timeout=2)
    waited = saving.is_alive()
    release.set()
    unpublishing.join(timeout=30)
    saving.join(timeout=30)
    assert waited, "the save went on while the round was being unpublished"
    assert isinstance(outcome[0], ServiceError) and outcome[0].message == "This round is not published yet."
    assert table.hands.count() == 0


@pytest.mark.django_db(transaction=True)
def test_the_last_two_sheets_signed_at_once_leave_the_round_complete(tournament, make_teams, sheet):
    """The last two tables of a round are signed at once: the second to store whether the round is complete waits
    for the first's commit and sees its signature, so the round is complete and its clock stops (neither sees
    the other's table still playing)."""
    _postgres_only()
    make_teams(tournament, 4)
    round_ = round_published(tournament)
    first, second = round_.tables.order_by("number")
    last_signers = {}
    for table in (first, second):
        sheet.play(table, sign=False)
        sheet.sign(table, "NS", table.team_at("NS").members[0].player)
        last_signers[table.pk] = table.team_at("EW").members[0].player
    holding, release = threading.Event(), threading.Event()

    def first_signature_left_open():
        with transaction.atomic():
            sheet.sign(first, "EW", last_signers[first.pk])
            holding.set()
            release.wait(timeout=30)

    held, _ = _in_thread(first_signature_left_open)
    try:
        assert holding.wait(timeout=10)
        signing, outcome = _in_thread(lambda: sheet.sign(second, "EW", last_signers[second.pk]))
        signing.join(timeout=2)
        assert signing.is_alive(), "the second signature did not wait to see the first"
    finally:
        release.set()
        held.join(timeout=30)
    signing.join(timeout=30)
    assert not isinstance(outcome[0], ServiceError)
    round_.refresh_from_db()
    assert round_.complete
