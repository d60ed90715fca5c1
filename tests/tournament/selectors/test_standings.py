import io
import json

from django.core.management import call_command

from tests.conftest import round_published
from tournament.models import Round
from tournament.selectors.standings import tournament_standings
from tournament.services.draws import round_draw
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext, HandEntry


def by_number(rows):
    return {row.team.number: row for row in rows}


def play_round(tournament, results, sheet, *, method="manual", pairs="", sign=True):
    """Draw and publish a round, then play each table with the given winner ("NS", "EW" or "tie")."""
    round_ = round_published(tournament, method=method, pairs=pairs)
    for table, winner in zip(round_.tables.order_by("number"), results, strict=False):
        sheet.play(table, winner, sign=sign)
    return round_


def test_only_signed_rounds_count(tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_ = play_round(tournament, ["NS"], sheet)
    unsigned = round_.tables.get(number=2)
    sheet.play(unsigned, "NS", sign=False)
    rows = by_number(tournament_standings(tournament))
    assert rows[1].record.wins == 1 and rows[1].record.points_for == 4 and rows[1].record.points_against == 2
    assert rows[2].record.losses == 1
    assert rows[3].record.rounds_played == 0 and rows[4].record.rounds_played == 0, "an unsigned round never counts"
    assert [row.team.number for row in tournament_standings(tournament)][:1] == [1]


def test_a_full_standings_table_with_a_tie_a_bye_and_shared_places(tournament, make_teams, sheet):
    make_teams(tournament, 5)
    play_round(tournament, ["NS", "tie"], sheet, pairs="1 2\n3 4\n5")
    rows = by_number(tournament_standings(tournament))
    assert rows[1].won_lost_tied == "1-0-0" and rows[2].won_lost_tied == "0-1-0"
    assert rows[3].won_lost_tied == "0-0-1" and rows[3].record.rounds_won == 0.5
    # The bye: a round win and the average points of the round's winners (only table 1 had one: 4).
    assert rows[5].won_lost_tied == "1-0-0" and rows[5].record.points_for == 4 and rows[5].byes == 1
    labels = {row.team.number: str(row.place) for row in tournament_standings(tournament)}
    assert labels == {5: "1", 1: "2", 3: "T-3", 4: "T-3", 2: "5"}, "the bye has the better difference"


def test_the_bye_counts_at_once_its_points_provisional_until_every_table_of_its_round_is_signed(
    tournament, make_teams, sheet
):
    make_teams(tournament, 3)
    round_ = round_published(tournament, method="manual", pairs="1 2\n3")
    bye = by_number(tournament_standings(tournament))[3]
    assert (bye.record.wins, bye.record.points_for, bye.provisional, bye.points_shown) == (
        1,
        0,
        True,
        "0 (provisional)",
    )
    sheet.play(round_.tables.get(), "EW")
    bye = by_number(tournament_standings(tournament))[3]
    winner = by_number(tournament_standings(tournament))[2]
    assert (bye.record.wins, bye.provisional) == (1, False)
    assert bye.points_shown == str(bye.record.points_for) == str(winner.record.points_for), "the winner's points"


def test_hands_won_and_bostons(tournament, make_teams, sheet):
    make_teams(tournament, 2)
    round_ = round_published(tournament)
    table = round_.tables.get()
    for dealer, bidder, books in (("N", "N", 13), ("E", "E", 9), ("S", "N", 8), ("W", "W", 5)):
        sheet.hand(table, dealer, bidder, 2, "high", books)
    sheet.sign_both(table)
    rows = by_number(tournament_standings(tournament))
    assert (rows[1].record.hands_won, rows[1].record.bostons) == (3, 1)
    assert (rows[2].record.hands_won, rows[2].record.bostons) == (1, 0)


def test_a_level_group_that_did_not_all_meet_shares_the_place(tournament, make_teams, sheet):
    make_teams(tournament, 4)
    play_round(tournament, ["EW", "NS"], sheet, pairs="1 2\n3 4")
    play_round(tournament, ["NS", "EW"], sheet, pairs="1 3\n2 4")
    # 1: L then W; 2: W then L; 3: W then L; 4: L then W -> all 1-1, points 6 for and 6 against.
    rows = tournament_standings(tournament)
    assert {row.record.points_for for row in rows} == {6}
    placed = [(str(row.place), row.team.number) for row in rows]
    assert placed == [("T-1", 1), ("T-1", 2), ("T-1", 3), ("T-1", 4)]


def test_the_chosen_order_ranks_total_points_first(tournament, make_teams, sheet):
    make_teams(tournament, 4)
    round_ = round_published(tournament)
    close, easy = round_.tables.order_by("number")
    for dealer, bidder, level in (("N", "N", 1), ("E", "E", 4), ("S", "N", 6), ("W", "E", 4)):
        sheet.hand(close, dealer, bidder, level, "high", 6 + level)  # team 1 loses 7–8 to team 2
    sheet.sign_both(close)
    sheet.play(easy, "EW")  # team 4 beats team 3, 4–2
    assert [row.team.number for row in tournament_standings(tournament)] == [2, 4, 1, 3]
    tournament.standings_order = "total_points,rounds_won,point_difference,head_to_head"
    tournament.save()
    assert [row.team.number for row in tournament_standings(tournament)] == [2, 1, 4, 3]


def test_swiss_round_two_pairs_winners_and_never_rematches(tournament, make_teams, sheet):
    make_teams(tournament, 8)
    play_round(tournament, ["NS", "NS", "NS", "NS"], sheet, pairs="1 2\n3 4\n5 6\n7 8")
    round_2 = round_draw(tournament=tournament, method=Round.Method.SWISS)
    pairs = {frozenset((t.team_ns.number, t.team_ew.number)) for t in round_2.tables.prefetch_related("seatings__team")}
    winners = {1, 3, 5, 7}
    assert all(pair <= winners or not pair & winners for pair in pairs)
    assert not pairs & {frozenset((1, 2)), frozenset((3, 4)), frozenset((5, 6)), frozenset((7, 8))}


def test_movement_round_keeps_sitters_and_moves_the_others(tournament, make_teams, sheet):
    make_teams(tournament, 6)
    play_round(tournament, ["NS", "EW", "tie"], sheet, pairs="1 2\n3 4\n5 6")
    round_2 = round_draw(tournament=tournament, method=Round.Method.MOVEMENT)
    layout = [
        (t.team_ns.number, t.team_ew.number)
        for t in round_2.tables.prefetch_related("seatings__team").order_by("number")
    ]
    assert layout == [(1, 6), (3, 2), (5, 4)]


def test_standings_command_formats(tournament, make_teams, sheet):
    make_teams(tournament, 2)
    play_round(tournament, ["EW"], sheet)
    out = io.StringIO()
    call_command("standings", tournament.slug, "--format", "json", stdout=out)
    data = json.loads(out.getvalue())
    assert data[0]["team_number"] == 2 and data[0]["place"] == 1 and data[0]["won_lost_tied"] == "1-0-0"
    assert data[0]["label"] == "1" and data[0]["shared"] is False
    out = io.StringIO()
    call_command("standings", tournament.slug, "--format", "csv", stdout=out)
    assert out.getvalue().splitlines()[0].startswith("Place,Team,Players,City,W-L-T")
    out = io.StringIO()
    call_command("standings", tournament.slug, stdout=out)
    assert "Player 1a & Player 1b" in out.getvalue().splitlines()[2]


def test_an_entry_after_signing_corrected_by_staff_updates_the_standings(tournament, make_teams, sheet, director):
    make_teams(tournament, 2)
    round_ = play_round(tournament, ["NS"], sheet)
    table = round_.tables.get()
    from tournament.services.sheets import hand_update

    first = table.hands.get(sequence=1)
    entry = HandEntry("N", "N", 3, "high", 13, "spades")
    hand_update(
        hand=first,
        entry=entry,
        context=ChangeContext(version=sheet.version(table), actor=Actor.staff(director), reason="Took all 13"),
    )
    assert by_number(tournament_standings(tournament))[1].record.points_for == 7 + 1


def test_every_hand_exports_as_csv(client, scorekeeper, director, tournament, make_teams, sheet):
    import csv

    from django.urls import reverse

    make_teams(tournament, 2)
    round_ = round_published(tournament)
    table = round_.tables.get()
    sheet.hand(table, "N", "E", 3, "low", 10)
    sheet.redeal(table, "E")
    sheet.penalty(table, kind="renege", team="NS", hand=table.hands.get(sequence=1))
    sheet.penalty(table, kind="director_ruling", team="NS", points=2, reason="Slow play", user=director)
    url = reverse("director:hands_export", args=[tournament.slug, "csv"])
    assert client.get(url).status_code == 302
    client.force_login(scorekeeper)
    rows = list(csv.DictReader(io.StringIO(client.get(url).content.decode())))
    assert [(r["Hand"], r["Re-deal"], r["Bid"], r["Books"], r["E-W points"]) for r in rows] == [
        ("1", "no", "3 Downtown ♥", "10", "7"),
        ("2", "yes", "", "", "0"),
        ("", "no", "", "", "0"),
    ]
    assert rows[0]["Penalties"] == "Renege by North–South" and rows[0]["N-S team"] == "1"
    assert rows[2]["Penalties"].startswith("Director's ruling") and rows[2]["N-S points"] == "2"
    table.refresh_from_db()
    assert sum(int(r["N-S points"]) for r in rows) == table.ns_total, "the rows add up to the sheet"
    assert sum(int(r["E-W points"]) for r in rows) == table.ew_total
    assert client.get(reverse("director:hands_export", args=[tournament.slug, "pdf"])).status_code == 404
    assert client.get(reverse("director:hands_export", args=[tournament.slug, "xlsx"]))["Content-Type"].startswith(
        "application/vnd.openxmlformats"
    )
