"""The round clock stops once every sheet of the round is signed (a forfeit counts): the service that signs the
last sheet stores the round complete, and the projector, the live view, the table page and the team's page say
so instead of counting. A forfeit undone opens the round again, and its clock runs on to its deadline."""

import importlib
import re

import pytest
from django.apps import apps
from django.db.models import Max
from django.urls import reverse

from tests.conftest import round_published
from tests.tournament.services.test_clock import timed  # noqa: F401 (fixture)
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (fixture)
from tournament.errors import ServiceError
from tournament.models import PlayoffMatch, Round
from tournament.services import clock
from tournament.services.absence import table_forfeit_declare, table_forfeit_undo
from tournament.services.playoffs import playoff_publish, playoff_seed

COMPLETE = "Complete: every sheet is signed"


def _surfaces(client, director_client, round_) -> dict[str, str]:
    """The pages that show the round's clock, as the server sends them (what a phone without script shows)."""
    slug = round_.tournament.slug
    table = round_.tables.get(number=1)
    team = table.team_at("NS")
    client.post(reverse("team_open"), {"code": team.code})
    responses = {
        "projector": client.get(reverse("public:projector", args=[slug])),
        "live view": director_client.get(reverse("director:round_live", args=[slug, round_.number])),
        "round page": director_client.get(reverse("director:round", args=[slug, round_.number])),
        "table page": client.get(reverse("table", args=[table.secret])),
        "team page": client.get(reverse("team_page", args=[team.pk])),
    }
    return {name: response.content.decode() for name, response in responses.items()}


def _text(html: str) -> str:
    """A page's text as a reader sees it (the tags dropped, white space folded)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_last_signature_stops_the_clock_and_every_page_says_the_round_is_complete(
    client,
    director_client,
    timed,  # noqa: F811
    staff,
    sheet,
):
    clock.round_clock_start(round=timed, actor=staff)
    first, second, third, last = timed.tables.order_by("number")
    for table in (first, second, third):
        sheet.play(table)
    timed.refresh_from_db()
    assert not timed.complete, "a table still plays"
    playing = _surfaces(client, director_client, timed)
    for name, page in playing.items():
        assert COMPLETE not in page, name
    assert f'data-clock-ends="{int(timed.clock_ends_at.timestamp() * 1000)}"' in playing["projector"]
    fragment = reverse("director:round_live_fragment", args=[timed.tournament.slug, 1])
    assert "hx-swap-oob" not in director_client.get(fragment).content.decode(), "the clock section is left alone"
    table_forfeit_declare(table=last, absent="EW", early=True, reason="Not coming", actor=staff)
    timed.refresh_from_db()
    assert timed.completed_at == timed.tables.aggregate(last=Max("locked_at"))["last"], "stopped at the last one"
    complete = _surfaces(client, director_client, timed)
    for name, page in complete.items():
        assert "data-clock-ends" not in page, f"the {name} still counts"
    for name in ("projector", "live view", "round page"):
        assert f'<span class="clock-words">{COMPLETE}</span>' in complete[name] and "clock-done" in complete[name]
    assert "Round 1 Complete: every sheet is signed" in _text(complete["projector"])
    assert "Signed: the round is complete" in _text(complete["table page"])
    assert "Signed: the round is complete" in _text(complete["team page"])
    forfeited = client.get(reverse("table", args=[last.secret])).content.decode()
    assert "Forfeit: the round is complete" in _text(forfeited)
    for button in ("Pause the clock", "Add to the round", "Minutes to add to every table"):
        assert button not in complete["live view"] and button not in complete["round page"], button
    refreshed = director_client.get(fragment).content.decode()
    assert 'id="round-clock" aria-labelledby="round-clock-title" hx-swap-oob="true"' in refreshed
    assert f'<span class="clock-words">{COMPLETE}</span>' in refreshed, "the live view's refresh stops its clock"


def test_a_complete_rounds_clock_takes_no_more_buttons(timed, staff, sheet):  # noqa: F811
    clock.round_clock_start(round=timed, actor=staff)
    for table in timed.tables.all():
        sheet.play(table)
    for service in (clock.round_clock_pause, clock.round_clock_resume, clock.round_clock_start):
        with pytest.raises(ServiceError, match="Round 1 is complete: every sheet is signed, and its clock has stopped"):
            service(round=timed, actor=staff)
    with pytest.raises(ServiceError, match="Round 1 is complete"):
        clock.round_clock_add(round=timed, minutes=5, actor=staff)


def test_a_forfeit_undone_opens_the_round_again_and_its_clock_runs_on_to_its_deadline(
    client,
    timed,  # noqa: F811
    staff,
    sheet,
):
    clock.round_clock_start(round=timed, actor=staff)
    *played, last = timed.tables.order_by("number")
    for table in played:
        sheet.play(table)
    table_forfeit_declare(table=last, absent="NS", early=True, reason="Not coming", actor=staff)
    timed.refresh_from_db()
    assert timed.complete
    table_forfeit_undo(table=last, reason="They came after all", actor=staff)
    timed.refresh_from_db()
    assert not timed.complete, "the table plays again"
    projector = client.get(reverse("public:projector", args=[timed.tournament.slug])).content.decode()
    assert f'data-clock-ends="{int(timed.clock_ends_at.timestamp() * 1000)}"' in projector
    assert COMPLETE not in projector
    clock.round_clock_add(round=timed, minutes=5, actor=staff)
    sheet.play(last)
    timed.refresh_from_db()
    assert timed.complete


def test_a_playoff_round_is_complete_once_every_match_of_its_stage_is_signed(qualified, sheet):  # noqa: F811
    playoff_seed(tournament=qualified, teams=8)
    playoff_publish(tournament=qualified)

    def round_of(code) -> Round:
        return Round.objects.get(tables__playoff_match__code=code)

    for code in ("W1-1", "W1-2"):
        play(sheet, qualified, code, "NS")
    assert not round_of("W1-1").complete, "two quarterfinals still play"
    semifinal = play(sheet, qualified, "W2-1", "NS")
    assert not round_of("W2-1").complete, "the other semifinal waits for its teams"
    assert PlayoffMatch.objects.get(tournament=qualified, code="W2-2").table is None
    for code in ("W1-3", "W1-4"):
        play(sheet, qualified, code, "NS")
    assert round_of("W1-1").complete
    assert not round_of("W2-1").complete, "the second semifinal's table opened in the semifinals' round"
    play(sheet, qualified, "W2-2", "NS")
    assert round_of("W2-1").complete and semifinal.table.round == round_of("W2-2")
    play(sheet, qualified, "W3-1", "NS")
    assert round_of("W3-1").complete


def test_the_upgrade_marks_the_rounds_already_signed_complete_from_their_last_signature(tournament, make_teams, sheet):
    make_teams(tournament, 4)
    signed = round_published(tournament, method="manual", pairs="1 2\n3 4")
    for table in signed.tables.all():
        sheet.play(table)
    playing = round_published(tournament, method="manual", pairs="1 3\n2 4")
    sheet.play(playing.tables.get(number=1))
    Round.objects.update(completed_at=None)
    importlib.import_module("tournament.migrations.0022_round_completed_at").completed_rounds_mark(apps, None)
    signed.refresh_from_db()
    playing.refresh_from_db()
    assert signed.completed_at == signed.tables.aggregate(last=Max("locked_at"))["last"]
    assert playing.completed_at is None, "a table of round 2 still plays"
