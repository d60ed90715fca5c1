from hypothesis import given
from hypothesis import strategies as st

from scoring.seeding import seeded_draw, strength_order


def test_the_stronger_half_meets_the_weaker_half_first_against_first():
    draw = seeded_draw(["a", "b", "c", "d", "e", "f", "g", "h"])
    assert draw.tables == (("a", "e"), ("b", "f"), ("c", "g"), ("d", "h")) and draw.bye is None


def test_an_odd_field_gives_the_bye_to_the_last():
    assert seeded_draw([1, 2, 3]).tables == ((1, 2),) and seeded_draw([1, 2, 3]).bye == 3


def test_unrated_teams_come_last_in_the_order_given():
    assert strength_order([1, 2, 3, 4], {2: 1600.0, 4: 1700.0}) == [4, 2, 1, 3]


@given(st.lists(st.integers(), unique=True, max_size=40))
def test_every_team_plays_once_or_has_the_bye(keys):
    draw = seeded_draw(keys)
    seated = [key for table in draw.tables for key in table] + ([draw.bye] if draw.bye is not None else [])
    assert sorted(seated) == sorted(keys)
