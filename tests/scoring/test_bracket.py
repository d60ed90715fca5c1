import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.bracket import (
    FINAL,
    THIRD,
    Decided,
    Source,
    build,
    double_elimination,
    final_places,
    seed_order,
    single_elimination,
    stage_name,
)

SIZES = range(2, 65)


def seeds_in(bracket):
    return sorted(s.value for m in bracket.matches for s in (m.top, m.bottom) if s.kind == "seed")


def test_standard_seeding_for_eight():
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert [(m.top.value, m.bottom.value) for m in single_elimination(8).matches[:4]] == [
        (1, 8),
        (4, 5),
        (2, 7),
        (3, 6),
    ]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_top_seeds_are_spread_so_one_and_two_meet_only_in_the_final(size):
    order = seed_order(size)
    blocks = 2
    while blocks <= size:
        block = size // blocks
        quarter = {order.index(seed) // block for seed in range(1, blocks + 1)}
        assert len(quarter) == blocks, f"seeds 1..{blocks} must land in different {block}-slot sections"
        blocks *= 2


@pytest.mark.parametrize("teams", SIZES)
def test_single_elimination(teams):
    bracket = single_elimination(teams)
    size = bracket.size
    assert size >= teams > size // 2 or teams == size == 2
    assert len(bracket.matches) == teams - 1
    assert seeds_in(bracket) == list(range(1, teams + 1)), "each seed exactly once"
    byes = size - teams
    first_round = [m for m in bracket.matches if m.round == 1]
    in_first = {s.value for m in first_round for s in (m.top, m.bottom)}
    assert in_first.isdisjoint(range(1, byes + 1)), "the top seeds get the byes"
    for match in bracket.matches:
        for side in (match.top, match.bottom):
            if side.kind == "seed":
                assert match.round <= 2, "byes only in the first round: every seed plays by round 2"
                if match.round == 2:
                    assert side.value <= byes
    final = bracket.final
    assert final.round == size.bit_length() - 1
    halves = [set(), set()]
    order = seed_order(size)
    for index, seed in enumerate(order):
        halves[index * 2 // size].add(seed)
    assert (1 in halves[0]) != (2 in halves[0]), "1 and 2 can meet only in the final"


@pytest.mark.parametrize("teams", SIZES)
def test_single_elimination_with_a_third_place_match(teams):
    bracket = single_elimination(teams, third_place=True)
    # Both semifinals must be played: with three teams the top seed's bye leaves no third-place match.
    expected = teams - 1 + (1 if teams >= 4 else 0)
    assert len(bracket.matches) == expected and bracket.third_place == (teams >= 4)
    if teams >= 4:
        third = next(m for m in bracket.matches if m.code == "3P")
        semis = {m.code for m in bracket.matches if m.round == bracket.final.round - 1 and m.bracket == "winners"}
        assert {third.top.value, third.bottom.value} <= semis and third.top.kind == "loser"


@pytest.mark.parametrize("teams", SIZES)
def test_double_elimination(teams):
    bracket = double_elimination(teams)
    assert seeds_in(bracket) == list(range(1, teams + 1))
    always = [m for m in bracket.matches if not m.conditional]
    assert len(always) == 2 * teams - 2
    assert len(bracket.matches) == 2 * teams - 1
    reset = [m for m in bracket.matches if m.conditional]
    assert [m.code for m in reset] == ["GF2"] and reset[0].top == Source("winner", "GF")
    sources = [s for m in bracket.matches for s in (m.top, m.bottom)]
    codes = {m.code for m in bracket.matches}
    for source in sources:
        if source.kind in ("winner", "loser"):
            assert source.value in codes, "every side comes from a real match"
    losses = {}
    for source in sources:
        if source.kind == "loser":
            losses[source.value] = losses.get(source.value, 0) + 1
    assert all(count == 1 for count in losses.values()), "a loser drops into one place only"


@pytest.mark.parametrize("teams", SIZES)
def test_stages_follow_the_matches_they_wait_for(teams):
    for bracket in (single_elimination(teams, third_place=True), double_elimination(teams)):
        stage = {m.code: m.stage for m in bracket.matches}
        for match in bracket.matches:
            for side in (match.top, match.bottom):
                if side.kind in ("winner", "loser"):
                    assert stage[side.value] < match.stage


def test_build_and_source_text():
    assert build(4, double=True).double and not build(4).double
    assert Source.parse("seed:3") == Source("seed", 3) and str(Source("winner", "W1-1")) == "winner:W1-1"
    with pytest.raises(ValueError):
        build(1)


def play(bracket, *, upset: set[str] = frozenset()):
    """Decide every match: the better seed wins, except in the matches named in ``upset``."""
    results = {}

    def team(source):
        if source.kind == "seed":
            return source.value
        winner, loser = results[source.value]
        return winner if source.kind == "winner" else loser

    decided = []
    for match in sorted(bracket.matches, key=lambda m: m.stage):
        top, bottom = team(match.top), team(match.bottom)
        better, worse = sorted((top, bottom))
        winner, loser = (worse, better) if match.code in upset else (better, worse)
        if match.conditional and results["GF"][0] == team(bracket.match("GF").top):
            continue
        results[match.code] = (winner, loser)
        decided.append(Decided(match.code, match.bracket, match.round, match.stage, match.label, top, bottom, winner))
    return decided


def placed(bracket, **kwargs):
    places = final_places(play(bracket, **kwargs), seeds={seed: seed for seed in range(1, bracket.teams + 1)})
    return [(place.team, place.place.number, place.place.shared) for place in places]


def test_final_places_with_a_third_place_match():
    assert placed(build(8, third_place=True)) == [
        (1, 1, False),
        (2, 2, False),
        (3, 3, False),
        (4, 4, False),
        (5, 5, True),
        (6, 5, True),
        (7, 5, True),
        (8, 5, True),
    ]


def test_semifinal_losers_share_third_without_a_third_place_match():
    assert placed(build(6)) == [(1, 1, False), (2, 2, False), (3, 3, True), (4, 3, True), (5, 5, True), (6, 5, True)]


def test_five_seeds_the_semifinal_played_straight_from_the_byes_is_a_semifinal():
    """Seeds 2 and 3 meet in Semifinal 2 in the first sitting, beside the quarterfinal 4–5: its loser is a
    beaten semifinalist (T-3 with the other), not out with the beaten quarterfinalist."""
    bracket = build(5)
    semifinal = bracket.match("W2-2")
    assert (semifinal.label, semifinal.stage) == ("Semifinal 2", 1) and bracket.match("W1-2").stage == 1
    assert placed(bracket) == [(1, 1, False), (2, 2, False), (3, 3, True), (4, 3, True), (5, 5, False)]
    assert placed(build(5, third_place=True)) == [(team, team, False) for team in range(1, 6)]


def test_seven_seeds_the_beaten_quarterfinalists_share_fifth():
    assert placed(build(7))[4:] == [(5, 5, True), (6, 5, True), (7, 5, True)]


def eliminations(decided):
    """The match each team went out in (its last defeat), for the teams that played neither the final nor the
    third-place match."""
    in_finals = {team for m in decided if m.bracket in (FINAL, THIRD) for team in (m.top, m.bottom)}
    out = {}
    for match in sorted(decided, key=lambda m: m.stage):
        out[match.bottom if match.winner == match.top else match.top] = match
    return {team: match for team, match in out.items() if team not in in_finals}


def check_places(bracket, decided):
    """The placing rules every finished bracket keeps, whoever won each match."""
    places = final_places(decided, seeds={seed: seed for seed in range(1, bracket.teams + 1)})
    place = {p.team: p.place.number for p in places}
    assert sorted(place) == list(range(1, bracket.teams + 1)), "every team placed once"
    for index, p in enumerate(places):
        assert p.place.number == 1 + sum(1 for other in places if other.place < p.place), "places count the teams above"
        assert p.place.shared == (sum(1 for other in places if other.place == p.place) > 1)
        assert index == 0 or places[index - 1].place <= p.place
    last_final = max((m for m in decided if m.bracket == FINAL), key=lambda m: m.stage)
    runner_up = last_final.bottom if last_final.winner == last_final.top else last_final.top
    assert (place[last_final.winner], place[runner_up]) == (1, 2)
    third = [m for m in decided if m.bracket == THIRD]
    for match in third:
        loser = match.bottom if match.winner == match.top else match.top
        assert (place[match.winner], place[loser]) == (3, 4)
    out = eliminations(decided)
    assert all(place[team] > 2 + 2 * len(third) for team in out), "knocked out below the finals' teams"
    for team, match in out.items():
        for other, other_match in out.items():
            assert match.bracket == other_match.bracket, "a finished bracket knocks teams out in one bracket"
            if match.round == other_match.round:
                assert place[team] == place[other], f"{match.label} and {other_match.label} share a place"
            elif match.round > other_match.round:
                assert place[team] < place[other], f"out in {match.label}, above out in {other_match.label}"


BRACKETS = {
    "single": lambda teams: build(teams),
    "third place": lambda teams: build(teams, third_place=True),
    "double": lambda teams: build(teams, double=True),
}


@pytest.mark.parametrize("kind", BRACKETS)
@pytest.mark.parametrize("teams", range(3, 17))
def test_the_better_seeds_winning_teams_are_placed_by_the_round_they_went_out_in(teams, kind):
    """3 to 16 seeds, with byes (every size but 4, 8, 16) and without."""
    bracket = BRACKETS[kind](teams)
    check_places(bracket, play(bracket))


@given(st.integers(3, 16), st.sampled_from(sorted(BRACKETS)), st.data())
def test_teams_beaten_in_one_round_share_a_place_below_those_beaten_later(teams, kind, data):
    bracket = BRACKETS[kind](teams)
    upsets = data.draw(st.sets(st.sampled_from([m.code for m in bracket.matches])))
    check_places(bracket, play(bracket, upset=upsets))


def test_an_upset_final_puts_the_winner_first():
    final = next(m.code for m in build(4).matches if m.bracket == FINAL)
    assert placed(build(4), upset={final})[:2] == [(2, 1, False), (1, 2, False)]


def test_double_elimination_places_by_where_each_team_went_out():
    assert placed(build(4, double=True)) == [(1, 1, False), (2, 2, False), (3, 3, False), (4, 4, False)]
    places = placed(build(8, double=True))
    assert [team for team, _, _ in places[:2]] == [1, 2]
    assert [place for _, place, _ in places] == sorted(place for _, place, _ in places)
    assert {team for team, _, _ in places} == set(range(1, 9))


def test_a_played_reset_decides_first_and_second():
    bracket = build(4, double=True)
    assert placed(bracket, upset={"GF"})[:2] == [(1, 1, False), (2, 2, False)], "the winners' team wins the reset"
    assert placed(bracket, upset={"GF", "GF2"})[:2] == [(2, 1, False), (1, 2, False)]


@pytest.mark.parametrize("teams", [2, 3, 5, 8, 13, 16])
@pytest.mark.parametrize("double", [False, True])
def test_every_playoff_team_gets_one_place(teams, double):
    places = placed(build(teams, double=double))
    assert sorted(team for team, _, _ in places) == list(range(1, teams + 1))
    assert places[0][1:] == (1, False) and places[1][1:] == (2, False)


@pytest.mark.parametrize(
    ("label", "stage"),
    [("Semifinal 2", "Semifinal"), ("Losers' round 2, match 1", "Losers' round 2"), ("Final", "Final")],
)
def test_stage_names_drop_the_match_number(label, stage):
    assert stage_name(label) == stage
