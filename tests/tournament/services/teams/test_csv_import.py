from pathlib import Path

import pytest

from tournament.errors import ImportRejected
from tournament.services.teams import PlayerEntry, team_register, teams_import_csv

GOOD = """player1,player1_city,player1_phone,player2,player2_city,team_name,team_number,fee_paid,side_pot,checked_in
Ann Lee,Detroit,555-0101,Bo Jones,Detroit,Motor City Aces,4,yes,no,yes
Cy Young,Chicago,,Dee Brooks,Chicago,,,no,yes,
"""


def test_a_good_file_registers_every_team(tournament):
    teams = teams_import_csv(tournament=tournament, text=GOOD)
    assert [team.number for team in teams] == [4, 5]
    aces, second = teams
    assert aces.display_name == "Motor City Aces" and aces.fee_paid and aces.checked_in and not aces.side_pot
    assert second.display_name == "Cy Young & Dee Brooks" and second.side_pot and not second.checked_in
    assert second.city == "Chicago"


def test_columns_may_come_in_any_order_with_a_spreadsheet_byte_order_mark(tournament):
    text = "\ufeffPlayer2 , Player1\nBo Jones,Ann Lee\n\n"
    (team,) = teams_import_csv(tournament=tournament, text=text)
    assert team.player_names == "Ann Lee & Bo Jones"


def problems_of(tournament, text):
    with pytest.raises(ImportRejected) as rejected:
        teams_import_csv(tournament=tournament, text=text)
    assert tournament.teams.count() == 0, "a rejected file imports nothing"
    return rejected.value.problems


def test_a_bad_file_is_reported_line_by_line_and_imports_nothing(tournament):
    text = """player1,player2,fee_paid,team_number
Ann Lee,Bo Jones,yes,1
,Cy Young,no,2
Dee Brooks,Eve Carter,maybe,3
Fay Dunn,Gus Hill,no,three
"""
    assert problems_of(tournament, text) == [
        (3, "Each team needs two players' names."),
        (4, "The fee_paid column must be yes or no, not 'maybe'."),
        (5, "The team number must be a whole number, not 'three'."),
    ]


def test_duplicate_rows_are_refused_with_both_lines(tournament):
    text = """player1,player2,team_number
Ann Lee,Bo Jones,1
Cy Young,Ann Lee,2
Dee Brooks,Eve Carter,1
"""
    assert problems_of(tournament, text) == [
        (3, "Ann Lee is also on the team on line 2."),
        (4, "Team number 1 is also on line 2."),
    ]


def test_a_player_already_registered_is_refused(tournament):
    team_register(tournament=tournament, players=[PlayerEntry("Ann Lee"), PlayerEntry("Bo Jones")])
    with pytest.raises(ImportRejected) as rejected:
        teams_import_csv(tournament=tournament, text="player1,player2\nCy Young,Ann Lee\n")
    assert rejected.value.problems == [(2, "Ann Lee already plays on team #1 in this tournament.")]
    assert tournament.teams.count() == 1


def test_every_problem_of_a_line_is_listed_each_as_a_sentence(tournament):
    team_register(tournament=tournament, players=[PlayerEntry("Ann Lee"), PlayerEntry("Bo Jones")], number=1)
    text = "player1,player2,team_number,fee_paid\nAnn Lee,Bo Jones,1,maybe\nCy Young,Dee Brooks,1,\n"
    with pytest.raises(ImportRejected) as rejected:
        teams_import_csv(tournament=tournament, text=text)
    assert rejected.value.problems == [
        (2, "The fee_paid column must be yes or no, not 'maybe'."),
        (2, "Team number 1 is taken in this tournament."),
        (2, "Ann Lee already plays on team #1 in this tournament."),
        (2, "Bo Jones already plays on team #1 in this tournament."),
        (3, "Team number 1 is also on line 2."),
    ]
    assert all(problem[0].isupper() and problem.endswith(".") for _, problem in rejected.value.problems)
    assert tournament.teams.count() == 1


def test_unknown_and_missing_columns_are_reported_on_line_one(tournament):
    assert problems_of(tournament, "name,partner\nAnn,Bo\n") == [
        (1, "Unknown column(s): name, partner."),
        (1, "Missing required column(s): player1, player2."),
    ]


def test_an_empty_file_or_one_without_teams(tournament):
    assert problems_of(tournament, "") == [(1, "The file is empty: the first line must name the columns.")]
    assert problems_of(tournament, "player1,player2\n") == [(2, "The file names the columns but has no teams.")]


def test_a_line_with_too_many_values(tournament):
    assert problems_of(tournament, "player1,player2\nAnn,Bo,Cy\n") == [
        (2, "The line has more values than the header has columns.")
    ]


FIXTURES = Path(__file__).resolve().parents[4] / "fixtures"


def test_the_sample_file_of_sixteen_teams_imports(tournament):
    teams = teams_import_csv(tournament=tournament, text=(FIXTURES / "teams-16.csv").read_text(encoding="utf-8"))
    assert [team.number for team in teams] == list(range(1, 17))
    assert tournament.teams.filter(checked_in=True).count() == 14
    assert tournament.teams.get(number=9).city == "Detroit", "the team's own city when its players' differ"
    assert tournament.teams.get(number=10).fee_paid and not tournament.teams.get(number=10).side_pot


def test_the_sample_file_of_refusals_reports_each_line(tournament):
    """fixtures/teams-refused.csv holds one line for each refusal docs/teams-csv.md lists."""
    teams_import_csv(tournament=tournament, text=(FIXTURES / "teams-16.csv").read_text(encoding="utf-8"))
    with pytest.raises(ImportRejected) as rejected:
        teams_import_csv(tournament=tournament, text=(FIXTURES / "teams-refused.csv").read_text(encoding="utf-8"))
    problems = dict(rejected.value.problems)
    assert problems == {
        2: "Each team needs two players' names.",
        3: "A team is two different players.",
        4: "Ann Lee already plays on team #1 in this tournament.",
        6: "Rita Moss is also on the team on line 5.",
        7: "Team number 3 is taken in this tournament.",
        9: "Team number 41 is also on line 8.",
        10: "The fee_paid column must be yes or no, not 'maybe'.",
        11: "The line has more values than the header has columns.",
    }
    assert tournament.teams.count() == 16, "nothing of the refused file is registered"


def test_a_column_named_twice_is_refused(tournament):
    assert problems_of(tournament, "player1,player2,Player1\nAnn,Bo,Cy\n") == [
        (1, "Column(s) named twice: player1: which one holds the value?")
    ]
    assert not tournament.teams.exists()


# Overrides, an isolate, BEL and ESC, a zero-width space, a byte order mark, a right-to-left mark, a soft hyphen.
HIDDEN = ["\u202e", "\u202d", "\u2067", "\x07", "\x1b", "\u200b", "\ufeff", "\u200f", "\u00ad"]


@pytest.mark.parametrize("hidden", HIDDEN)
def test_names_that_hide_or_reverse_text_are_refused(tournament, hidden):
    problems = problems_of(tournament, f"player1,player2,team_name\nAnn,Bo{hidden}b,Aces\nCy,Dee,{hidden}Kings\n")
    assert [line for line, _ in problems] == [2, 3]
    assert all("character" in problem for _, problem in problems)
    assert not tournament.teams.exists()
