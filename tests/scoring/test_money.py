from decimal import Decimal
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import ScoringError
from scoring.money import (
    DEFAULT_PAYOUT_PERCENTS,
    Placed,
    SidePotRule,
    amount_check,
    house_share,
    payout_percents_parse,
    percent_check,
    placing_payouts,
    prize_pool,
    side_pot_payouts,
)

D = Decimal


def amounts(payouts):
    return [(str(p.place), p.key, p.amount) for p in payouts]


def field(places):
    """Placed teams keyed by team number, from a list of places in team-number order."""
    return [Placed(number, place, number) for number, place in enumerate(places, start=1)]


def test_the_house_share_is_rounded_down_once_on_the_total():
    assert house_share(D("333.33"), D(10)) == D("33.33")
    assert prize_pool(D("333.33"), D(10)) == D("300.00")
    assert house_share(D("100.00"), D("12.5")) == D("12.50")
    assert house_share(D("0.09"), D(10)) == D("0.00")


def test_default_split_of_a_round_pool():
    assert amounts(placing_payouts(D("1000.00"), field([1, 2, 3, 4]), DEFAULT_PAYOUT_PERCENTS)) == [
        ("1", 1, D("500.00")),
        ("2", 2, D("300.00")),
        ("3", 3, D("200.00")),
        ("4", 4, D("0.00")),
    ]


def test_beaten_semifinalists_share_third_place_percentage():
    # T-3 covers only the third paid place: 20% shared by two.
    payouts = placing_payouts(D("1000.00"), field([1, 2, 3, 3]), DEFAULT_PAYOUT_PERCENTS)
    assert [p.amount for p in payouts] == [D("500.00"), D("300.00"), D("100.00"), D("100.00")]
    assert [str(p.place) for p in payouts] == ["1", "2", "T-3", "T-3"]


def test_three_teams_sharing_two_paid_places():
    # Places 2, 3 and 4 shared by three teams: they cover 30 + 20 + 0 = 50%, a third each.
    payouts = placing_payouts(D("100.00"), field([1, 2, 2, 2, 5]), DEFAULT_PAYOUT_PERCENTS)
    assert [p.amount for p in payouts] == [D("50.01"), D("16.67"), D("16.66"), D("16.66"), D("0.00")]
    assert sum(p.amount for p in payouts) == D("100.00")


def test_left_over_cents_go_from_the_best_place_down_shared_by_team_number():
    payouts = placing_payouts(D("10.00"), [Placed("b", 1, 7), Placed("a", 1, 3)], [D(100)])
    assert amounts(payouts) == [("T-1", "a", D("5.00")), ("T-1", "b", D("5.00"))]
    payouts = placing_payouts(D("0.01"), [Placed("b", 1, 7), Placed("a", 1, 3)], [D(100)])
    assert amounts(payouts) == [("T-1", "a", D("0.01")), ("T-1", "b", D("0.00"))]


def test_fewer_teams_than_paid_places_scale_the_covered_percentages_up():
    # Two teams, 50 and 30 covered: 50/80 and 30/80 of the pool.
    payouts = placing_payouts(D("80.00"), field([1, 2]), DEFAULT_PAYOUT_PERCENTS)
    assert [p.amount for p in payouts] == [D("50.00"), D("30.00")]
    payouts = placing_payouts(D("100.00"), field([1, 2]), DEFAULT_PAYOUT_PERCENTS)
    assert [p.amount for p in payouts] == [D("62.50"), D("37.50")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("50, 30, 10", "add up to 90%, not 100%"),
        ("50, 30, 30", "add up to 110%, not 100%"),
        ("30, 50, 20", "Place 2 would get more than place 1"),
        ("", "at least one paid place"),
        ("60, 40, 0", "more than 0%"),
        ("50, -30, 80", "from 0 to 100"),
        ("fifty", "percentage such as"),
    ],
)
def test_bad_percentages_are_refused_with_the_reason(text, message):
    with pytest.raises(ScoringError, match=message) as refused:
        payout_percents_parse(text)
    assert refused.value.field == "payout_percents"


def test_percentages_as_typed():
    assert payout_percents_parse("50%, 30 ,20") == (D(50), D(30), D(20))
    assert payout_percents_parse("33.34, 33.33, 33.33") == (D("33.34"), D("33.33"), D("33.33"))


@pytest.mark.parametrize(
    ("typed", "message"), [("-5", "negative"), ("12.345", "two decimals"), ("99999999", "more than"), ("x", "such as")]
)
def test_bad_amounts_are_refused(typed, message):
    with pytest.raises(ScoringError, match=message):
        amount_check(typed, field="entry_fee")


def test_amounts_are_kept_with_cents():
    assert str(amount_check("25", field="entry_fee")) == "25.00"
    assert [str(amount_check(typed, field="amount")) for typed in (" 25.5 ", ".5", "5.")] == ["25.50", "0.50", "5.00"]


@pytest.mark.parametrize("typed", ["٥٠", "５０", "1_000", "1E+3", "NaN", "Infinity", "+5", ".", "50\u200b", "$"])
def test_money_is_ascii_digits_with_an_optional_decimal_point_only(typed):
    """As every other number typed into the app: other digits, separators and exponents are refused."""
    with pytest.raises(ScoringError, match="such as 25"):
        amount_check(typed, field="amount")
    with pytest.raises(ScoringError, match="such as 10"):
        percent_check(typed)


@pytest.mark.parametrize(
    ("typed", "amount"),
    [("$100", "100.00"), (" $ 25.50", "25.50"), ("1,000", "1000.00"), ("$1,234.5", "1234.50"), ("2 500", "2500.00")],
)
def test_an_amount_is_taken_as_people_write_money(typed, amount):
    """A dollar sign before it, the thousands grouped by commas or spaces."""
    assert str(amount_check(typed, field="amount")) == amount


@pytest.mark.parametrize("typed", ["1,00", "1,0000", "10,000 000", ",100", "100$5", "$$5", "1.000,50", "1,000.5.0"])
def test_a_grouping_that_is_not_thousands_is_refused(typed):
    with pytest.raises(ScoringError, match="such as 25"):
        amount_check(typed, field="amount")


@pytest.mark.parametrize("typed", ["-$5", "$-5", "-1,000"])
def test_a_negative_amount_with_a_sign_or_commas_is_refused_by_name(typed):
    with pytest.raises(ScoringError, match="negative"):
        amount_check(typed, field="amount")


def test_a_percentage_takes_no_dollar_sign_nor_thousands():
    for typed in ("$10", "1,000"):
        with pytest.raises(ScoringError, match="such as 10"):
            percent_check(typed)


def test_side_pot_by_placing_places_its_teams_among_themselves():
    # Side-pot teams finished 2nd, 5th, 5th and 9th: among themselves 1, T-2, T-2, 4.
    placed = [Placed("w", 2, 4), Placed("x", 5, 8), Placed("y", 5, 2), Placed("z", 9, 1)]
    payouts = side_pot_payouts(
        D("40.00"), placed, rule=SidePotRule.PLACING, percents=DEFAULT_PAYOUT_PERCENTS, bostons={}
    )
    assert amounts(payouts) == [
        ("1", "w", D("20.00")),
        ("T-2", "y", D("10.00")),
        ("T-2", "x", D("10.00")),
        ("4", "z", D("0.00")),
    ]


def test_side_pot_by_bostons_is_proportional_to_the_bostons_made():
    placed = field([1, 2, 3, 4])
    payouts = side_pot_payouts(
        D("50.00"), placed, rule=SidePotRule.BOSTONS, percents=DEFAULT_PAYOUT_PERCENTS, bostons={2: 2, 4: 1}
    )
    assert [p.amount for p in payouts] == [D("0.00"), D("33.34"), D("0.00"), D("16.66")]


def test_side_pot_by_bostons_with_nobody_making_one_goes_to_the_best_placed():
    payouts = side_pot_payouts(
        D("30.00"), field([3, 3, 7]), rule=SidePotRule.BOSTONS, percents=DEFAULT_PAYOUT_PERCENTS, bostons={}
    )
    assert [p.amount for p in payouts] == [D("15.00"), D("15.00"), D("0.00")]


def test_nobody_placed_pays_nobody():
    assert placing_payouts(D("100.00"), [], DEFAULT_PAYOUT_PERCENTS) == []


@st.composite
def percent_lists(draw):
    """Percentages adding up to 100 that never rise: 100 cut at up to five points, largest first."""
    cuts = draw(st.lists(st.integers(1, 99), max_size=5, unique=True))
    bounds = [0, *sorted(cuts), 100]
    return sorted((D(high - low) for low, high in pairwise(bounds)), reverse=True)


@st.composite
def fields(draw):
    """Competition-ranked places (1, 2, 2, 4...) for 1 to 20 teams."""
    size = draw(st.integers(min_value=1, max_value=20))
    places = []
    for index in range(size):
        tie = places and draw(st.booleans())
        places.append(places[-1] if tie else index + 1)
    return field(places)


pools = st.integers(min_value=0, max_value=10_000_00).map(lambda cents: D(cents) / 100)


@given(pool=pools, placed=fields(), percents=percent_lists())
def test_properties_of_the_payouts(pool, placed, percents):
    payouts = placing_payouts(pool, placed, percents)
    assert sum(p.amount for p in payouts) == pool
    assert all(p.amount == p.amount.quantize(D("0.01")) and p.amount >= 0 for p in payouts)
    for better, worse in pairwise(payouts):
        assert better.amount >= worse.amount
    for place in {p.place for p in payouts}:
        shared = [p.amount for p in payouts if p.place == place]
        assert max(shared) - min(shared) <= D("0.01")


@given(fees=pools, house=st.integers(0, 10_000).map(lambda basis: D(basis) / 100), placed=fields())
def test_payouts_and_the_house_share_add_up_to_the_fees(fees, house, placed):
    payouts = placing_payouts(prize_pool(fees, house), placed, DEFAULT_PAYOUT_PERCENTS)
    assert sum(p.amount for p in payouts) + house_share(fees, house) == fees


@given(pot=pools, placed=fields(), made=st.lists(st.integers(0, 5), min_size=20, max_size=20))
def test_the_side_pot_by_bostons_is_paid_in_full(pot, placed, made):
    bostons = {team.key: made[index] for index, team in enumerate(placed)}
    payouts = side_pot_payouts(pot, placed, rule=SidePotRule.BOSTONS, percents=DEFAULT_PAYOUT_PERCENTS, bostons=bostons)
    assert sum(p.amount for p in payouts) == pot
    # More Bostons never get less, but for the left-over cent that goes to the better place.
    for one in payouts:
        for other in payouts:
            if bostons[one.key] > bostons[other.key]:
                assert one.amount >= other.amount - D("0.01")
