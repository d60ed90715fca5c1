import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import PlayoffMatch, Round, Tournament
from tournament.services.draws import round_draw
from tournament.services.playoffs import playoff_publish, playoff_seed, playoff_seeds_swap, qualifying_problems
from tournament.services.sheets import ChangeContext, HandEntry, hand_update, sheet_dispute


@pytest.fixture
def qualified(tournament, make_teams, sheet):
    """One signed qualifying round of 8 teams: teams 1, 3, 5, 7 won (4–2), so they rank first."""
    tournament.qualifying_rounds = 1
    tournament.save()
    make_teams(tournament, 8)
    round_ = round_published(tournament, method="manual", pairs="1 2\n3 4\n5 6\n7 8")
    for table in round_.tables.order_by("number"):
        sheet.play(table, "NS")
    return tournament


def match(tournament, code):
    return PlayoffMatch.objects.select_related("table", "top_team", "bottom_team", "winner").get(
        tournament=tournament, code=code
    )


def play(sheet, tournament, code, winner_side):
    m = match(tournament, code)
    sheet.play(m.table, winner_side)
    return match(tournament, code)


def test_unsigned_qualifying_blocks_the_seeding(tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_published(tournament)
    assert qualifying_problems(tournament) == ["Round 1, table 1 is not signed.", "Round 1, table 2 is not signed."]
    with pytest.raises(ServiceError, match="Qualifying is not over"):
        playoff_seed(tournament=tournament, teams=4)


def test_seed_swap_and_publish(qualified):
    seeds = playoff_seed(tournament=qualified, teams=6)
    assert [s.team.number for s in seeds][:4] == [1, 3, 5, 7]
    playoff_seeds_swap(tournament=qualified, seed_a=1, seed_b=2)
    assert list(qualified.playoff_seeds.order_by("seed").values_list("team__number", flat=True))[:2] == [3, 1]
    with pytest.raises(ServiceError, match="Only 8 teams"):
        playoff_seed(tournament=qualified, teams=9)
    matches = playoff_publish(tournament=qualified)
    assert len(matches) == 5
    qualified.refresh_from_db()
    assert qualified.status == Tournament.Status.PLAYOFFS
    first_round = PlayoffMatch.objects.filter(tournament=qualified, table__isnull=False)
    assert {m.code for m in first_round} == {"W1-2", "W1-4"}, "seeds 1 and 2 have byes; only real matches open"
    with pytest.raises(ServiceError, match="bracket is published"):
        playoff_seeds_swap(tournament=qualified, seed_a=1, seed_b=2)
    with pytest.raises(ServiceError, match="Qualifying is over"):
        round_draw(tournament=qualified, method="swiss")
    table = match(qualified, "W1-2").table
    assert table.round.kind == Round.Kind.PLAYOFF and table.round.status == Round.Status.PUBLISHED
    assert "Quarterfinal" in table.round.label


def test_winners_advance_when_signed_to_a_champion(qualified, sheet, client):
    playoff_seed(tournament=qualified, teams=4, third_place=True)
    playoff_publish(tournament=qualified)
    semi = match(qualified, "W1-1")
    assert (semi.top_team.number, semi.bottom_team.number) == (1, 7)
    sheet.play(semi.table, "EW", sign=False)
    assert match(qualified, "W2-1").top_team is None, "nothing advances before the sheet is signed"
    sheet.sign_both(semi.table)
    assert match(qualified, "W2-1").top_team.number == 7
    assert match(qualified, "W2-1").table is None, "the final waits for both finalists"
    play(sheet, qualified, "W1-2", "NS")
    final = match(qualified, "W2-1")
    third = match(qualified, "3P")
    assert (final.top_team.number, final.bottom_team.number) == (7, 3)
    assert {third.top_team.number, third.bottom_team.number} == {1, 5}
    play(sheet, qualified, "3P", "NS")
    qualified.refresh_from_db()
    assert qualified.status == Tournament.Status.PLAYOFFS
    play(sheet, qualified, "W2-1", "EW")
    qualified.refresh_from_db()
    assert qualified.status == Tournament.Status.FINISHED
    html = client.get(reverse("public:tournament", args=[qualified.slug])).content.decode()
    assert "Champion" in html and "#3 <bdi>Player 2a &amp; Player 2b</bdi>" in html


def test_a_tied_match_goes_on_one_hand_at_a_time(qualified, sheet):
    playoff_seed(tournament=qualified, teams=2)
    playoff_publish(tournament=qualified)
    final = match(qualified, "W1-1")
    sheet.play(final.table, "tie", sign=False)
    final.table.refresh_from_db()
    assert not final.table.complete
    sheet.hand(final.table, "N", "E", 2, "high", 8)
    sheet.sign_both(final.table)
    assert match(qualified, "W1-1").winner.number == 3


def test_double_elimination_with_the_grand_final_reset(qualified, sheet):
    playoff_seed(tournament=qualified, teams=4, double=True)
    playoff_publish(tournament=qualified)
    assert PlayoffMatch.objects.filter(tournament=qualified).count() == 7
    play(sheet, qualified, "W1-1", "NS")  # 1 beats 7
    play(sheet, qualified, "W1-2", "NS")  # 3 beats 5
    play(sheet, qualified, "W2-1", "NS")  # 1 beats 3
    play(sheet, qualified, "L1-1", "EW")  # 5 beats 7
    assert {match(qualified, "L2-1").top_team.number, match(qualified, "L2-1").bottom_team.number} == {5, 3}
    play(sheet, qualified, "L2-1", "EW")  # 3 beats 5
    grand_final = play(sheet, qualified, "GF", "EW")  # 3, from the losers' bracket, beats 1
    assert grand_final.winner.number == 3
    reset = match(qualified, "GF2")
    assert reset.table is not None and {reset.top_team.number, reset.bottom_team.number} == {1, 3}
    play(sheet, qualified, "GF2", "NS")
    qualified.refresh_from_db()
    assert qualified.status == Tournament.Status.FINISHED


def test_no_reset_when_the_winners_bracket_team_wins_the_grand_final(qualified, sheet):
    playoff_seed(tournament=qualified, teams=2, double=True)
    playoff_publish(tournament=qualified)
    play(sheet, qualified, "W1-1", "NS")
    play(sheet, qualified, "GF", "NS")
    reset = match(qualified, "GF2")
    assert reset.not_needed and reset.table is None
    qualified.refresh_from_db()
    assert qualified.status == Tournament.Status.FINISHED


@pytest.fixture
def knock_on(qualified, sheet):
    """Semifinal 1 signed (7 beat 1 by 4–2), semifinal 2 signed, and the final started."""
    playoff_seed(tournament=qualified, teams=4)
    playoff_publish(tournament=qualified)
    play(sheet, qualified, "W1-1", "EW")
    play(sheet, qualified, "W1-2", "NS")
    return match(qualified, "W1-1")


def flip(semi, sheet, user, **kwargs):
    """Staff correction: North, not East, won hand 1's bid of 3, so North–South now win 5–1."""
    hand_update(
        hand=semi.table.hands.get(sequence=1),
        entry=HandEntry("N", "N", 3, "high", 9, "hearts"),
        context=sheet.context(semi.table, user=user, reason="Wrong bidder entered", **kwargs),
    )


def test_a_correction_changing_a_winner_moves_the_next_match_before_it_starts(knock_on, sheet, director):
    flip(knock_on, sheet, director, director_ruling=True)
    final = match(knock_on.tournament, "W2-1")
    assert final.top_team.number == 1
    assert final.table.team_ns.number == 1


def test_reversing_a_signed_result_is_the_directors_ruling(knock_on, sheet, scorekeeper, director):
    with pytest.raises(ServiceError, match="changed only by the tournament director's ruling"):
        flip(knock_on, sheet, scorekeeper)
    with pytest.raises(ServiceError, match="confirm that it is your ruling") as refused:
        flip(knock_on, sheet, director)
    assert refused.value.field == "director_ruling"
    assert match(knock_on.tournament, "W1-1").winner.number == 7, "nothing changed"
    flip(knock_on, sheet, director, director_ruling=True)
    entry = knock_on.table.changes.latest("version")
    assert entry.correction and "the director's ruling changes the result" in entry.summary


def test_after_the_next_match_started_a_director_must_confirm_the_knock_on(knock_on, sheet, director):
    final = match(knock_on.tournament, "W2-1")
    sheet.hand(final.table, "N", "N", 2, "high", 8)
    with pytest.raises(ServiceError, match="A director must confirm the knock-on") as refused:
        flip(knock_on, sheet, director, director_ruling=True)
    assert refused.value.field == "confirm_knock_on"
    assert match(knock_on.tournament, "W1-1").winner.number == 7, "nothing changed"
    flip(knock_on, sheet, director, director_ruling=True, confirm_knock_on=True)
    final = match(knock_on.tournament, "W2-1")
    assert final.top_team.number == 1 and final.table.team_ns.number == 1


def test_playoff_command_seeds_publishes_and_prints_json(qualified):
    out = io.StringIO()
    call_command("playoff", qualified.slug, "--seed", "4", "--publish", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["published"] and [s["seed"] for s in data["seeds"]] == [1, 2, 3, 4]
    assert [m["code"] for m in data["matches"]] == ["W1-1", "W1-2", "W2-1"]
    assert data["matches"][0]["top_team"]["number"] == 1 and data["matches"][0]["table"] == 1


def test_bracket_pages_and_pdf(qualified, sheet, client, director):
    playoff_seed(tournament=qualified, teams=4)
    playoff_publish(tournament=qualified)
    play(sheet, qualified, "W1-1", "NS")
    html = client.get(reverse("public:bracket", args=[qualified.slug])).content.decode()
    assert "Semifinal 1" in html and "#1 Player 0a" in html and "/table/" not in html
    assert f'hx-get="{reverse("public:bracket_fragment", args=[qualified.slug])}"' in html
    assert client.get(reverse("director:playoffs", args=[qualified.slug])).status_code == 302
    client.force_login(director)
    page = client.get(reverse("director:playoffs", args=[qualified.slug])).content.decode()
    assert "Open table" in page
    pdf = client.get(reverse("director:bracket_pdf", args=[qualified.slug]))
    assert pdf.content.startswith(b"%PDF")
    from pypdf import PdfReader

    text = PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    assert "Main Event: playoff" in text and "Semifinal 1" in text


def test_the_playoff_pages_through_the_browser_forms(qualified, client, director, player_user):
    client.force_login(player_user)
    assert client.post(reverse("director:playoffs_seed", args=[qualified.slug]), {"teams": 4}).status_code == 403
    client.force_login(director)
    client.post(reverse("director:playoffs_seed", args=[qualified.slug]), {"teams": 4, "third_place": "on"})
    page = client.get(reverse("director:playoffs", args=[qualified.slug])).content.decode()
    assert re.search(r'<input type="number" name="teams" value="4"', page), "the box shows the 4 seeded, not 8"
    client.post(reverse("director:playoffs_swap", args=[qualified.slug]), {"seed_a": 3, "seed_b": 4})
    client.post(reverse("director:playoffs_publish", args=[qualified.slug]))
    qualified.refresh_from_db()
    assert qualified.playoff_published_at is not None and qualified.playoff_third_place
    assert match(qualified, "W1-2").top_team.number == 3, "seed 2 (team 3) meets the swapped seed 4"


def test_the_archive_carries_the_playoff(qualified, sheet):
    from tournament.models import Event
    from tournament.services.archive import event_export, event_import

    playoff_seed(tournament=qualified, teams=4, third_place=True)
    playoff_publish(tournament=qualified)
    play(sheet, qualified, "W1-1", "EW")
    semi = match(qualified, "W1-2").table
    sheet_dispute(table=semi, pair="NS", note="Exposed card argument", context=ChangeContext(version=semi.version))
    exported = event_export(qualified.event)
    assert exported["tournaments"][0]["playoff"]["seeds"][0] == {"seed": 1, "team": 1}
    qualified.event.delete()
    imported = event_import(data=json.loads(json.dumps(exported)))
    assert event_export(imported) == exported
    assert Event.objects.count() == 1
    tournament = imported.tournaments.get(name="Main Event")
    assert match(tournament, "W2-1").top_team.number == 7
    assert match(tournament, "W1-2").table.dispute_note == "North–South: Exposed card argument"
