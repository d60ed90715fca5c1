import pytest
from django.db import IntegrityError, transaction

from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import Round, Seating, Tournament
from tournament.services.draws import (
    draw_discard,
    draw_problems,
    draw_sitting_toggle,
    draw_team_move,
    draw_teams_swap,
    round_draw,
    round_publish,
)
from tournament.services.teams import team_desk_update


def layout(round_):
    """Each table as (NS team number, EW team number), and the bye's team number."""
    tables = {}
    bye = None
    for seating in round_.seatings.select_related("team", "table"):
        if seating.table is None:
            bye = seating.team.number
        else:
            tables.setdefault(seating.table.number, {})[seating.pair] = seating.team.number
    return [(sides.get("NS"), sides.get("EW")) for _, sides in sorted(tables.items())], bye


def placed_numbers(round_):
    tables, bye = layout(round_)
    return sorted([n for table in tables for n in table] + ([bye] if bye else []))


def test_every_checked_in_team_exactly_once_and_withdrawn_or_absent_never(tournament, make_teams):
    teams = make_teams(tournament, 10)
    make_teams(tournament, 2, checked_in=False, start=10)
    team_desk_update(team=teams[3], withdrawn=True)
    round_ = round_draw(tournament=tournament, method="random", seed=7)
    expected = sorted(team.number for team in teams if team.number != teams[3].number)
    assert placed_numbers(round_) == expected
    tables, bye = layout(round_)
    assert len(tables) == 4 and bye is not None


def test_an_even_field_has_no_bye(tournament, make_teams):
    make_teams(tournament, 8)
    tables, bye = layout(round_draw(tournament=tournament, method="random", seed=3))
    assert len(tables) == 4 and bye is None


def test_the_seed_is_stored_and_the_same_seed_gives_the_same_draw(tournament, event, make_teams):
    make_teams(tournament, 16)
    first = round_draw(tournament=tournament, method="random", seed=2026)
    assert first.seed == 2026 and first.method == Round.Method.RANDOM and first.is_draft
    first_layout = layout(first)
    again = round_draw(tournament=tournament, method="random", seed=2026)
    assert layout(again) == first_layout
    assert Round.objects.filter(tournament=tournament).count() == 1, "the draft is replaced"
    other = round_draw(tournament=tournament, method="random", seed=2027)
    assert layout(other) != first_layout


def test_a_draw_without_a_seed_records_the_one_it_used(tournament, make_teams):
    make_teams(tournament, 6)
    round_ = round_draw(tournament=tournament, method="random")
    assert round_.seed is not None
    drawn = layout(round_)
    replay = round_draw(tournament=tournament, method="random", seed=round_.seed)
    assert layout(replay) == drawn


def test_random_draw_keeps_cities_apart_where_possible(tournament, make_teams):
    make_teams(tournament, 16)  # four cities, four teams each
    tables, _ = layout(round_draw(tournament=tournament, method="random", seed=11))
    city = {team.number: team.city for team in tournament.teams.all()}
    assert all(city[a] != city[b] for a, b in tables)


def test_manual_draw_from_a_table_list(tournament, make_teams):
    make_teams(tournament, 5)
    round_ = round_draw(tournament=tournament, method="manual", pairs="1 v 4\n5-2\n3")
    assert layout(round_) == ([(1, 4), (5, 2)], 3)
    assert round_.seed is None


def test_manual_draw_defaults_to_number_order(tournament, make_teams):
    make_teams(tournament, 4)
    assert layout(round_draw(tournament=tournament, method="manual")) == ([(1, 2), (3, 4)], None)


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ("1 2\n3 9", "Line 2: team 9 is not a checked-in team"),
        ("1 2\n2 3\n4", "Line 2: team 2 is already placed on line 1"),
        ("1 2 3\n4", "Line 1: a table is two teams"),
        ("1 2", "missing: 3, 4"),
        ("1\n2\n3 4", "Line 2: only one team can have the bye"),
        ("1 2\nbanana\n3 4", "Line 2: “banana” names no team"),
    ],
)
def test_manual_draw_refusals(tournament, make_teams, pairs, message):
    make_teams(tournament, 4)
    with pytest.raises(ServiceError, match=message) as refused:
        round_draw(tournament=tournament, method="manual", pairs=pairs)
    assert refused.value.field == "pairs"
    assert not tournament.rounds.exists()


def test_a_draw_needs_two_checked_in_teams(tournament, make_teams):
    make_teams(tournament, 1)
    make_teams(tournament, 3, checked_in=False, start=1)
    with pytest.raises(ServiceError, match="at least two teams"):
        round_draw(tournament=tournament, method="random")


def test_swap_move_and_sitting_edit_a_draft(tournament, make_teams):
    teams = make_teams(tournament, 5)
    round_ = round_draw(tournament=tournament, method="manual", pairs="1 2\n3 4\n5")
    by_number = {team.number: team for team in teams}
    draw_teams_swap(round=round_, team_a=by_number[2], team_b=by_number[5])
    assert layout(round_) == ([(1, 5), (3, 4)], 2)
    draw_teams_swap(round=round_, team_a=by_number[1], team_b=by_number[4])
    assert layout(round_) == ([(4, 5), (3, 1)], 2)
    table = round_.tables.get(number=2)
    draw_sitting_toggle(table=table)
    table.refresh_from_db()
    assert table.sitting_pair == "EW"


def test_move_to_a_new_table_and_the_bye(tournament, make_teams):
    teams = make_teams(tournament, 6)
    round_ = round_draw(tournament=tournament, method="manual", pairs="1 2\n3 4\n5 6")
    by_number = {team.number: team for team in teams}
    draw_team_move(round=round_, team=by_number[6], table_number=None)
    assert layout(round_) == ([(1, 2), (3, 4), (5, None)], 6)
    assert draw_problems(round_) == ["Table 3 has one team."]
    with pytest.raises(ServiceError, match="Table 1 already has two teams"):
        draw_team_move(round=round_, team=by_number[5], table_number=1)
    with pytest.raises(ServiceError, match="Another team already has the bye"):
        draw_team_move(round=round_, team=by_number[5], table_number=None)
    draw_team_move(round=round_, team=by_number[6], table_number=3)
    assert layout(round_) == ([(1, 2), (3, 4), (5, 6)], None)
    draw_team_move(round=round_, team=by_number[1], table_number=9)
    draw_team_move(round=round_, team=by_number[2], table_number=9)
    assert layout(round_) == ([(3, 4), (5, 6), (1, 2)], None)
    assert round_.tables.filter(number=1).count() == 0, "an emptied table goes away"


def test_a_late_team_is_placed_into_the_draft(tournament, make_teams):
    make_teams(tournament, 4)
    round_ = round_draw(tournament=tournament, method="manual")
    (late,) = make_teams(tournament, 1, start=4)
    assert draw_problems(round_) == [f"{late} is checked in but not in the draw."]
    with pytest.raises(ServiceError, match="cannot be published yet"):
        round_publish(round=round_)
    draw_team_move(round=round_, team=late, table_number=None)
    round_publish(round=round_)
    assert layout(round_)[1] == late.number


def test_publish_fixes_the_draw_and_starts_the_tournament(tournament, make_teams):
    teams = make_teams(tournament, 4)
    round_ = round_published(tournament)
    tournament.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED and round_.published_at is not None
    assert tournament.status == Tournament.Status.RUNNING
    for change in (
        lambda: draw_teams_swap(round=round_, team_a=teams[0], team_b=teams[1]),
        lambda: draw_team_move(round=round_, team=teams[0], table_number=5),
        lambda: draw_sitting_toggle(table=round_.tables.first()),
        lambda: draw_discard(round=round_),
        lambda: round_publish(round=round_),
    ):
        with pytest.raises(ServiceError, match="is published"):
            change()
    assert layout(round_) == ([(1, 2), (3, 4)], None)


def test_the_next_round_waits_for_the_previous_to_be_published(tournament, make_teams):
    make_teams(tournament, 4)
    round_draw(tournament=tournament, method="manual")
    redrawn = round_draw(tournament=tournament, method="manual")
    assert redrawn.number == 1
    round_publish(round=redrawn)
    assert round_draw(tournament=tournament, method="random", seed=1, override_unsigned=True).number == 2


def test_no_round_beyond_the_qualifying_rounds(tournament, make_teams):
    make_teams(tournament, 2)
    for _ in range(tournament.qualifying_rounds):
        round_publish(
            round=round_draw(tournament=tournament, method="manual", override_unsigned=True), override_unsigned=True
        )
    with pytest.raises(ServiceError, match="All 4 qualifying rounds are drawn"):
        round_draw(tournament=tournament, method="manual", override_unsigned=True)


def test_withdrawing_after_the_draw_keeps_what_was_drawn(tournament, make_teams):
    teams = make_teams(tournament, 4)
    round_ = round_published(tournament)
    team_desk_update(team=teams[0], withdrawn=True)
    assert layout(round_) == ([(1, 2), (3, 4)], None)
    next_round = round_draw(tournament=tournament, method="manual", pairs="2 3\n4", override_unsigned=True)
    assert layout(next_round) == ([(2, 3)], 4)


def test_withdrawn_team_in_a_draft_blocks_publishing(tournament, make_teams):
    teams = make_teams(tournament, 4)
    round_ = round_draw(tournament=tournament, method="manual")
    team_desk_update(team=teams[0], withdrawn=True)
    assert f"{teams[0]} has withdrawn: move another team in or redraw." in draw_problems(round_)


def test_the_database_refuses_a_team_twice_in_one_round(tournament, make_teams):
    teams = make_teams(tournament, 4)
    round_ = round_draw(tournament=tournament, method="manual")
    with pytest.raises(IntegrityError), transaction.atomic():
        Seating.objects.create(round=round_, team=teams[0])


def test_the_database_refuses_two_teams_on_one_side(tournament, make_teams):
    make_teams(tournament, 4)
    round_ = round_draw(tournament=tournament, method="manual")
    table = round_.tables.get(number=1)
    seating = Seating.objects.get(round=round_, table=table, pair="EW")
    seating.pair = "NS"
    with pytest.raises(IntegrityError), transaction.atomic():
        seating.save()


def test_discard_a_draft(tournament, make_teams):
    make_teams(tournament, 4)
    round_ = round_draw(tournament=tournament, method="manual")
    draw_discard(round=round_)
    assert not tournament.rounds.exists()


def test_a_round_closes_once_every_sheet_is_signed(tournament, make_teams, sheet):
    from tournament.services.draws import round_close

    make_teams(tournament, 4)
    round_ = round_published(tournament)
    first, second = round_.tables.order_by("number")
    sheet.play(first, "NS")
    with pytest.raises(ServiceError, match="table 2 has not signed"):
        round_close(round=round_)
    sheet.play(second, "EW")
    assert round_close(round=round_).status == Round.Status.CLOSED
    with pytest.raises(ServiceError, match="Only a published round"):
        round_close(round=round_)
