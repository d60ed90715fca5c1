"""The final placings once a tournament is over (a tournament without a playoff by its standings), and where each
team's part in it ended while the playoff goes on."""

from django.test import Client
from django.urls import reverse

from tests.conftest import round_published, text_of
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (fixture)
from tournament.models import Team
from tournament.selectors.money import payout_sheet
from tournament.selectors.placings import team_finish, tournament_placings
from tournament.services.playoffs import playoff_publish, playoff_seed


def test_a_tournament_without_a_playoff_is_placed_by_its_standings_once_every_qualifying_round_is_signed(
    tournament, make_teams, sheet
):
    tournament.qualifying_rounds = 2
    tournament.save()
    make_teams(tournament, 4)
    for pairs in ("1 2\n3 4", "1 3\n2 4"):
        assert tournament_placings(tournament) is None, "qualifying is not over"
        for table in round_published(tournament, method="manual", pairs=pairs).tables.all():
            sheet.play(table, "NS")
    placings = tournament_placings(tournament)
    assert [(str(p.place), p.team.number) for p in placings] == [("1", 1), ("T-2", 2), ("T-2", 3), ("4", 4)]
    assert payout_sheet(tournament).final, "the prizes are paid by the same placings"
    projector = text_of(Client().get(reverse("public:projector", args=[tournament.slug])))
    assert "Main Event: final placings" in projector and "By the standings (no playoff)" in projector
    playoff_seed(tournament=tournament, teams=2)
    assert tournament_placings(tournament) is None, "once a playoff is seeded, it places the field"


def test_in_double_elimination_a_team_is_out_after_its_second_loss(qualified, sheet):  # noqa: F811
    playoff_seed(tournament=qualified, teams=4, double=True)
    playoff_publish(tournament=qualified)
    team = {t.number: t for t in Team.objects.filter(tournament=qualified).select_related("tournament")}
    play(sheet, qualified, "W1-1", "NS")  # 1 beats 7: 7 drops to the losers' bracket
    assert team_finish(team[7]) is None
    play(sheet, qualified, "W1-2", "NS")  # 3 beats 5
    play(sheet, qualified, "L1-1", "EW")  # 5 beats 7: 7 is out
    assert team_finish(team[7]).out == "Out in the losers' round 1" and team_finish(team[7]).placing is None
    assert team_finish(team[5]) is None and team_finish(team[1]) is None
    assert team_finish(team[2]).out == "Did not reach the playoff"
