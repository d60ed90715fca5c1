"""The director's real day, as a new director would run it: 16 teams, 3 rounds on a 20-minute clock; two teams
check themselves in from their phones; in round 1 one table is paused and given 3 minutes and another has time
called after hand 3; before round 2 a team is marked sitting it out, and in round 2 a substitute plays for one
player and a table is a forfeit. The standings, the archive round trip and the printed sheets agree with RULES.md
(Time; Absent teams and substitutes; Standings)."""

import json
from collections import defaultdict
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import Pair, RuleSet, bye_points
from tests.tournament.test_printing import pdf_pages
from tournament.models import Round, Table
from tournament.printing import round_sheets_pdf
from tournament.selectors.standings import tournament_standings
from tournament.services import clock
from tournament.services.absence import substitute_approve, table_forfeit_declare, team_sit_out_set
from tournament.services.archive import event_export, event_import
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import tournament_rules_set
from tournament.services.log import Actor
from tournament.services.teams import team_desk_update

NS, EW = Pair.NORTH_SOUTH, Pair.EAST_WEST


def time_up(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=1))
    table.refresh_from_db()


def begun_long_ago(round_: Round) -> None:
    """The round's clock started 16 minutes ago: past the 15 after which a team may be declared absent."""
    Round.objects.filter(pk=round_.pk).update(clock_started_at=timezone.now() - timedelta(minutes=16))
    round_.refresh_from_db()


def expected_records(tournament, rules) -> dict[int, tuple[int, int, int, int, int]]:
    """Each team's wins, losses, ties, points for and against, worked out from the sheets as RULES.md says: a
    played table counts for both; a bye, and a forfeit's present team, win and score the average of that round's
    winners at its played tables; an absent team loses with 0 for and 0 against; sitting out counts nothing."""
    records = defaultdict(lambda: [0, 0, 0, 0, 0])
    for round_ in tournament.rounds.order_by("number"):
        winners, credited = [], []
        for table in round_.tables.all():
            sides = {seating.pair: seating.team_id for seating in table.seatings.all()}
            if table.forfeit:
                for pair, team_id in sides.items():
                    if table.forfeit in (pair, "both"):
                        records[team_id][1] += 1
                    else:
                        credited.append(team_id)
                continue
            totals = {NS: table.ns_total, EW: table.ew_total}
            for pair, team_id in sides.items():
                mine, theirs = totals[pair], totals[Pair(pair).other]
                records[team_id][0 if mine > theirs else 1 if mine < theirs else 2] += 1
                records[team_id][3] += mine
                records[team_id][4] += theirs
                if mine > theirs:
                    winners.append(mine)
        credited += [seating.team_id for seating in round_.seatings.filter(table__isnull=True)]
        for team_id in credited:
            records[team_id][0] += 1
            records[team_id][3] += bye_points(rules, winners)
    return {team_id: tuple(record) for team_id, record in records.items()}


def standings_of(tournament):
    return {
        row.team.pk: (
            row.record.wins,
            row.record.losses,
            row.record.ties,
            row.record.points_for,
            row.record.points_against,
        )
        for row in tournament_standings(tournament)
        if row.record.rounds_played
    }


@pytest.mark.django_db
def test_a_sixteen_team_three_round_day_on_the_clock(client, tournament, make_teams, sheet, director):
    staff = Actor.staff(director)
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20), actor=staff)
    teams = make_teams(tournament, 16, checked_in=False)

    # Two teams check themselves in from their phones; the desk checks in the rest.
    for team in teams[:2]:
        client.post(reverse("team_open"), {"code": team.code})
        client.post(reverse("team_here", args=[team.pk]))
    for team in teams[2:]:
        team_desk_update(team=team, checked_in=True, actor=staff)
    assert tournament.teams.filter(checked_in=True, self_checked_in_at__isnull=False).count() == 2

    # Round 1 on the clock: table 2 paused and given 3 minutes; table 3 has time called after hand 3.
    round_1 = round_publish(round=round_draw(tournament=tournament, method="random", seed=7, actor=staff), actor=staff)
    clock.round_clock_start(round=round_1, actor=staff)
    paused, called = round_1.tables.get(number=2), round_1.tables.get(number=3)
    clock.table_clock_pause(table=paused, actor=staff)
    clock.table_clock_add(table=paused, minutes=3, actor=staff)
    clock.table_clock_resume(table=paused, actor=staff)
    paused.refresh_from_db()
    round_1.refresh_from_db()
    assert paused.clock_ends_at - round_1.clock_ends_at >= timedelta(minutes=3)
    sheet.hand(called, "N", "N", 3, "high", 9)
    sheet.hand(called, "E", "E", 4, "low", 10)
    time_up(called)
    sheet.hand(called, "S", "S", 2, "high", 7)
    called.refresh_from_db()
    assert called.complete and called.time_called_after == 3
    sheet.sign_both(called)
    for table in round_1.tables.exclude(pk=called.pk).order_by("number"):
        sheet.play(table, "NS" if table.number % 2 else "EW")

    # Round 2: a team sits it out (15 drawn, one bye), a substitute plays, a table is a forfeit.
    sitting = teams[5]
    team_sit_out_set(team=sitting, round_number=2, reason="Family dinner", actor=staff)
    round_2 = round_publish(round=round_draw(tournament=tournament, method="swiss", actor=staff), actor=staff)
    assert (
        not round_2.seatings.filter(team=sitting).exists() and round_2.seatings.filter(table__isnull=True).count() == 1
    )
    clock.round_clock_start(round=round_2, actor=staff)
    begun_long_ago(round_2)
    forfeit = round_2.tables.order_by("number").last()
    table_forfeit_declare(table=forfeit, absent="EW", actor=staff)
    substituted = round_2.tables.get(number=1).team_at(NS)
    substitute_approve(
        team=substituted, round=round_2, replaces=substituted.members[1].player, name="Jo Lee", actor=staff
    )
    for table in round_2.tables.exclude(pk=forfeit.pk).order_by("number"):
        sheet.play(table, "tie" if table.number == 2 else "NS")

    # Round 3: everyone again, the sitting team included.
    round_3 = round_publish(round=round_draw(tournament=tournament, method="swiss", actor=staff), actor=staff)
    assert round_3.seatings.filter(team=sitting).exists()
    for table in round_3.tables.order_by("number"):
        sheet.play(table, "EW")

    # The standings agree with RULES.md, worked out from the sheets.
    rules = tournament.rules
    assert standings_of(tournament) == expected_records(tournament, rules)
    absent = forfeit.team_at(EW)
    assert standings_of(tournament)[absent.pk][1] >= 1
    sat = standings_of(tournament)[sitting.pk]
    assert sat[0] + sat[1] + sat[2] == 2, "sitting out is neither a win nor a loss"

    # The printed sheets say it.
    first = " ".join(" ".join(pdf_pages(round_sheets_pdf(round_1, blank=False, base_url="http://x/"))).split())
    assert "Time called after hand 3" in first
    second = " ".join(" ".join(pdf_pages(round_sheets_pdf(round_2, blank=False, base_url="http://x/"))).split())
    assert "Forfeit: East–West absent; North–South score the round as a bye" in second
    assert "South: Jo Lee (substitute for" in second

    # The archive round trip keeps all of it.
    before = {tournament.teams.get(pk=pk).number: record for pk, record in standings_of(tournament).items()}
    exported = event_export(tournament.event)
    tournament.event.delete()
    imported = event_import(data=json.loads(json.dumps(exported)))
    assert event_export(imported) == exported
    again = imported.tournaments.get()
    after = {again.teams.get(pk=pk).number: record for pk, record in standings_of(again).items()}
    assert after == before
