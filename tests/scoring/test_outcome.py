"""What a table and a team's round came to (RULES.md: Absent teams and substitutes, "Credited rounds read the same
everywhere"), decided once for every surface."""

from hypothesis import given
from hypothesis import strategies as st

from scoring import Absent, Credit, Pair, Result, TableOutcome, team_outcome

NS, EW = Pair.NORTH_SOUTH, Pair.EAST_WEST


def played(ns: int, ew: int, *, signed: bool = True, complete: bool = True, **more) -> TableOutcome:
    return TableOutcome(ns, ew, complete, signed, **more)


def forfeit(absent: Absent) -> TableOutcome:
    """A forfeit is locked when declared, with no hand: 0–0 as stored."""
    return TableOutcome(0, 0, True, True, absent)


def test_a_signed_table_is_won_lost_or_tied_with_its_totals():
    assert team_outcome(played(12, 4), NS).line == "won 12–4"
    assert team_outcome(played(12, 4), EW).line == "lost 4–12"
    tie = team_outcome(played(5, 5), EW)
    assert (tie.result, tie.points_for, tie.points_against, tie.counted) == (Result.TIED, 5, 5, True)


def test_a_table_not_signed_is_in_play_and_not_counted():
    unsigned = team_outcome(played(9, 3, signed=False), NS)
    assert (unsigned.result, unsigned.counted, unsigned.line) == (Result.PLAYING, False, "in play 9–3")


def test_a_forfeit_is_won_by_the_team_there_with_the_credit_and_lost_by_the_absent_with_nothing():
    table = forfeit(Absent.EAST_WEST)
    present, absent = team_outcome(table, NS, credit=Credit(7)), team_outcome(table, EW, credit=Credit(7))
    assert (present.result, present.points_for, present.points_against) == (Result.WON_BY_FORFEIT, 7, 0)
    assert present.line == "won by forfeit, 7 points"
    assert (absent.result, absent.points_for, absent.points_against) == (Result.LOST_ABSENT, 0, 0)
    assert absent.line == "lost: absent, 0 points"
    assert table.winner == NS and table.score == "Forfeit"
    assert table.words == "Forfeit: East–West absent; North–South score the round as a bye"


def test_a_credit_before_the_round_is_complete_counts_at_once_marked_provisional():
    """The present team's win shows as soon as the absent team's loss does; its points can still move."""
    table = forfeit(Absent.NORTH_SOUTH)
    waiting, absent = team_outcome(table, EW, credit=Credit(6, provisional=True)), team_outcome(table, NS)
    assert (waiting.result, waiting.points_for, waiting.counted, waiting.provisional) == (
        Result.WON_BY_FORFEIT,
        6,
        True,
        True,
    )
    assert waiting.line == "won by forfeit, 6 points (provisional)"
    assert absent.line == "lost: absent, 0 points" and not absent.provisional
    bye = team_outcome(None, None, credit=Credit(0, provisional=True))
    assert (bye.result, bye.counted, bye.line) == (Result.BYE, True, "bye, 0 points (provisional)")
    assert team_outcome(None, None, credit=Credit(0)).line == "bye, 0 points", "a bye scored as a win only"


def test_a_round_not_out_credits_nothing_yet():
    draft = team_outcome(None, None)
    assert (draft.result, draft.counted, draft.line) == (Result.BYE, False, "bye, credited once the round is out")


def test_both_absent_both_lose_and_nobody_wins():
    table = forfeit(Absent.BOTH)
    assert table.winner is None and table.words == "Forfeit: Both teams absent; both teams lose the round"
    for pair in (NS, EW):
        assert team_outcome(table, pair, credit=Credit(9)).result == Result.LOST_ABSENT


def test_time_called_is_said_and_the_hands_played_decide():
    table = played(6, 2, time_called_after=3)
    assert table.words == "Time called after hand 3" and team_outcome(table, NS).result == Result.WON


@given(
    ns=st.integers(0, 60),
    ew=st.integers(0, 60),
    signed=st.booleans(),
    absent=st.sampled_from([None, *Absent]),
    credit=st.one_of(st.none(), st.builds(Credit, st.integers(0, 30), st.booleans())),
)
def test_the_two_sides_of_a_table_always_agree(ns, ew, signed, absent, credit):
    table = forfeit(absent) if absent else played(ns, ew, signed=signed)
    north, east = team_outcome(table, NS, credit=credit), team_outcome(table, EW, credit=credit)
    assert not (north.result.won and east.result.won), "never two winners"
    assert north.points_for >= 0 and east.points_for >= 0
    if absent is None:
        assert (north.points_for, north.points_against) == (east.points_against, east.points_for)
        assert north.result.won == east.result.lost, "a played table's winner is the other's loser"
    else:
        assert north.points_against == east.points_against == 0, "a credit is never points against"
        assert (north.result.won or east.result.won) == (absent is not Absent.BOTH)
