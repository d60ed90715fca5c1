import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.pairing import SWISS_BLOCK, Entrant, movement_draw, swiss_draw


def keys_of(draw):
    return sorted([k for table in draw.tables for k in table] + ([draw.bye] if draw.bye is not None else []))


def rematch_count(draw, met):
    return sum(frozenset(table) in met for table in draw.tables)


def perfect_matchings(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, partner in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *tail]


@st.composite
def small_fields(draw):
    size = draw(st.integers(2, 9))
    keys = list(range(1, size + 1))
    pairs = [frozenset(p) for p in itertools.combinations(keys, 2)]
    met = set(draw(st.lists(st.sampled_from(pairs), max_size=len(pairs)))) if pairs else set()
    had_bye = set(draw(st.lists(st.sampled_from(keys), max_size=size)))
    return [Entrant(k) for k in keys], met, had_bye


@given(small_fields())
@settings(max_examples=200)
def test_swiss_places_every_team_once_and_avoids_rematches_when_possible(field):
    ranked, met, had_bye = field
    draw = swiss_draw(ranked, met, had_bye)
    assert keys_of(draw) == [e.key for e in ranked]
    players = [e.key for e in ranked if e.key != draw.bye]
    possible = any(not any(frozenset(pair) in met for pair in matching) for matching in perfect_matchings(players))
    if possible:
        assert rematch_count(draw, met) == 0
    else:
        fewest = min(sum(frozenset(p) in met for p in m) for m in perfect_matchings(players))
        assert rematch_count(draw, met) == fewest


@given(small_fields())
def test_the_bye_goes_to_the_lowest_ranked_team_without_one(field):
    ranked, met, had_bye = field
    draw = swiss_draw(ranked, met, had_bye)
    if len(ranked) % 2 == 0:
        assert draw.bye is None
        return
    without = [e.key for e in ranked if e.key not in had_bye]
    assert draw.bye == (without[-1] if without else ranked[-1].key)


def test_byes_rotate_over_rounds():
    ranked = [Entrant(k) for k in range(1, 8)]
    had_bye, met = set(), set()
    for _ in range(7):
        draw = swiss_draw(ranked, met, had_bye)
        assert draw.bye not in had_bye
        had_bye.add(draw.bye)
        met |= {frozenset(t) for t in draw.tables}
    assert had_bye == set(range(1, 8))


def test_swiss_pairs_neighbours_in_the_standings():
    ranked = [Entrant(k) for k in range(1, 9)]
    assert swiss_draw(ranked, set()).tables == ((1, 2), (3, 4), (5, 6), (7, 8))
    met = {frozenset((1, 2))}
    assert swiss_draw(ranked, met).tables[0] in ((1, 3),)


def test_swiss_keeps_a_city_apart_when_asked():
    ranked = [Entrant(1, "Detroit"), Entrant(2, "Detroit"), Entrant(3, "Chicago"), Entrant(4, "Chicago")]
    assert swiss_draw(ranked, set()).tables == ((1, 2), (3, 4))
    apart = swiss_draw(ranked, set(), avoid_same_city=True)
    assert all(ranked[a - 1].city != ranked[b - 1].city for a, b in apart.tables)


def test_a_large_field_is_drawn_without_rematches():
    ranked = [Entrant(k) for k in range(1, 257)]
    met = set()
    for _ in range(5):
        draw = swiss_draw(ranked, met)
        assert rematch_count(draw, met) == 0
        met |= {frozenset(t) for t in draw.tables}


def test_a_field_larger_than_a_block_is_paired_block_by_block_of_neighbours():
    size = 2 * SWISS_BLOCK + 100
    ranked = [Entrant(k) for k in range(size)]
    met = {frozenset((k, k + 1)) for k in range(0, size, 2)}
    draw = swiss_draw(ranked, met)
    assert keys_of(draw) == list(range(size))
    assert rematch_count(draw, met) == 0
    # The last block takes the short remainder in: teams 256..611 form one block.
    assert all((a < SWISS_BLOCK) == (b < SWISS_BLOCK) for a, b in draw.tables)
    assert max(abs(a - b) for a, b in draw.tables) < 24


def test_a_block_that_cannot_avoid_a_rematch_is_drawn_with_the_whole_field(monkeypatch):
    block = 8
    monkeypatch.setattr("scoring.pairing.SWISS_BLOCK", block)
    ranked = [Entrant(k) for k in range(2 * block)]
    first_block_met_each_other = {frozenset(pair) for pair in itertools.combinations(range(block), 2)}
    draw = swiss_draw(ranked, first_block_met_each_other)
    assert rematch_count(draw, first_block_met_each_other) == 0
    assert all((a < block) != (b < block) for a, b in draw.tables)


def test_movement_sitters_stay_and_movers_advance_one_table():
    previous = [(1, 2), (3, 4), (5, 6), (7, 8)]
    ranked = [Entrant(k) for k in range(1, 9)]
    met = {frozenset(t) for t in previous}
    draw = movement_draw(previous, ranked, met)
    assert draw.tables == ((1, 8), (3, 2), (5, 4), (7, 6))


def test_movement_skips_a_table_whose_sitter_the_mover_already_met():
    previous = [(1, 2), (3, 4), (5, 6), (7, 8)]
    ranked = [Entrant(k) for k in range(1, 9)]
    met = {frozenset(t) for t in previous} | {frozenset((3, 2)), frozenset((5, 4))}
    draw = movement_draw(previous, ranked, met)
    assert rematch_count(draw, met) == 0
    assert [sitter for sitter, _ in draw.tables] == [1, 3, 5, 7]


def test_movement_takes_in_last_rounds_bye_and_fills_a_withdrawn_teams_place():
    previous = [(1, 2), (3, 4), (5, 6)]
    ranked = [Entrant(k) for k in (1, 2, 3, 5, 6, 7)]  # 4 withdrew, 7 had the bye
    draw = movement_draw(previous, ranked, {frozenset(t) for t in previous})
    assert keys_of(draw) == [1, 2, 3, 5, 6, 7] and draw.bye is None
    assert [sitter for sitter, _ in draw.tables] == [1, 3, 5]


@given(st.integers(2, 20), st.data())
def test_movement_places_every_team_once(size, data):
    keys = list(range(1, size + 1))
    previous_keys = data.draw(st.permutations(keys))
    previous = [(previous_keys[i], previous_keys[i + 1]) for i in range(0, size - 1, 2)]
    ranked = [Entrant(k) for k in keys]
    draw = movement_draw(previous, ranked, {frozenset(t) for t in previous})
    assert keys_of(draw) == keys
