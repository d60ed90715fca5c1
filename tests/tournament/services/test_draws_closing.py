"""Closing qualifying in one step before the playoff: every open qualifying round, each logged, or none."""

import pytest

from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import LogEntry, Round
from tournament.services.draws import qualifying_rounds_close, round_close


@pytest.fixture
def three_played(tournament, make_teams, sheet):
    """Three qualifying rounds of four teams, every sheet signed but round 3's table 2."""
    tournament.qualifying_rounds = 3
    tournament.save()
    make_teams(tournament, 4)
    rounds = []
    for number in (1, 2, 3):
        round_ = round_published(tournament, method="random" if number == 1 else "swiss", seed=number)
        for table in round_.tables.order_by("number"):
            if (number, table.number) != (3, 2):
                sheet.play(table)
        rounds.append(round_)
    return rounds


def test_every_open_qualifying_round_closes_at_once_each_logged(tournament, three_played, sheet, staff):
    with pytest.raises(ServiceError, match="Round 3 cannot close: table 2 has not signed"):
        qualifying_rounds_close(tournament=tournament, actor=staff)
    assert not tournament.rounds.filter(status=Round.Status.CLOSED).exists(), "nothing half-written"
    sheet.play(three_played[2].tables.get(number=2))
    round_close(round=three_played[0])
    closed = qualifying_rounds_close(tournament=tournament, actor=staff)
    assert [round_.number for round_ in closed] == [2, 3], "round 1 was closed already"
    assert set(tournament.rounds.values_list("status", flat=True)) == {Round.Status.CLOSED}
    logged = LogEntry.objects.filter(action=LogEntry.Action.ROUND_CLOSED, actor_name="director")
    assert sorted(entry.summary for entry in logged) == ["Round 2 closed", "Round 3 closed"]
    with pytest.raises(ServiceError, match="No qualifying round is open"):
        qualifying_rounds_close(tournament=tournament, actor=staff)
