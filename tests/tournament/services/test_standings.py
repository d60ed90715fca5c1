"""The stored team records the standings rank always equal what the signed sheets give, after every kind of
change, and the standings read them at a fixed cost."""

import dataclasses
import threading

import pytest
from django.core.management import call_command
from django.db import connection

from scoring.rules import ByeScoring
from tests.tournament.test_scale_queries import fields, queries
from tournament.models import TeamRecords
from tournament.selectors.standings import (
    standings_from_sheets,
    team_meetings,
    team_tallies,
    tournament_standings,
)
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import tournament_rules_set, tournament_update
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext, HandEntry, hand_update, penalty_add
from tournament.services.teams import PlayerEntry, team_register
from tournament.services.teams.desk import team_desk_update


def assert_stored_as_sheets_give(tournament):
    stored = TeamRecords.objects.get(tournament=tournament)
    assert {int(team): tally for team, tally in stored.records.items()} == team_tallies(tournament)
    assert sorted(stored.meetings, key=str) == sorted(team_meetings(tournament), key=str)
    assert tournament_standings(tournament) == standings_from_sheets(tournament)


def test_every_kind_of_change_leaves_the_stored_records_as_the_sheets_give_them(
    tournament, make_teams, sheet, director
):
    make_teams(tournament, 5)
    rules = dataclasses.replace(tournament.rules, bye_scoring=ByeScoring.WIN_ONLY)
    tournament_rules_set(tournament=tournament, rules=rules)
    assert_stored_as_sheets_give(tournament)
    round_ = round_publish(round=round_draw(tournament=tournament, method="manual", pairs="1 2\n3 4\n5"))
    first, second = round_.tables.order_by("number")
    assert_stored_as_sheets_give(tournament)

    sheet.play(first, "NS")
    assert_stored_as_sheets_give(tournament)
    assert tournament_standings(tournament)[0].team.number == 1
    sheet.play(second, "EW")  # the round is signed: team 5's bye counts now
    assert_stored_as_sheets_give(tournament)
    assert {row.team.number: row.byes for row in tournament_standings(tournament)}[5] == 1

    hand = first.hands.get(sequence=1)
    entry = HandEntry("N", "N", 3, "high", 13, "spades")
    hand_update(
        hand=hand,
        entry=entry,
        context=ChangeContext(version=sheet.version(first), actor=Actor.staff(director), reason="Took all 13"),
    )
    assert_stored_as_sheets_give(tournament)

    penalty_add(
        table=second,
        kind="director_ruling",
        team="EW",
        points=9,
        context=ChangeContext(
            version=sheet.version(second), actor=Actor.staff(director), reason="Slow play", director_ruling=True
        ),
    )
    assert_stored_as_sheets_give(tournament)

    team_desk_update(team=tournament.teams.get(number=3), withdrawn=True)
    assert_stored_as_sheets_give(tournament)
    tournament_update(
        tournament=tournament,
        name=tournament.name,
        qualifying_rounds=tournament.qualifying_rounds,
        paper_size=tournament.paper_size,
        standings_order="total_points,rounds_won,point_difference,head_to_head",
    )
    assert_stored_as_sheets_give(tournament)
    team_register(tournament=tournament, players=[PlayerEntry("Late a", "Gary"), PlayerEntry("Late b", "Gary")])
    assert_stored_as_sheets_give(tournament)

    later = round_publish(round=round_draw(tournament=tournament, method="swiss"))
    sheet.hand(later.tables.order_by("number").first(), "N", "N", 3, "high", 9)  # unsigned: nothing counts yet
    assert_stored_as_sheets_give(tournament)


def test_recompute_scores_stores_the_records_again(tournament, make_teams, sheet):
    make_teams(tournament, 2)
    table = round_publish(round=round_draw(tournament=tournament, method="manual")).tables.get()
    sheet.play(table, "NS")
    TeamRecords.objects.filter(tournament=tournament).update(records={})
    assert tournament_standings(tournament)[0].record.wins == 0, "the standings read what is stored"
    call_command("recompute_scores", tournament.slug, stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert_stored_as_sheets_give(tournament)
    assert tournament_standings(tournament)[0].record.wins == 1


def test_without_stored_records_the_standings_come_from_the_sheets(tournament, make_teams, sheet):
    """As in a database from before the records were stored: nothing is missing from the standings."""
    make_teams(tournament, 2)
    sheet.play(round_publish(round=round_draw(tournament=tournament, method="manual")).tables.get(), "EW")
    TeamRecords.objects.filter(tournament=tournament).delete()
    assert [row.team.number for row in tournament_standings(tournament)] == [2, 1]


def test_standings_and_a_signature_cost_the_same_at_8_and_512_teams(event, big_field, sheet):
    standings, signatures = [], []
    for _, tournament in fields(event, big_field, (8, 512)):
        standings.append(queries(lambda t=tournament: tournament_standings(t)))
        table = round_publish(round=round_draw(tournament=tournament, method="swiss")).tables.order_by("number").last()
        sheet.play(table, "NS", sign=False)
        signatures.append(queries(lambda table=table: sheet.sign_both(table)))
        assert_stored_as_sheets_give(tournament)
    assert standings[0] == standings[1] and signatures[0] == signatures[1], (standings, signatures)


@pytest.mark.django_db(transaction=True)
def test_the_last_two_sheets_of_a_round_signed_at_once_leave_the_records_right(tournament, make_teams, sheet):
    """Each signature stores its teams and the round's byes: the later one sees the earlier one's sheet, so the
    bye, which counts once every sheet of the round is signed, is credited."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes one writer at a time; PostgreSQL lets both signatures in at once")
    make_teams(tournament, 5)
    round_ = round_publish(round=round_draw(tournament=tournament, method="manual", pairs="1 2\n3 4\n5"))
    tables = list(round_.tables.order_by("number"))
    for table in tables:
        sheet.play(table, "NS", sign=False)
        sheet.sign(table, "NS", table.team_at("NS").members[0].player)
    barrier = threading.Barrier(len(tables))
    outcomes = []

    def sign(table):
        try:
            barrier.wait()
            sheet.sign(table, "EW", table.team_at("EW").members[0].player)
            outcomes.append("signed")
        finally:
            connection.close()

    threads = [threading.Thread(target=sign, args=(table,)) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outcomes == ["signed", "signed"]
    assert_stored_as_sheets_give(tournament)
    assert {row.team.number: row.byes for row in tournament_standings(tournament)}[5] == 1
