"""Absent teams: a forfeit declared at a table (the present team scores a bye, the absent team 0 and a loss),
undone like any ruling; a team forfeiting twice offered for withdrawal; a team sitting out a round before it is
drawn. Standings, the next draw and head-to-head treat a forfeit as no meeting."""

import io
import json
from collections import Counter
from csv import DictReader
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import dateformat, timezone

from scoring import Absent
from tests.conftest import text_of
from tests.tournament.test_printing import pdf_pages
from tournament.errors import ServiceError
from tournament.models import LogEntry, Round, Table
from tournament.printing import round_sheets_pdf
from tournament.selectors.standings import draw_history, tournament_standings
from tournament.selectors.team_page import team_now
from tournament.services import clock, sheets
from tournament.services.absence import table_forfeit_declare, table_forfeit_undo, team_sit_out_set
from tournament.services.archive import event_export, event_import
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import tournament_rules_set
from tournament.services.sheets import ChangeContext


def published_long_ago(round_: Round, minutes: int = 16) -> Round:
    """The round began ``minutes`` ago: past the 15 minutes after which a team may be declared absent."""
    Round.objects.filter(pk=round_.pk).update(published_at=timezone.now() - timedelta(minutes=minutes))
    round_.refresh_from_db()
    return round_


@pytest.fixture
def round_1(tournament, make_teams):
    """Eight teams; round 1 drawn in team order (1 v 2 at table 1 ... 7 v 8 at table 4), begun 16 minutes ago."""
    make_teams(tournament, 8)
    return published_long_ago(round_publish(round=round_draw(tournament=tournament, method="manual")))


def standing(tournament, number: int):
    return next(row for row in tournament_standings(tournament) if row.team.number == number)


def test_the_present_team_scores_a_bye_and_the_absent_team_a_loss(tournament, round_1, sheet, staff):
    tables = list(round_1.tables.order_by("number"))
    sheet.play(tables[0], "NS")  # #1 beats #2 4–2
    sheet.play(tables[1], "EW")  # #4 beats #3 4–2
    sheet.play(tables[2], "NS")  # #5 beats #6 4–2
    declared = table_forfeit_declare(table=tables[3], absent=Absent.EAST_WEST, actor=staff)
    assert declared.table.signed and declared.table.complete and declared.table.winner_pair == "NS"
    present, absent = standing(tournament, 7), standing(tournament, 8)
    assert present.won_lost_tied == "1-0-0" and present.record.points_for == 4 and present.byes == 1
    assert absent.won_lost_tied == "0-1-0" and absent.record.points_for == 0 and absent.record.points_against == 0
    entry = LogEntry.objects.get(action=LogEntry.Action.FORFEIT)
    # The log shows the action's name ("Forfeit declared") before the summary: the summary does not repeat it.
    assert entry.summary.startswith("#8 ") and "#7 " in entry.summary and "bye" in entry.summary


def test_both_absent_both_lose(tournament, round_1, staff):
    table = round_1.tables.get(number=4)
    table_forfeit_declare(table=table, absent=Absent.BOTH, actor=staff)
    assert standing(tournament, 7).won_lost_tied == "0-1-0" == standing(tournament, 8).won_lost_tied


def test_a_forfeit_is_no_meeting_the_two_teams_may_meet_later(tournament, round_1, staff):
    table_forfeit_declare(table=round_1.tables.get(number=4), absent=Absent.EAST_WEST, actor=staff)
    history = draw_history(tournament, 2)
    seven, eight = (tournament.teams.get(number=n).pk for n in (7, 8))
    assert frozenset((seven, eight)) not in history.met


def test_undone_the_sheet_is_open_again(tournament, round_1, sheet, staff):
    table = round_1.tables.get(number=4)
    table_forfeit_declare(table=table, absent=Absent.NORTH_SOUTH, actor=staff)
    table_forfeit_undo(table=table, actor=staff)
    table.refresh_from_db()
    assert not table.forfeit and not table.signed and not table.complete
    sheet.hand(table, "N", "N", 3, "high", 9)
    assert LogEntry.objects.filter(action=LogEntry.Action.FORFEIT_UNDONE, table=table).exists()


def test_forfeit_refusals_leave_nothing_half_written(tournament, round_1, sheet, staff):
    busy, done, fresh, last = round_1.tables.order_by("number")
    sheet.hand(busy, "N", "N", 3, "high", 9)
    with pytest.raises(ServiceError, match="Hands were entered at table 1"):
        table_forfeit_declare(table=busy, absent="EW", actor=staff)
    sheet.play(done)
    with pytest.raises(ServiceError, match="sheet is signed"):
        table_forfeit_declare(table=done, absent="EW", actor=staff)
    with pytest.raises(ServiceError, match="Choose who is absent"):
        table_forfeit_declare(table=fresh, absent="N", actor=staff)
    with pytest.raises(ServiceError, match="not a forfeit"):
        table_forfeit_undo(table=fresh, actor=staff)
    published_long_ago(round_1, minutes=5)
    with pytest.raises(ServiceError, match="15 minutes after the round was published: from ") as refused:
        table_forfeit_declare(table=last, absent="EW", actor=staff)
    assert refused.value.field == "early" and "confirm the early forfeit and say why" in str(refused.value)
    with pytest.raises(ServiceError, match="Say why the forfeit is declared before") as refused:
        table_forfeit_declare(table=last, absent="EW", early=True, reason="  ", actor=staff)
    assert refused.value.field == "reason"
    Round.objects.filter(pk=round_1.pk).update(kind=Round.Kind.PLAYOFF)
    with pytest.raises(ServiceError, match="playoff match is not forfeited"):
        table_forfeit_declare(table=last, absent="EW", actor=staff)
    assert not Table.objects.exclude(forfeit="").exists()
    assert not LogEntry.objects.filter(action=LogEntry.Action.FORFEIT).exists()


def test_before_the_forfeit_minutes_a_forfeit_is_the_directors_confirmed_decision(tournament, round_1, staff):
    published_long_ago(round_1, minutes=5)
    table = round_1.tables.get(number=4)
    table_forfeit_declare(table=table, absent="EW", early=True, reason="Team 8 phoned: not coming", actor=staff)
    table.refresh_from_db()
    assert table.forfeit == "EW" and table.signed
    entry = LogEntry.objects.get(action=LogEntry.Action.FORFEIT)
    assert entry.summary.endswith("(declared before the 15 minutes, the director's decision)")
    assert entry.reason == "Team 8 phoned: not coming" and entry.after["early"] is True


def test_the_forfeit_minutes_count_from_the_clock_when_it_runs(tournament, round_1, staff):
    tournament_rules_set(tournament=tournament, rules=tournament.rules.replace(round_minutes=30), actor=staff)
    clock.round_clock_start(round=round_1, actor=staff)
    with pytest.raises(ServiceError, match="15 minutes after the clock started"):
        table_forfeit_declare(table=round_1.tables.get(number=4), absent="EW", actor=staff)
    Round.objects.filter(pk=round_1.pk).update(clock_started_at=timezone.now() - timedelta(minutes=15))
    table_forfeit_declare(table=round_1.tables.get(number=4), absent="EW", actor=staff)
    assert not LogEntry.objects.get(action=LogEntry.Action.FORFEIT).after.get("early")


def test_the_live_view_says_from_when_a_forfeit_may_be_declared_and_takes_an_early_one(
    director_client, tournament, round_1
):
    published_long_ago(round_1, minutes=5)
    opens = timezone.localtime(round_1.published_at + timedelta(minutes=15))
    live = reverse("director:round_live", args=[tournament.slug, 1])
    said = text_of(director_client.get(live))
    at = dateformat.format(opens, "g:i A")
    assert f"Absent teams may be declared from {at} (in 10 minutes)" in said
    assert f"not started: absent from {at}" in said and f"Declare now, before {at}" in said
    url = reverse("director:table_forfeit", args=[tournament.slug, 1, 4])
    refused = text_of(director_client.post(url, {"absent": "EW"}, follow=True))
    assert f"from {at}. To declare it now" in refused and not Table.objects.exclude(forfeit="").exists()
    done = text_of(director_client.post(url, {"absent": "EW", "early": "on", "reason": "Phoned"}, follow=True))
    assert "Table 4: forfeit declared." in done
    published_long_ago(round_1, minutes=20)
    said = text_of(director_client.get(live))
    assert "Absent teams may be declared since" in said and "Declare now" not in said


def test_no_hand_on_a_forfeit(round_1, sheet, staff):
    table = round_1.tables.get(number=4)
    table_forfeit_declare(table=table, absent="EW", actor=staff)
    with pytest.raises(ServiceError, match="is a forfeit"):
        sheet.hand(table, "N", "N", 3, "high", 9, actor=staff, reason="late")


def test_the_table_page_and_the_team_pages_say_forfeit_not_signed(client, tournament, round_1, staff):
    table = round_1.tables.get(number=4)
    table_forfeit_declare(table=table, absent="EW", actor=staff)
    said = [text_of(client.get(reverse("table", args=[table.secret])))]
    for number in (7, 8):
        opened = client.post(reverse("team_open"), {"code": tournament.teams.get(number=number).code})
        said.append(text_of(client.get(opened["Location"])))
    for page in said:
        assert "Forfeit: East–West absent" in page and "North–South score the round as a bye" in page
        assert "Signed by both teams" not in page


def test_the_public_draw_and_team_pages_say_forfeit_not_signed(client, tournament, round_1, staff):
    table_forfeit_declare(table=round_1.tables.get(number=4), absent="EW", actor=staff)
    draw = text_of(client.get(reverse("public:draw", args=[tournament.slug])))
    card = draw[draw.index("Table 4") :]
    assert card.startswith("Table 4 Forfeit: East–West absent") and "Signed" not in card[:60]
    for number in (7, 8):
        page = text_of(client.get(reverse("public:team", args=[tournament.slug, number])))
        assert "table 4 Forfeit" in page and "Signed" not in page


def test_a_team_forfeiting_twice_is_offered_for_withdrawal(tournament, round_1, sheet, staff):
    for table in round_1.tables.exclude(number=4):
        sheet.play(table)
    first = table_forfeit_declare(table=round_1.tables.get(number=4), absent="EW", actor=staff)
    assert first.repeat_absentees == []
    round_2 = published_long_ago(
        round_publish(round=round_draw(tournament=tournament, method="manual", pairs="8 1\n2 3\n4 5\n6 7"))
    )
    second = table_forfeit_declare(table=round_2.tables.get(number=1), absent="NS", actor=staff)
    assert [team.number for team in second.repeat_absentees] == [8]


def test_a_team_sitting_out_is_not_drawn_and_has_no_result(tournament, round_1, sheet, staff):
    nine = tournament.teams.create(number=9, checked_in=True)
    team_sit_out_set(team=nine, round_number=2, reason="Arrives for round 3", actor=staff)
    for table in round_1.tables.all():
        sheet.play(table)
    round_2 = round_draw(tournament=tournament, method="swiss")
    assert not round_2.seatings.filter(team=nine).exists() and not round_2.seatings.filter(table__isnull=True)
    assert standing(tournament, 9).won_lost_tied == "0-0-0"
    assert LogEntry.objects.get(action=LogEntry.Action.SIT_OUT).summary.endswith("sits out round 2")


def test_the_api_shows_a_team_sitting_out_in_the_round_and_in_its_record(client, tournament, round_1, sheet, staff):
    nine = tournament.teams.create(number=9, checked_in=True)
    team_sit_out_set(team=nine, round_number=2, reason="Arrives for round 3", actor=staff)
    for table in round_1.tables.all():
        sheet.play(table)
    round_publish(round=round_draw(tournament=tournament, method="swiss"))
    api = f"/api/v1/tournaments/{tournament.slug}"
    round_2 = client.get(f"{api}/rounds/2").json()
    assert round_2["sitting_out"] == [{"number": 9, "name": "Team 9"}]
    assert [r["sitting_out"] for r in client.get(f"{api}/rounds").json()] == [[], round_2["sitting_out"]]
    sat_out = client.get(f"{api}/teams/9").json()["rounds"]
    assert sat_out == [
        {
            "round": 2,
            "stage": "Round 2",
            "table": None,
            "pair": None,
            "opponent": None,
            "points_for": 0,
            "points_against": 0,
            "result": "sat out",
            "counted": True,
            "provisional": False,
            "line": "sat out (no result)",
        }
    ]


def test_the_team_pages_list_a_round_sat_out_in_its_place(client, tournament, round_1, sheet, staff):
    """The public team page and the team's own page show the round it sat out before the round it played."""
    nine = tournament.teams.create(number=9, checked_in=True)
    team_sit_out_set(team=nine, round_number=2, reason="Arrives for round 3", actor=staff)
    for table in round_1.tables.all():
        sheet.play(table)
    for table in round_publish(round=round_draw(tournament=tournament, method="swiss")).tables.all():
        sheet.play(table)
    round_publish(round=round_draw(tournament=tournament, method="swiss"))
    assert [(entry.round.number, entry.sat_out) for entry in team_now(nine).rounds] == [(2, True), (3, False)]
    page = text_of(client.get(reverse("public:team", args=[tournament.slug, 9])))
    assert "Round 2 Sat out (no result)" in page
    assert page.index("Round 2 Sat out") < page.index("Round 3")


def test_sitting_out_refused_after_the_draw_and_in_the_playoff(tournament, round_1, staff):
    team = tournament.teams.get(number=1)
    with pytest.raises(ServiceError, match="Round 1 is already drawn") as refused:
        team_sit_out_set(team=team, round_number=1, actor=staff)
    assert refused.value.field == "round_number"
    with pytest.raises(ServiceError, match="not allowed in the playoff"):
        team_sit_out_set(team=team, round_number=5, actor=staff)
    with pytest.raises(ServiceError, match="does not sit out round 2"):
        team_sit_out_set(team=team, round_number=2, sits_out=False, actor=staff)
    assert not team.sit_outs.exists()


def test_series_wins_count_a_forfeit_win_as_the_standings_do(tournament, round_1, sheet, staff):
    from tournament.selectors.outcomes import team_outcomes

    present, absent = tournament.teams.get(number=7), tournament.teams.get(number=8)
    table_forfeit_declare(table=round_1.tables.get(number=4), absent="EW", actor=staff)
    outcomes = team_outcomes([tournament.pk])
    assert outcomes[present.pk].qualifying_wins == standing(tournament, 7).record.wins == 1, "won at once"
    for table in round_1.tables.exclude(number=4):
        sheet.play(table)
    outcomes = team_outcomes([tournament.pk])
    assert outcomes[present.pk].qualifying_wins == standing(tournament, 7).record.wins == 1
    assert absent.pk not in outcomes or not outcomes[absent.pk].qualifying_wins


def test_the_time_clock_refuses_table_link_hands_on_a_forfeit(round_1, staff, sheet):
    table = round_1.tables.get(number=2)
    table_forfeit_declare(table=table, absent="NS", actor=staff)
    with pytest.raises(ServiceError, match="signed and locked"):
        sheets.hand_record(
            table=table,
            entry=sheets.HandEntry("N", "N", 3, "high", 9, "hearts", "", False),
            context=ChangeContext(version=sheet.version(table)),
        )


def test_the_director_declares_and_undoes_a_forfeit_from_the_live_view(director_client, tournament, round_1):
    live = reverse("director:round_live", args=[tournament.slug, 1])
    assert "#8 (E–W) absent" in text_of(director_client.get(live))
    url = reverse("director:table_forfeit", args=[tournament.slug, 1, 4])
    response = director_client.post(url, {"absent": "EW"}, follow=True)
    assert response.redirect_chain[-1][0] == live
    said = text_of(response)
    assert "Table 4: forfeit declared." in said and "Forfeit: East–West absent" in said
    said = text_of(director_client.post(url, {"undo": "1"}, follow=True))
    assert "Table 4: forfeit undone, the sheet is open again." in said
    assert not Table.objects.exclude(forfeit="").exists()


def test_only_the_director_declares_a_forfeit_or_a_sit_out(client, scorekeeper, tournament, round_1):
    client.force_login(scorekeeper)
    assert (
        client.post(reverse("director:table_forfeit", args=[tournament.slug, 1, 4]), {"absent": "EW"}).status_code
        == 403
    )
    assert client.post(reverse("director:sit_out", args=[tournament.slug]), {"team": "1"}).status_code == 403
    assert not Table.objects.exclude(forfeit="").exists() and not tournament.sit_outs.exists()


def test_the_draw_page_marks_a_team_sitting_out_the_next_round(director_client, tournament, round_1, sheet):
    url = reverse("director:sit_out", args=[tournament.slug])
    said = text_of(director_client.post(url, {"team": "3", "reason": "Late flight"}, follow=True))
    assert "sits out round 2." in said and "Late flight" in said
    assert list(tournament.sit_outs.values_list("team__number", "round_number")) == [(3, 2)]


@pytest.fixture
def forfeit_signed(tournament, round_1, sheet, staff):
    """Round 1 signed everywhere, table 4 a forfeit (#8 absent); #2 sits out round 2."""
    for table in round_1.tables.exclude(number=4):
        sheet.play(table)
    table_forfeit_declare(table=round_1.tables.get(number=4), absent="EW", actor=staff)
    team_sit_out_set(team=tournament.teams.get(number=2), round_number=2, reason="Dinner", actor=staff)
    return round_1


def test_forfeits_and_sit_outs_go_round_the_archive(tournament, forfeit_signed):
    standings = [
        (row.team.number, row.won_lost_tied, row.record.points_for) for row in tournament_standings(tournament)
    ]
    exported = event_export(tournament.event)
    tournament.event.delete()
    imported = event_import(data=json.loads(json.dumps(exported)))
    assert event_export(imported) == exported
    again = imported.tournaments.get()
    assert [(row.team.number, row.won_lost_tied, row.record.points_for) for row in tournament_standings(again)] == (
        standings
    )
    assert list(again.sit_outs.values_list("team__number", "round_number", "reason")) == [(2, 2, "Dinner")]


def test_the_api_the_team_page_and_the_printed_sheet_say_forfeit(client, tournament, forfeit_signed):
    rounds = client.get(f"/api/v1/tournaments/{tournament.slug}/rounds").json()
    table = next(table for table in rounds[0]["tables"] if table["number"] == 4)
    assert table["forfeit"] == "EW" and table["winner"] == 7
    present, absent = (
        client.get(f"/api/v1/tournaments/{tournament.slug}/teams/{number}").json()["rounds"][0] for number in (7, 8)
    )
    assert (present["result"], present["points_for"], present["points_against"], present["counted"]) == (
        "won by forfeit",
        4,
        0,
        True,
    )
    assert (absent["result"], absent["points_for"], absent["points_against"]) == ("lost: absent", 0, 0)
    assert absent["line"] == "lost: absent, 0 points"
    assert "Lost: absent, 0 points" in text_of(client.get(reverse("public:team", args=[tournament.slug, 8])))
    assert "Won by forfeit, 4 points" in text_of(client.get(reverse("public:team", args=[tournament.slug, 7])))
    projector = client.get(reverse("public:projector", args=[tournament.slug])).content.decode()
    tables = projector[projector.index('id="panel-tables"') :]
    line = " ".join(tables[tables.index("#7 ") : tables.index("</li>", tables.index("#7 "))].split())
    assert "Forfeit" in line and "0–0" not in line, line
    page = pdf_pages(round_sheets_pdf(forfeit_signed, blank=False, base_url="http://127.0.0.1:8000/"))[3]
    assert "Forfeit: East–West absent; North–South score the round as a bye" in " ".join(page.split())


def export_rows(director_client, tournament) -> list[dict]:
    csv = director_client.get(reverse("director:hands_export", args=[tournament.slug, "csv"])).content.decode(
        "utf-8-sig"
    )
    return list(DictReader(io.StringIO(csv)))


def test_the_hands_export_has_a_row_for_each_forfeit_and_adds_up_as_the_standings(
    director_client, tournament, round_1, sheet, staff
):
    tables = list(round_1.tables.order_by("number"))
    table_forfeit_declare(table=tables[3], absent="EW", actor=staff)
    forfeit = next(row for row in export_rows(director_client, tournament) if row["Table"] == "4")
    assert forfeit["Forfeit"] == (
        "North–South (#7) won by forfeit, 0 points (provisional); East–West (#8) lost: absent, 0 points"
    )
    assert (forfeit["N-S points"], forfeit["E-W points"], forfeit["Hand"]) == ("0", "0", "")
    for table in tables[:3]:
        sheet.play(table)
    rows = export_rows(director_client, tournament)
    forfeit = next(row for row in rows if row["Table"] == "4")
    assert forfeit["Forfeit"] == "North–South (#7) won by forfeit, 4 points; East–West (#8) lost: absent, 0 points"
    assert (forfeit["N-S team"], forfeit["E-W team"], forfeit["N-S points"], forfeit["E-W points"]) == (
        "7",
        "8",
        "4",
        "0",
    )
    assert forfeit["Sheet signed"] and [row["Table"] for row in rows].count("4") == 1
    exported = Counter()
    for row in rows:
        exported[int(row["N-S team"])] += int(row["N-S points"])
        exported[int(row["E-W team"])] += int(row["E-W points"])
    assert exported == {row.team.number: row.record.points_for for row in tournament_standings(tournament)}


def test_both_absent_is_one_export_row_naming_both(director_client, tournament, round_1, staff):
    table_forfeit_declare(table=round_1.tables.get(number=2), absent="both", actor=staff)
    (row,) = export_rows(director_client, tournament)
    assert row["Forfeit"] == "North–South (#3) lost: absent, 0 points; East–West (#4) lost: absent, 0 points"
    assert (row["Round"], row["N-S points"], row["E-W points"]) == ("Round 1", "0", "0")
    xlsx = director_client.get(reverse("director:hands_export", args=[tournament.slug, "xlsx"]))
    assert xlsx.status_code == 200 and xlsx.content[:2] == b"PK"
    with CaptureQueriesContext(connection) as one:
        export_rows(director_client, tournament)
    table_forfeit_declare(table=round_1.tables.get(number=3), absent="NS", actor=staff)
    with CaptureQueriesContext(connection) as two:
        assert len(export_rows(director_client, tournament)) == 2
    assert len(one) == len(two), "the forfeits cost the export a fixed number of queries"
