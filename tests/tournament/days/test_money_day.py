"""A 16-team tournament's money from the desk to the prize-giving: fees, a side pot, a refund, the payout sheet
checked against RULES.md worked out here independently, two winners confirming on their phones, the desk
balanced, and the archive round trip byte-identical."""

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.conftest import round_published
from tests.tournament.services.archive.test_schema import export_text
from tests.tournament.services.test_playoffs import play
from tournament.models import Event, Payout
from tournament.selectors.money import payout_sheet
from tournament.selectors.placings import tournament_placings
from tournament.services.money import money_settings_set, payment_record, refund_record
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.teams import team_desk_update

PERCENTS = [45, 25, 15, 10, 5]
SIDE_POT_TEAMS = (1, 5, 6, 9, 16)


def by_the_rules(pool_cents: int, placings: list[tuple[int, int]]) -> dict[int, int]:
    """RULES.md, Money, read literally: ``placings`` as (place, team number) best first; cents per team."""
    placings = sorted(placings)
    paid = PERCENTS[: len(placings)]
    scale = sum(paid)
    exact = {}
    for place, number in placings:
        sharing = [n for p, n in placings if p == place]
        covered = sum(paid[place - 1 : place - 1 + len(sharing)])
        exact[number] = (pool_cents * covered, scale * len(sharing))
    cents = {number: top // bottom for number, (top, bottom) in exact.items()}
    left = pool_cents - sum(cents.values())
    for _, number in placings:
        if left and exact[number][0] > 0:
            cents[number] += 1
            left -= 1
    return cents


@pytest.fixture
def day(tournament, make_teams, sheet, director):
    """16 teams at 40.00 (house 7.5%), five in a 10.00 side pot; one round, then a playoff of eight. Team 16
    leaves after round 1 and gets half its fee back; its side-pot fee is kept."""
    from tournament.services.log import Actor

    desk = Actor.staff(director)
    tournament.qualifying_rounds = 1
    tournament.save()
    money_settings_set(
        tournament=tournament,
        entry_fee="40",
        side_pot_fee="10",
        house_percent="7.5",
        payout_percents="45, 25, 15, 10, 5",
        side_pot_rule="placing",
        actor=desk,
    )
    teams = make_teams(tournament, 16)
    for team in teams:
        payment_record(team=team, amount="40", method="card" if team.number % 4 == 0 else "cash", actor=desk)
        if team.number in SIDE_POT_TEAMS:
            team_desk_update(team=team, side_pot=True, actor=desk)
            payment_record(team=team, amount="10", pot="side_pot", actor=desk)
    pairs = "\n".join(f"{n} {n + 1}" for n in range(1, 17, 2))
    round_ = round_published(tournament, method="manual", pairs=pairs)
    for table in round_.tables.order_by("number"):
        sheet.play(table, "NS")
    team_desk_update(team=teams[15], withdrawn=True, actor=desk)
    refund_record(team=teams[15], amount="20", reason="Left after round 1: half the fee back", actor=desk)
    playoff_seed(tournament=tournament, teams=8)
    playoff_publish(tournament=tournament)
    for code in ("W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1"):
        play(sheet, tournament, code, "NS")
    tournament.refresh_from_db()
    return tournament


def test_a_16_team_day_ends_with_the_payout_sheet_of_the_rules_to_the_cent(day, director_client, tmp_path):
    sheet = payout_sheet(day)
    assert sheet.final
    # Fees: 16 × 40.00 − 20.00 refunded = 620.00; house 7.5% = 46.50; pool 573.50. Side pot 5 × 10.00.
    assert (sheet.entry_net, sheet.house, sheet.pool, sheet.side_pot) == (
        Decimal("620.00"),
        Decimal("46.50"),
        Decimal("573.50"),
        Decimal("50.00"),
    )
    placings = [(p.place.number, p.team.number) for p in tournament_placings(day)]
    expected = {n: c for n, c in by_the_rules(57350, placings).items() if c}
    assert {line.team.number: int(line.amount * 100) for line in sheet.prizes} == expected
    # Champion 45% = 258.075, runner-up 143.375, T-3 12.5% each = 71.6875, T-5 1.25% each = 7.16875;
    # rounded down that leaves 6 cents: to 1st, 2nd, both T-3 and the first two T-5 by team number.
    assert [(str(line.place), line.team.number, str(line.amount)) for line in sheet.prizes] == [
        ("1", 1, "258.08"),
        ("2", 3, "143.38"),
        ("T-3", 5, "71.69"),
        ("T-3", 7, "71.69"),
        ("T-5", 9, "7.17"),
        ("T-5", 11, "7.17"),
        ("T-5", 13, "7.16"),
        ("T-5", 15, "7.16"),
    ]
    side = [(p, n) for p, n in placings if n in SIDE_POT_TEAMS]
    among = [(1 + sum(1 for q, _ in side if q < p), n) for p, n in side]
    assert {line.team.number: int(line.amount * 100) for line in sheet.side_prizes} == by_the_rules(5000, among)
    assert [(str(line.place), line.team.number, str(line.amount)) for line in sheet.side_prizes] == [
        ("1", 1, "22.50"),
        ("2", 5, "12.50"),
        ("3", 9, "7.50"),
        ("T-4", 6, "3.75"),
        ("T-4", 16, "3.75"),
    ]

    for line in sheet.lines:
        response = director_client.post(
            reverse("director:payout_pay", args=[day.slug]), {"team": line.team.number, "pot": line.pot}
        )
        assert response.status_code == 302
    assert Payout.objects.count() == 13
    for number in (1, 3):
        phone = Client(HTTP_USER_AGENT="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)")
        team = day.teams.get(number=number)
        page = phone.post(reverse("team_open"), {"code": team.code})["Location"]
        payout = Payout.objects.get(team=team, pot="entry")
        phone.post(reverse("team_payout_confirm", args=[team.pk, payout.pk]), {"code": team.code})
        assert "Receipt confirmed" in phone.get(page).content.decode()
    assert Payout.objects.filter(confirmed_at__isnull=False).count() == 2

    balanced = payout_sheet(day)
    # Fees in (640.00 + 50.00) = payouts (573.50 + 50.00) + house 46.50 + refunds 20.00.
    assert balanced.desk.received == Decimal("690.00")
    assert balanced.desk.received == balanced.paid_out + balanced.house + balanced.desk.refunded
    assert balanced.balanced and not balanced.differences
    assert "Balanced" in director_client.get(reverse("director:payouts", args=[day.slug])).content.decode()

    first = export_text(day.event)
    path = tmp_path / "event.json"
    path.write_text(first, encoding="utf-8")
    day.event.delete()
    call_command("import_event", str(path), stdout=io.StringIO())
    assert export_text(Event.objects.get()) == first
    assert payout_sheet(Event.objects.get().tournaments.get()).balanced
