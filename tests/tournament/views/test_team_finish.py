"""The team's own page (and its public page) once the team's part in the tournament is over: where it finished,
its prize, the champion called Champion, and nothing offered that no longer applies."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import round_published, text_of
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (fixture)
from tests.tournament.views.test_team import open_team
from tournament.models import Team
from tournament.services.events import tournament_create
from tournament.services.log import Actor
from tournament.services.money import money_settings_set, payment_record, payout_pay
from tournament.services.playoffs import playoff_publish, playoff_seed

OFFERS = ("Withdraw after this round", "We're here", "is out:", "Your sheet", "Sign for your team")


def _phones(tournament, numbers) -> dict[int, tuple[Client, str]]:
    """A phone for each team that opened its page (and saw it once, so a new table is announced after)."""
    phones = {}
    for team in Team.objects.filter(tournament=tournament, number__in=numbers):
        phone = Client()
        page = open_team(phone, team)
        phone.get(page)
        phones[team.number] = (phone, page)
    return phones


def _page(phones, number) -> str:
    phone, page = phones[number]
    return text_of(phone.get(page))


def test_a_final_played_beside_the_third_place_match_is_called_the_final(qualified, sheet):  # noqa: F811
    playoff_seed(tournament=qualified, teams=4, third_place=True)
    playoff_publish(tournament=qualified)
    phones = _phones(qualified, [1, 5])
    play(sheet, qualified, "W1-1", "NS")
    play(sheet, qualified, "W1-2", "NS")
    final, third = _page(phones, 1), _page(phones, 5)
    assert "Final is out: your team plays at table" in final and "Final · Table" in final
    assert "Third-place match is out" in third and "Third-place match · Table" in third
    assert "Final · Third-place match is out" not in final + third
    assert "Out in the semifinal" not in third, "a beaten semifinalist still plays for third"
    assert "Withdraw after this round" in final, "the finalists still play"


def test_a_team_knocked_out_while_others_play_is_told_so_and_offered_nothing(qualified, sheet):  # noqa: F811
    playoff_seed(tournament=qualified, teams=4)
    playoff_publish(tournament=qualified)
    Team.objects.filter(tournament=qualified, number__in=[2, 7]).update(checked_in=False)
    phones = _phones(qualified, [2, 7])
    play(sheet, qualified, "W1-1", "NS")  # 1 beats 7
    out = _page(phones, 7)
    assert "Out in the semifinal" in out and "Your team's final place is decided when the playoff ends." in out
    assert not [offer for offer in OFFERS if offer in out], out
    not_seeded = _page(phones, 2)
    assert "Did not reach the playoff" in not_seeded and "decided when the playoff ends" in not_seeded
    assert not [offer for offer in OFFERS if offer in not_seeded], not_seeded
    public = text_of(Client().get(reverse("public:team", args=[qualified.slug, 7])))
    assert "Out in the semifinal · the final place is decided when the playoff ends" in public


def test_a_page_opened_before_the_end_cannot_ask_the_desk_anything_after_it(qualified, sheet):  # noqa: F811
    playoff_seed(tournament=qualified, teams=2)
    playoff_publish(tournament=qualified)
    team = Team.objects.get(tournament=qualified, number=3)
    Team.objects.filter(pk=team.pk).update(checked_in=False)
    phone, _ = _phones(qualified, [3])[3]
    play(sheet, qualified, "W1-1", "NS")
    for action in ("team_withdraw", "team_here"):
        said = text_of(phone.post(reverse(action, args=[team.pk]), follow=True))
        assert "part in the tournament is over: there is nothing more to tell the desk" in said, action
    team.refresh_from_db()
    assert team.withdraw_requested_at is None and not team.checked_in


@pytest.fixture
def prizes(qualified, director):  # noqa: F811
    """The eight teams paid 50.00 each: a pool of 400.00 paid 50, 30, 20."""
    desk = Actor.staff(director)
    money_settings_set(
        tournament=qualified,
        entry_fee="50",
        side_pot_fee="0",
        house_percent="0",
        payout_percents="50, 30, 20",
        side_pot_rule="placing",
        actor=desk,
    )
    for team in Team.objects.filter(tournament=qualified):
        payment_record(team=team, amount="50", actor=desk)
    return desk


def test_after_the_final_each_page_shows_the_place_and_prize_and_the_champion_is_champion(
    qualified,  # noqa: F811
    sheet,
    prizes,
):
    playoff_seed(tournament=qualified, teams=4, third_place=True)
    playoff_publish(tournament=qualified)
    Team.objects.filter(tournament=qualified).update(checked_in=False)
    phones = _phones(qualified, [1, 3, 5, 7, 2])
    play(sheet, qualified, "W1-1", "NS")  # 1 beats 7
    play(sheet, qualified, "W1-2", "NS")  # 3 beats 5
    play(sheet, qualified, "W2-1", "NS")  # 1 beats 3: champion
    play(sheet, qualified, "3P", "EW")  # 5 beats 7: third
    champion = _page(phones, 1)
    assert "Champion" in champion and "Your team won Main Event." in champion
    assert "Your prize: 200.00 (Prize pool, place 1): collect it at the desk." in champion
    runner_up = _page(phones, 3)
    assert "Place 2" in runner_up and "Runner-up." in runner_up and "Champion" not in runner_up
    assert "Your prize: 120.00 (Prize pool, place 2)" in runner_up
    assert "Place 3" in _page(phones, 5) and "Your prize: 80.00" in _page(phones, 5)
    fourth = _page(phones, 7)
    assert "Place 4" in fourth and "Fourth place." in fourth and "Your prize" not in fourth
    assert "Place T-5" in _page(phones, 2) and "Qualifying (T-5 in the standings)" in _page(phones, 2)
    for number in phones:
        page = _page(phones, number)
        assert not [offer for offer in OFFERS if offer in page], (number, page)
    public = text_of(Client().get(reverse("public:team", args=[qualified.slug, 1])))
    assert "Champion of Main Event" in public
    assert "Place 4 in Main Event · Fourth place" in text_of(
        Client().get(reverse("public:team", args=[qualified.slug, 7]))
    )
    payout_pay(tournament=qualified, team=Team.objects.get(tournament=qualified, number=1), actor=prizes)
    paid = _page(phones, 1)
    assert "collect it at the desk" not in paid and "I received 200.00" in paid, "the prize handed over is confirmed"


def test_without_a_playoff_the_page_shows_the_standings_place_once_qualifying_is_signed(tournament, make_teams, sheet):
    tournament.qualifying_rounds = 1
    tournament.save()
    make_teams(tournament, 4)
    phones = _phones(tournament, [1, 2])
    tables = list(round_published(tournament, method="manual", pairs="1 2\n3 4").tables.order_by("number"))
    sheet.play(tables[0], "NS")
    waiting = _page(phones, 1)
    assert "Withdraw after this round" in waiting and "Place" not in waiting, "table 2 still plays"
    sheet.play(tables[1], "NS")
    first, last = _page(phones, 1), _page(phones, 2)
    assert "Place T-1" in first and "By the standings (no playoff). Main Event is over." in first
    assert "Place T-3" in last
    assert not [offer for offer in OFFERS if offer in first + last]


def test_the_page_after_the_event_costs_the_same_queries_at_8_and_64_teams(client, event, big_field):
    counts = []
    for size in (8, 64):
        tournament = tournament_create(event=event, name=f"Field of {size}", qualifying_rounds=1)
        team = big_field(tournament, size)[0]
        page = open_team(client, team)
        with CaptureQueriesContext(connection) as queries:
            shown = text_of(client.get(page))
        assert "Place " in shown and "By the standings (no playoff)" in shown, shown
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
