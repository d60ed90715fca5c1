"""The round clock: the director starts, pauses, resumes and adds time to a round or one table (logged); at time
a table finishes the hand in play, the table link enters no new hand, and the sheet is complete with the hands
played, then signed as usual."""

import json
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring import RuleSet
from tests.tournament.test_printing import pdf_pages
from tournament.errors import ServiceError
from tournament.models import LogEntry, PlayoffMatch, Table
from tournament.printing import round_sheets_pdf
from tournament.services import clock, sheets
from tournament.services.archive import event_export, event_import
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import tournament_rules_set
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.sheets import ChangeContext


@pytest.fixture
def timed(tournament, make_teams):
    """A 20-minute clock; round 1 of eight teams published (four tables)."""
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    make_teams(tournament, 8)
    return round_publish(round=round_draw(tournament=tournament, method="manual"))


def time_up(table: Table, seconds_ago: int = 1) -> None:
    """The table's time ran out ``seconds_ago``: its stored deadline is moved into the past."""
    Table.objects.filter(pk=table.pk).update(clock_ends_at=timezone.now() - timedelta(seconds=seconds_ago))
    table.refresh_from_db()


def test_starting_the_clock_gives_every_table_the_rounds_minutes(timed, staff):
    clock.round_clock_start(round=timed, actor=staff)
    timed.refresh_from_db()
    now = timezone.now()
    assert 19 * 60 < timed.clock.remaining(now) <= 20 * 60
    assert {table.clock_ends_at for table in timed.tables.all()} == {timed.clock_ends_at}
    entry = LogEntry.objects.get(action=LogEntry.Action.CLOCK)
    assert entry.summary == "Round 1: clock started, 20 minutes" and entry.who == staff.name


def test_the_clock_refuses_what_makes_no_sense(tournament, timed, staff):
    with pytest.raises(ServiceError, match="not running"):
        clock.round_clock_pause(round=timed, actor=staff)
    with pytest.raises(ServiceError, match="not paused"):
        clock.round_clock_resume(round=timed, actor=staff)
    clock.round_clock_start(round=timed, actor=staff)
    with pytest.raises(ServiceError, match="already started"):
        clock.round_clock_start(round=timed, actor=staff)
    with pytest.raises(ServiceError, match="Add 1 to 60 minutes") as refused:
        clock.round_clock_add(round=timed, minutes=0, actor=staff)
    assert refused.value.field == "minutes"
    assert LogEntry.objects.filter(action=LogEntry.Action.CLOCK).count() == 1


def test_no_clock_without_minutes_nor_on_a_draft(tournament, make_teams, staff):
    make_teams(tournament, 4)
    draft = round_draw(tournament=tournament, method="manual")
    with pytest.raises(ServiceError, match="not being played"):
        clock.round_clock_start(round=draft, actor=staff)
    round_publish(round=draft)
    with pytest.raises(ServiceError, match="no round clock"):
        clock.round_clock_start(round=draft, actor=staff)
    draft.refresh_from_db()
    assert not draft.clock.started


def test_pause_and_resume_carry_every_table_along_but_a_table_paused_on_its_own(timed, staff):
    clock.round_clock_start(round=timed, actor=staff)
    one, two = timed.tables.order_by("number")[:2]
    clock.table_clock_pause(table=one, actor=staff)
    clock.round_clock_pause(round=timed, actor=staff)
    assert all(table.clock.paused for table in timed.tables.all())
    with pytest.raises(ServiceError, match="round's clock is paused"):
        clock.table_clock_resume(table=one, actor=staff)
    clock.round_clock_resume(round=timed, actor=staff)
    one.refresh_from_db(), two.refresh_from_db()
    assert one.clock.paused and two.clock.running
    clock.table_clock_resume(table=one, actor=staff)
    one.refresh_from_db()
    assert one.clock.running and not one.clock_held


def test_time_added_to_one_table_or_to_the_round(timed, staff):
    clock.round_clock_start(round=timed, actor=staff)
    one, two = timed.tables.order_by("number")[:2]
    clock.table_clock_add(table=one, minutes=3, actor=staff)
    clock.round_clock_add(round=timed, minutes=2, actor=staff)
    one.refresh_from_db(), two.refresh_from_db(), timed.refresh_from_db()
    assert one.clock_ends_at - two.clock_ends_at == timedelta(minutes=3)
    assert two.clock_ends_at == timed.clock_ends_at
    summaries = list(LogEntry.objects.filter(action=LogEntry.Action.CLOCK).values_list("summary", flat=True))
    assert summaries[1:] == ["Table 1: 3 minutes added", "Round 1: 2 minutes added"]


def test_no_time_for_a_table_that_has_finished(timed, staff, sheet):
    clock.round_clock_start(round=timed, actor=staff)
    table = timed.tables.get(number=1)
    sheet.play(table)
    with pytest.raises(ServiceError, match="finished its round"):
        clock.table_clock_add(table=table, minutes=3, actor=staff)


def called_after_hand_3(timed, staff, sheet):
    """Table 1 with the clock started, time called during hand 3 and that hand entered (North–South 3,
    East–West 6)."""
    clock.round_clock_start(round=timed, actor=staff)
    table = timed.tables.get(number=1)
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 4, "low", 10)
    time_up(table)
    sheet.hand(table, "S", "S", 2, "high", 7)
    return table


def test_the_hand_in_play_at_time_is_the_last_and_the_sheet_is_complete(timed, staff, sheet):
    table = called_after_hand_3(timed, staff, sheet)
    table.refresh_from_db()
    assert table.complete and table.time_called_after == 3 and table.next_hand_number is None
    with pytest.raises(ServiceError, match="Time was called after hand 3: finish this hand, no new hand"):
        sheet.hand(table, "W", "W", 1, "nt", 8)
    sheet.sign_both(table)
    table.refresh_from_db()
    assert table.signed and (table.ns_total, table.ew_total) == (3, 6)


def test_staff_may_enter_a_hand_after_time_and_take_the_call_back(timed, staff, sheet, director):
    clock.round_clock_start(round=timed, actor=staff)
    table = timed.tables.get(number=1)
    time_up(table)
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 4, "low", 10, actor=staff)
    table.refresh_from_db()
    assert table.complete and table.hands_played == 2
    sheets.table_time_call_lift(table=table, context=ChangeContext(version=sheet.version(table), actor=staff))
    table.refresh_from_db()
    assert not table.complete and table.time_called_at is None


def test_the_table_link_calls_time_between_hands_only_once_time_is_up(timed, staff, sheet):
    clock.round_clock_start(round=timed, actor=staff)
    table = timed.tables.get(number=1)
    sheet.hand(table, "N", "N", 3, "high", 9)
    with pytest.raises(ServiceError, match=r"Time is not up yet: [12][0-9]:[0-9][0-9] left"):
        sheets.table_time_call(table=table, context=ChangeContext(version=sheet.version(table)))
    time_up(table)
    sheets.table_time_call(table=table, context=ChangeContext(version=sheet.version(table)))
    table.refresh_from_db()
    assert table.complete and table.time_called_after == 1
    assert LogEntry.objects.filter(action=LogEntry.Action.TIME_CALLED, table=table).get().summary == (
        "Time called after hand 1"
    )
    with pytest.raises(ServiceError, match="already called"):
        sheets.table_time_call(table=table, context=ChangeContext(version=sheet.version(table)))
    with pytest.raises(ServiceError, match="Only staff"):
        sheets.table_time_call_lift(table=table, context=ChangeContext(version=sheet.version(table)))


def test_time_called_before_the_first_hand_is_a_nil_nil_tie(timed, staff, sheet):
    table = timed.tables.get(number=2)
    sheets.table_time_call(table=table, context=ChangeContext(version=sheet.version(table), actor=staff))
    sheet.sign_both(table)
    table.refresh_from_db()
    assert table.signed and table.winner_pair is None and (table.ns_total, table.ew_total) == (0, 0)


def test_a_redeal_after_time_does_not_count_and_ends_the_round(timed, staff, sheet):
    clock.round_clock_start(round=timed, actor=staff)
    table = timed.tables.get(number=1)
    sheet.hand(table, "N", "N", 3, "high", 9)
    time_up(table)
    sheet.redeal(table, "E")
    table.refresh_from_db()
    assert table.complete and table.time_called_after == 1


@pytest.fixture
def final(tournament, make_teams, sheet):
    """A 20-minute clock, one qualifying round of four teams signed, and the playoff's final open (its table)."""
    tournament.qualifying_rounds = 1
    tournament.save()
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    make_teams(tournament, 4)
    for table in round_publish(round=round_draw(tournament=tournament, method="manual")).tables.all():
        sheet.play(table, "NS")
    playoff_seed(tournament=tournament, teams=2)
    playoff_publish(tournament=tournament)
    return PlayoffMatch.objects.get(tournament=tournament).table


def playoff_clock_on(tournament, staff) -> None:
    """The director turns the clock on for the playoff, after the qualifying rounds were published."""
    tournament.refresh_from_db()
    tournament_rules_set(tournament=tournament, rules=tournament.rules.replace(playoff_clock=True), actor=staff)


def test_the_playoff_plays_without_the_clock_unless_the_director_turns_it_on(final, staff):
    playoff = final.round
    with pytest.raises(ServiceError, match=r"The playoff plays without the clock.*turn on “Clock in the playoff”"):
        clock.round_clock_start(round=playoff, actor=staff)
    playoff.refresh_from_db()
    assert not playoff.clock.started and not LogEntry.objects.filter(action=LogEntry.Action.CLOCK).exists()
    playoff_clock_on(playoff.tournament, staff)
    clock.round_clock_start(round=playoff, actor=staff)
    final.refresh_from_db()
    assert 19 * 60 < final.clock.remaining(timezone.now()) <= 20 * 60
    assert (
        LogEntry.objects.get(action=LogEntry.Action.CLOCK).summary
        == f"Round {playoff.number}: clock started, 20 minutes"
    )


def test_time_called_on_a_playoff_match_not_level_completes_it(final, staff, sheet):
    playoff_clock_on(final.round.tournament, staff)
    clock.round_clock_start(round=final.round, actor=staff)
    sheet.hand(final, "N", "N", 3, "high", 9)
    time_up(final)
    sheet.hand(final, "E", "E", 1, "high", 7)
    final.refresh_from_db()
    assert final.complete and final.time_called_after == 2 and (final.ns_total, final.ew_total) == (3, 1)
    with pytest.raises(ServiceError, match="Time was called after hand 2: finish this hand, no new hand"):
        sheet.hand(final, "S", "S", 1, "high", 7)
    sheet.sign_both(final)
    assert PlayoffMatch.objects.get(table=final).winner == final.team_ns


def test_a_playoff_match_level_at_time_plays_on_one_hand_at_a_time(client, final, staff, sheet):
    playoff_clock_on(final.round.tournament, staff)
    clock.round_clock_start(round=final.round, actor=staff)
    sheet.hand(final, "N", "N", 3, "high", 9)
    sheet.hand(final, "E", "E", 3, "high", 9)
    time_up(final)
    response = client.post(
        reverse("table_time_call", args=[final.secret]), {"version": sheet.version(final)}, follow=True
    )
    said = text_of(response)
    assert "Time called after hand 2: the match is level, play one more hand." in said
    assert "Time was called after hand 2 with the match level: one more hand at a time until a team leads." in said
    assert "the match is level, one more hand" in said
    final.refresh_from_db()
    assert not final.complete and final.plays_on_after_time
    sheet.hand(final, "S", "W", 1, "high", 7)
    final.refresh_from_db()
    assert final.complete and not final.plays_on_after_time and (final.ns_total, final.ew_total) == (3, 4)
    with pytest.raises(ServiceError, match="Time was called after hand 3: finish this hand, no new hand"):
        sheet.hand(final, "W", "N", 1, "high", 7)


def test_the_playoff_rounds_page_says_how_to_turn_the_clock_on(director_client, final, staff):
    playoff = final.round
    page = reverse("director:round", args=[playoff.tournament.slug, playoff.number])
    said = text_of(director_client.get(page))
    assert "The playoff plays without the clock" in said and "Start the clock" not in said
    refused = director_client.post(
        reverse("director:round_clock", args=[playoff.tournament.slug, playoff.number]),
        {"action": "start"},
        follow=True,
    )
    assert "To time the playoff, turn on “Clock in the playoff”" in text_of(refused)
    playoff_clock_on(playoff.tournament, staff)
    assert "Start the clock (20 minutes)" in text_of(director_client.get(page))
    started = director_client.post(
        reverse("director:round_clock", args=[playoff.tournament.slug, playoff.number]),
        {"action": "start"},
        follow=True,
    )
    assert f"Round {playoff.number}: clock started." in text_of(started)


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_director_starts_the_clock_from_the_round_page_without_script(director_client, timed):
    page = reverse("director:round", args=[timed.tournament.slug, 1])
    assert "Start the clock (20 minutes)" in text_of(director_client.get(page))
    response = director_client.post(
        reverse("director:round_clock", args=[timed.tournament.slug, 1]), {"action": "start"}, follow=True
    )
    said = text_of(response)
    assert "Round 1: clock started." in said and "Pause the clock" in said
    assert re.search(r"Round 1 (20:00|19:5\d) left", said)


def test_from_the_live_view_time_goes_to_one_table_and_the_page_comes_back(director_client, timed, staff):
    clock.round_clock_start(round=timed, actor=staff)
    slug = timed.tournament.slug
    response = director_client.post(
        reverse("director:table_clock", args=[slug, 1, 2]), {"action": "add", "minutes": "3", "back": "live"}
    )
    assert response.url == reverse("director:round_live", args=[slug, 1])
    said = text_of(director_client.get(response.url))
    assert "Table 2: 3 minutes added." in said and "Projected finish" in said
    table = timed.tables.get(number=2)
    assert table.clock_ends_at - timed.tables.get(number=1).clock_ends_at == timedelta(minutes=3)


def test_minutes_not_a_whole_number_are_refused_beside_the_field(director_client, timed, staff):
    clock.round_clock_start(round=timed, actor=staff)
    timed.refresh_from_db()
    ends_at = timed.clock_ends_at
    slug = timed.tournament.slug
    said = "The minutes to add must be a whole number, 1 to 60."
    beside = f'<p class="error" role="alert">{said}</p>'
    for minutes in ("abc", "2.5"):
        round_page = director_client.post(
            reverse("director:round_clock", args=[slug, 1]), {"action": "add", "minutes": minutes}, follow=True
        ).content.decode()
        assert "Choose what to do to the clock." not in round_page
        field, error, button = (
            round_page.index(mark) for mark in ('id="round-clock-minutes"', beside, "Add to the round</button>")
        )
        assert field < error < button and round_page.count(beside) == 1
        assert f'class="message message-error">{said}</li>' in round_page
        live = director_client.post(
            reverse("director:table_clock", args=[slug, 1, 2]),
            {"action": "add", "minutes": minutes, "back": "live"},
            follow=True,
        ).content.decode()
        assert "Choose what to do to the clock." not in live and live.count(beside) == 1
        field, error, button = (
            live.index(mark) for mark in ('id="table-2-minutes"', beside, "Add to table 2</button>")
        )
        assert field < error < button
    timed.refresh_from_db()
    assert timed.clock_ends_at == ends_at and not timed.tables.exclude(clock_ends_at=ends_at).exists()


def test_minutes_out_of_the_clocks_range_are_refused_beside_the_field(director_client, timed, staff):
    """0 or 61 minutes are whole numbers the clock itself refuses: said beside the minutes of the form used."""
    clock.round_clock_start(round=timed, actor=staff)
    slug = timed.tournament.slug
    beside = '<p class="error" role="alert">Add 1 to 60 minutes.</p>'
    for minutes in ("0", "61"):
        round_page = director_client.post(
            reverse("director:round_clock", args=[slug, 1]), {"action": "add", "minutes": minutes}, follow=True
        ).content.decode()
        field, error, button = (
            round_page.index(mark) for mark in ('id="round-clock-minutes"', beside, "Add to the round</button>")
        )
        assert field < error < button and round_page.count(beside) == 1
        live = director_client.post(
            reverse("director:table_clock", args=[slug, 1, 2]),
            {"action": "add", "minutes": minutes, "back": "live"},
            follow=True,
        ).content.decode()
        field, error, button = (
            live.index(mark) for mark in ('id="table-2-minutes"', beside, "Add to table 2</button>")
        )
        assert field < error < button and live.count(beside) == 1
    assert not LogEntry.objects.filter(summary__contains="added").exists()


def test_only_the_director_runs_the_clock(client, scorekeeper, timed):
    url = reverse("director:round_clock", args=[timed.tournament.slug, 1])
    assert client.post(url, {"action": "start"}).status_code == 302  # to the login page
    client.force_login(scorekeeper)
    assert client.post(url, {"action": "start"}).status_code == 403
    table_url = reverse("director:table_clock", args=[timed.tournament.slug, 1, 1])
    assert client.post(table_url, {"action": "add", "minutes": "3"}).status_code == 403
    timed.refresh_from_db()
    assert not timed.clock.started


def test_at_time_the_table_page_says_finish_this_hand_and_the_link_ends_the_round(client, timed, staff, sheet):
    clock.round_clock_start(round=timed, actor=staff)
    table = timed.tables.get(number=1)
    sheet.hand(table, "N", "N", 3, "high", 9)
    page = reverse("table", args=[table.secret])
    assert "End the round" not in text_of(client.get(page))
    time_up(table)
    said = text_of(client.get(page))
    assert "Time: finish this hand; no new hand" in said and "Time is up." in said
    response = client.post(
        reverse("table_time_call", args=[table.secret]), {"version": sheet.version(table)}, follow=True
    )
    said = text_of(response)
    assert "Time called after hand 1: both teams sign the sheet." in said
    assert "Time called after hand 1. Round complete: North–South win 3–0." in said
    hand = {"hand-dealer": "E", "hand-bidder": "E", "hand-bid": "2:high", "hand-books": "8"}
    refused = client.post(
        reverse("table_hand_add", args=[table.secret]), {**hand, "hand-version": sheet.version(table)}, follow=True
    )
    assert "no new hand" in text_of(refused)
    assert Table.objects.get(pk=table.pk).hands_played == 1


def test_the_projector_team_page_and_table_page_carry_the_same_deadline(client, timed, staff):
    clock.round_clock_start(round=timed, actor=staff)
    timed.refresh_from_db()
    table = timed.tables.get(number=1)
    deadline = f'data-clock-ends="{int(timed.clock_ends_at.timestamp() * 1000)}"'
    assert deadline in client.get(reverse("public:projector", args=[timed.tournament.slug])).content.decode()
    assert deadline in client.get(reverse("table", args=[table.secret])).content.decode()
    team = table.team_at("NS")
    client.post(reverse("team_open"), {"code": team.code})
    assert deadline in client.get(reverse("team_page", args=[team.pk])).content.decode()


def test_a_done_table_shows_how_it_ended_not_a_running_clock(client, director_client, timed, staff, sheet):
    from tournament.services.absence import table_forfeit_declare

    clock.round_clock_start(round=timed, actor=staff)
    signed, forfeit, called, playing = timed.tables.order_by("number")
    sheet.play(signed)
    table_forfeit_declare(table=forfeit, absent="EW", early=True, reason="Not coming", actor=staff)
    sheet.hand(called, "N", "N", 3, "high", 9)
    time_up(called)
    sheet.hand(called, "E", "E", 4, "low", 10)
    live = director_client.get(reverse("director:round_live", args=[timed.tournament.slug, 1])).content.decode()
    cards = dict(re.findall(r'id="live-table-(\d)">(.*?)</a>', live, re.S))
    shown = {
        "1": "Signed",
        "2": "Forfeit",
        "3": "Time called after hand 2",
    }
    for number, words in shown.items():
        assert "data-clock-ends" not in cards[number] and "clock-done" in cards[number], number
        assert f'<span class="clock-words">{words}</span>' in cards[number], number
    assert "data-clock-ends" in cards["4"] and "clock-done" not in cards["4"]
    for table, words in zip((signed, forfeit, called), shown.values(), strict=True):
        page = client.get(reverse("table", args=[table.secret])).content.decode()
        assert "data-clock-ends" not in page and f'<span class="clock-words">{words}</span>' in page, table.number
    assert "data-clock-ends" in client.get(reverse("table", args=[playing.secret])).content.decode()


def test_the_server_tells_its_time_uncached(client):
    response = client.get(reverse("server_now"))
    assert response["Cache-Control"] == "no-store"
    assert abs(response.json()["now"] - timezone.now().timestamp() * 1000) < 60_000


def test_the_live_view_costs_the_same_queries_for_four_tables_or_eight(director_client, tournament, make_teams, staff):
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    make_teams(tournament, 16)
    round_ = round_publish(round=round_draw(tournament=tournament, method="manual"))
    clock.round_clock_start(round=round_, actor=staff)
    url = reverse("director:round_live", args=[tournament.slug, 1])
    with CaptureQueriesContext(connection) as sixteen:
        director_client.get(url)
    Table.objects.filter(round=round_, number__gt=4).delete()
    with CaptureQueriesContext(connection) as eight:
        director_client.get(url)
    assert len(sixteen) == len(eight)


@pytest.fixture
def called_and_signed(timed, staff, sheet):
    """Table 1 time-called after hand 3 and signed by both teams (North–South 3, East–West 6)."""
    table = called_after_hand_3(timed, staff, sheet)
    sheet.sign_both(table)
    table.refresh_from_db()
    return table


def test_time_called_goes_round_the_archive(called_and_signed):
    event = called_and_signed.round.tournament.event
    exported = event_export(event)
    text = json.dumps(exported)
    event.delete()
    imported = event_import(data=json.loads(text))
    assert event_export(imported) == exported
    table = Table.objects.get(round__tournament__event=imported, round__number=1, number=1)
    assert table.signed and table.complete and table.time_called_after == 3
    assert (table.ns_total, table.ew_total) == (3, 6)


def test_an_archive_without_time_called_still_imports(called_and_signed):
    """Archives written before the clock have no such keys: a table without them was played to the end."""
    event = called_and_signed.round.tournament.event
    exported = event_export(event)
    for tournament in exported["tournaments"]:
        for round_ in tournament["rounds"]:
            del round_["clock_started_at"]
            for table in round_["tables"]:
                del table["time_called_at"]
            round_["tables"] = [table for table in round_["tables"] if table["number"] != 1]
    event.delete()
    imported = event_import(data=exported)
    assert not Table.objects.filter(round__tournament__event=imported, time_called_at__isnull=False).exists()


def test_the_api_the_export_and_the_printed_sheet_say_time_was_called(client, director_client, called_and_signed):
    round_ = called_and_signed.round
    slug = round_.tournament.slug
    rounds = client.get(f"/api/v1/tournaments/{slug}/rounds").json()
    shown = {table["number"]: table["time_called_after"] for table in rounds[0]["tables"]}
    assert shown[1] == 3 and shown[2] is None
    csv = director_client.get(reverse("director:hands_export", args=[slug, "csv"])).content.decode()
    header, first = (line.split(",") for line in csv.splitlines()[:2])
    assert first[header.index("Time called after hand")] == "3"
    page = pdf_pages(round_sheets_pdf(round_, blank=False, base_url="http://127.0.0.1:8000/"))[0]
    assert "Time called after hand 3" in page


def test_a_playoff_table_seated_after_the_clock_started_gets_its_own_start(
    director_client, tournament, make_teams, sheet, staff
):
    """Eight teams: the quarterfinals; semifinal 1 opens (its clock started), semifinal 2 only later."""
    tournament.qualifying_rounds = 1
    tournament.save()
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20, playoff_clock=True))
    make_teams(tournament, 8)
    for table in round_publish(round=round_draw(tournament=tournament, method="manual")).tables.all():
        sheet.play(table, "NS")
    playoff_seed(tournament=tournament, teams=8)
    playoff_publish(tournament=tournament)
    quarterfinals = PlayoffMatch.objects.filter(tournament=tournament, bracket_round=1).order_by("position")
    for match in quarterfinals[:2]:
        sheet.play(match.table, "NS")
    semifinal = PlayoffMatch.objects.get(tournament=tournament, table__isnull=False, bracket_round=2).table
    with pytest.raises(ServiceError, match="has not started: start the round's clock"):
        clock.table_clock_start(table=semifinal, actor=staff)
    clock.round_clock_start(round=semifinal.round, actor=staff)
    for match in quarterfinals[2:]:
        sheet.play(match.table, "NS")
    late = semifinal.round.tables.exclude(pk=semifinal.pk).get()
    assert not late.clock.started
    page = reverse("director:round", args=[tournament.slug, semifinal.round.number])
    said = text_of(director_client.get(page))
    assert f"Table {late.number} was seated after the clock started and has no clock." in said
    response = director_client.post(
        reverse("director:table_clock", args=[tournament.slug, semifinal.round.number, late.number]),
        {"action": "start"},
        follow=True,
    )
    assert f"Table {late.number}: clock started." in text_of(response)
    late.refresh_from_db()
    assert 19 * 60 < late.clock.remaining(timezone.now()) <= 20 * 60
    with pytest.raises(ServiceError, match="already started"):
        clock.table_clock_start(table=late, actor=staff)
    entry = LogEntry.objects.filter(action=LogEntry.Action.CLOCK, table=late).get()
    assert entry.summary == f"Table {late.number}: clock started, 20 minutes"
