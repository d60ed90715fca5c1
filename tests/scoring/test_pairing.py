import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.pairing import Entrant, random_draw

fields = st.lists(
    st.builds(Entrant, st.integers(1, 500), st.sampled_from(["", "Detroit", "Chicago", "Atlanta"])),
    min_size=2,
    max_size=40,
    unique_by=lambda entrant: entrant.key,
)


def conflicts(draw, cities):
    return sum(1 for a, b in draw.tables if cities[a] and cities[a] == cities[b])


@given(fields, st.integers(0, 10**9))
def test_every_team_is_drawn_exactly_once(entrants, seed):
    draw = random_draw(entrants, seed)
    placed = [key for table in draw.tables for key in table] + ([draw.bye] if draw.bye is not None else [])
    assert sorted(placed) == sorted(entrant.key for entrant in entrants)
    assert (draw.bye is not None) == (len(entrants) % 2 == 1)


@given(fields, st.integers(0, 10**9))
def test_the_same_seed_gives_the_same_draw_whatever_the_input_order(entrants, seed):
    assert random_draw(entrants, seed) == random_draw(list(reversed(entrants)), seed)


@given(fields, st.integers(0, 10**9))
def test_keeping_cities_apart_never_adds_a_same_city_table(entrants, seed):
    cities = {entrant.key: entrant.city for entrant in entrants}
    kept_apart = random_draw(entrants, seed)
    plain = random_draw(entrants, seed, avoid_same_city=False)
    assert conflicts(kept_apart, cities) <= conflicts(plain, cities)


def test_two_cities_of_four_teams_each_never_meet_themselves():
    entrants = [Entrant(i, "Detroit" if i < 4 else "Chicago") for i in range(8)]
    cities = {entrant.key: entrant.city for entrant in entrants}
    for seed in range(50):
        assert conflicts(random_draw(entrants, seed), cities) == 0


def test_different_seeds_give_different_draws():
    entrants = [Entrant(i) for i in range(16)]
    assert len({random_draw(entrants, seed) for seed in range(20)}) > 1


def test_a_team_cannot_enter_twice():
    with pytest.raises(ValueError):
        random_draw([Entrant(1), Entrant(1)], 0)
