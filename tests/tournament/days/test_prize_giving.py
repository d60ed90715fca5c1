"""The playoff named and finished: stage names everywhere, final placings for the prizes, a finished
tournament off the staff's list of rounds in play."""

import csv
import io
import json
import re
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.conftest import text_of
from tests.tournament.services.test_playoffs import match, play, qualified  # noqa: F401 (fixture)
from tournament import selectors
from tournament.errors import ServiceError
from tournament.selectors.money import payout_sheet
from tournament.selectors.series import series_standings_of
from tournament.services.archive import event_export, event_import
from tournament.services.log import Actor
from tournament.services.money import money_settings_set, payment_record
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.series import series_create, series_tournament_add
from tournament.services.sheets import ChangeContext


@pytest.fixture
def finished(qualified, sheet):  # noqa: F811
    """Top 4 of 8 with a third-place match: seed 1 (#1) beats seed 4 (#7), #3 beats #5, #1 wins the final,
    #5 wins the third-place match."""
    playoff_seed(tournament=qualified, teams=4, third_place=True)
    playoff_publish(tournament=qualified)
    play(sheet, qualified, "W1-1", "NS")
    play(sheet, qualified, "W1-2", "NS")
    play(sheet, qualified, "W2-1", "NS")
    play(sheet, qualified, "3P", "EW")
    qualified.refresh_from_db()
    return qualified


def test_final_placings_of_the_whole_field(finished):
    placings = selectors.tournament_placings(finished)
    assert [(str(p.place), p.team.number, p.reached) for p in placings[:4]] == [
        ("1", 1, "Champion"),
        ("2", 3, "Runner-up"),
        ("3", 5, "Third place"),
        ("4", 7, "Fourth place"),
    ]
    assert [p.team.number for p in placings[4:]] == [2, 4, 6, 8]
    assert [str(p.place) for p in placings[4:]] == ["T-5", "T-5", "T-5", "T-5"], "the qualifying tie stays shared"
    assert all(p.reached.startswith("Qualifying") for p in placings[4:])


def test_no_placings_until_every_match_is_decided(qualified, sheet):  # noqa: F811
    playoff_seed(tournament=qualified, teams=4, third_place=True)
    playoff_publish(tournament=qualified)
    for code in ("W1-1", "W1-2", "W2-1"):
        play(sheet, qualified, code, "NS")
    assert selectors.tournament_placings(qualified) is None, "the third-place match is still to play"


def test_placings_on_the_home_standings_pdf_and_exports(client, finished, director):
    home = text_of(client.get(reverse("public:tournament", args=[finished.slug])))
    assert "Final placings" in home and "1 · #1 Player 0a &amp; Player 0b Champion" in home
    page = text_of(client.get(reverse("public:standings", args=[finished.slug])))
    assert "Final placings" in page and "Fourth place" in page and "Qualifying standings" in page
    response = client.get(reverse("public:standings", args=[finished.slug]), {"_export": "csv", "listing": "placings"})
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Place", "Team", "Players", "How"] and rows[1][:2] == ["1", "#1 Player 0a & Player 0b"]
    assert len(rows) == 9
    client.force_login(director)
    pdf = client.get(reverse("director:standings_pdf", args=[finished.slug]))
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "final placings" in text and "Runner-up" in text


def test_placings_from_the_command_as_json(finished):
    out = io.StringIO()
    call_command("standings", finished.slug, "--placings", "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert [(row["place"], row["shared"], row["team"]["number"]) for row in data[:5]] == [
        (1, False, 1),
        (2, False, 3),
        (3, False, 5),
        (4, False, 7),
        (5, True, 2),
    ]


def test_the_archive_keeps_the_placings_and_the_stage_names(finished):
    archive = event_export(event=finished.event)
    kept = archive["tournaments"][0]["playoff"]["placings"]
    assert kept[0] == {"place": 1, "shared": False, "team": 1} and len(kept) == 8
    labels = {r["label"] for r in archive["tournaments"][0]["rounds"] if r["kind"] == "playoff"}
    assert labels == {"Semifinal", "Final · Third-place match"}
    copy = event_import(data=json.loads(json.dumps(archive)), as_copy=True)
    copied = copy.tournaments.get()
    assert [p.team.number for p in selectors.tournament_placings(copied)] == [1, 3, 5, 7, 2, 4, 6, 8]
    assert {r.title for r in copied.rounds.filter(kind="playoff")} == labels
    archive["tournaments"][0]["playoff"]["placings"][0]["team"] = 3
    with pytest.raises(ServiceError, match="final placings differ"):
        event_import(data=archive, as_copy=True)


def test_playoff_tables_are_called_by_their_match(client, finished, director):
    final = match(finished, "W2-1").table
    assert f"Table {final.number} · Final" in text_of(client.get(reverse("table", args=[final.secret])))
    team = text_of(client.get(reverse("public:team", args=[finished.slug, 1])))
    assert "Semifinal 1 · table" in team and "Final · table" in team
    client.force_login(director)
    live = text_of(client.get(reverse("director:round_live", args=[finished.slug, final.round.number])))
    assert "Final · Third-place match, live" in live
    hands = client.get(reverse("director:hands_export", args=[finished.slug, "csv"])).content.decode("utf-8-sig")
    assert "Third-place match" in hands and "Semifinal 2" in hands


def test_after_the_champion_no_round_is_offered_to_draw(client, finished, director):
    client.force_login(director)
    text = text_of(client.get(reverse("director:tournament", args=[finished.slug])))
    assert "Final placings (PDF)" in text and "Draw the next round" not in text


def test_while_qualifying_lasts_the_next_round_is_offered(client, tournament, make_teams, director):
    make_teams(tournament, 4)
    client.force_login(director)
    assert "Draw the next round" in text_of(client.get(reverse("director:tournament", args=[tournament.slug])))


def test_a_finished_tournament_leaves_the_rounds_in_play(finished):
    assert not [r for r in selectors.rounds_in_play() if r.tournament_id == finished.pk]


def test_three_seeds_cannot_have_a_third_place_match(qualified):  # noqa: F811
    with pytest.raises(ServiceError) as refused:
        playoff_seed(tournament=qualified, teams=3, third_place=True)
    assert refused.value.field == "third_place" and "only one semifinal loser" in refused.value.message
    assert playoff_seed(tournament=qualified, teams=3, third_place=False)


def test_a_qualifying_correction_after_seeding_offers_to_seed_again(client, qualified, director):  # noqa: F811
    from tournament.services.playoffs import playoff_reseed, seeding_changes
    from tournament.services.sheets import HandEntry, hand_update

    playoff_seed(tournament=qualified, teams=4)
    playoff_publish(tournament=qualified)
    table = qualified.rounds.get(number=1).tables.get(number=4)
    hand = table.hands.get(sequence=1)
    client.force_login(director)
    table.refresh_from_db()
    hand_update(
        hand=hand,
        entry=HandEntry("N", "N", 3, "high", 2),
        context=ChangeContext(
            version=table.version, actor=Actor.staff(director), reason="Counted again", director_ruling=True
        ),
    )
    changes = seeding_changes(qualified)
    assert "Seed 4 is #7; the standings now put #5 there." in changes
    page = text_of(client.get(reverse("table", args=[table.secret])))
    assert "The playoff was seeded before this correction" in page
    playoffs = text_of(client.get(reverse("director:playoffs", args=[qualified.slug])))
    assert "Seed again from the standings and publish the bracket again" in playoffs
    seeds = playoff_reseed(tournament=qualified)
    assert [s.team.number for s in seeds] != [1, 3, 5, 7] and seeding_changes(qualified) == []
    qualified.refresh_from_db()
    assert qualified.playoff_published_at is not None and qualified.playoff_matches.count() == 3


def test_sixteen_teams_three_rounds_and_a_top_eight_playoff_in_order(tournament, make_teams, sheet, client):
    from tournament.models import LogEntry
    from tournament.services.draws import round_draw, round_publish

    tournament.qualifying_rounds = 3
    tournament.save()
    make_teams(tournament, 16)
    for number in (1, 2, 3):
        round_ = round_publish(
            round=round_draw(tournament=tournament, method="random" if number == 1 else "swiss", seed=number)
        )
        tables = list(round_.tables.order_by("number"))
        for table in tables[:-1]:
            sheet.play(table, "NS" if table.number % 2 else "EW")
        if number < 3:
            with pytest.raises(ServiceError, match=f"Round {number + 1} cannot be drawn yet"):
                round_draw(tournament=tournament, method="swiss")
        sheet.play(tables[-1], "NS")
    assert not LogEntry.objects.filter(summary__contains="override").exists()
    with pytest.raises(ServiceError, match="All 3 qualifying rounds are drawn"):
        round_draw(tournament=tournament, method="swiss")
    playoff_seed(tournament=tournament, teams=8, third_place=True)
    playoff_publish(tournament=tournament)
    for code in ("W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1", "3P"):
        play(sheet, tournament, code, "NS")
    placings = selectors.tournament_placings(tournament)
    assert len(placings) == 16 and [p.place.number for p in placings[:4]] == [1, 2, 3, 4]
    assert [str(p.place) for p in placings[4:8]] == ["T-5"] * 4, "quarterfinal losers share fifth"
    assert sorted(p.team.number for p in placings) == list(range(1, 17))
    tournament.refresh_from_db()
    assert tournament.status == tournament.Status.FINISHED


@pytest.fixture
def five_seeds(qualified, sheet):  # noqa: F811
    """Five seeds, no third-place match, one entry fee of 10.00 per team paid 40/30/20/10: seeds 2 (#3) and 3
    (#5) meet in Semifinal 2 straight from their byes, in the first sitting beside the quarterfinal of seeds 4
    (#7) and 5 (#2); #7 beats #2, #3 beats #5, #1 beats #7, #1 beats #3 in the final."""
    money_settings_set(
        tournament=qualified,
        entry_fee="10",
        side_pot_fee="0",
        house_percent="0",
        payout_percents="40, 30, 20, 10",
        side_pot_rule="placing",
    )
    for team in qualified.teams.all():
        payment_record(team=team, amount="10", method="cash")
    playoff_seed(tournament=qualified, teams=5)
    playoff_publish(tournament=qualified)
    assert match(qualified, "W2-2").table.round == match(qualified, "W1-2").table.round, "one sitting"
    for code in ("W1-2", "W2-2", "W2-1", "W3-1"):
        play(sheet, qualified, code, "NS")
    qualified.refresh_from_db()
    return qualified


def test_five_seeds_both_beaten_semifinalists_share_third_on_every_surface(client, five_seeds):
    expected = [("1", 1), ("2", 3), ("T-3", 5), ("T-3", 7), ("5", 2)]
    placings = selectors.tournament_placings(five_seeds)
    assert [(str(p.place), p.team.number) for p in placings[:5]] == expected
    assert [p.reached for p in placings[:5]] == [
        "Champion",
        "Runner-up",
        "Out in the semifinal",
        "Out in the semifinal",
        "Out in the quarterfinal",
    ]

    page = text_of(client.get(reverse("public:standings", args=[five_seeds.slug])))
    for label, number in expected:
        assert re.search(rf"\b{label} #{number} ", page), (label, number)
    api = client.get(f"/api/v1/tournaments/{five_seeds.slug}/placings").json()
    assert [(p["label"], p["team"]["number"]) for p in api[:5]] == expected
    assert [(p["place"], p["shared"]) for p in api[:5]] == [(1, False), (2, False), (3, True), (3, True), (5, False)]

    # 80.00 paid 40/30/20/10: the beaten semifinalists share the 20% and 10% of places 3 and 4, 12.00 each.
    payouts = payout_sheet(five_seeds)
    assert payouts.final
    assert [(str(line.place), line.team.number, str(line.amount)) for line in payouts.prizes] == [
        ("1", 1, "32.00"),
        ("2", 3, "24.00"),
        ("T-3", 5, "12.00"),
        ("T-3", 7, "12.00"),
    ]

    series = series_create(name="Race")
    series_tournament_add(series=series, tournament=five_seeds)
    totals = {row.name: row.total for row in series_standings_of(series).rows}
    half = Fraction(1, 2)  # every one of #1, #3, #5, #7 won the qualifying round; #2 lost it
    assert [totals[f"Player {n}a"] for n in (0, 2, 4, 6, 1)] == [6 + half, 3 + half, 1 + half, 1 + half, 0]
