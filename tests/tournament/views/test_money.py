"""The money pages: directors only, the desk's totals, the payout sheet and its PDF and exports, prizes confirmed
on the winning teams' phones; money never on a public page, the projector or the API."""

import csv
import io
from decimal import Decimal

import pytest
from django.urls import reverse

from tests.conftest import text_of
from tests.tournament.services.test_money import finished, settings  # noqa: F401 (fixture)
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (fixture)
from tournament.models import LogEntry, Payment, Payout
from tournament.services.money import payment_record
from tournament.services.teams import team_desk_update

D = Decimal


def money_pages(tournament):
    slug = tournament.slug
    return [
        ("get", reverse("director:money_settings", args=[slug]), {}),
        ("get", reverse("director:payouts", args=[slug]), {}),
        ("get", reverse("director:payouts_pdf", args=[slug]), {}),
        ("get", reverse("director:payouts_export", args=[slug, "csv"]), {}),
        ("post", reverse("director:payment_add", args=[slug, 1]), {"amount": "100", "method": "cash", "pot": "entry"}),
        ("post", reverse("director:refund_add", args=[slug, 1]), {"amount": "1", "pot": "entry", "reason": "x"}),
        ("get", f"{reverse('director:payout_pay', args=[slug])}?team=1&pot=entry", {}),
        ("post", reverse("director:payout_pay", args=[slug]), {"team": "1", "pot": "entry"}),
        ("post", reverse("director:payout_confirm", args=[slug, 1]), {"signed_by": "Player 0a"}),
        ("post", reverse("director:payout_undo", args=[slug, 1]), {"reason": "x"}),
        ("post", reverse("director:payment_void", args=[slug, 1, 1]), {"reason": "x"}),
        ("post", reverse("director:payment_move", args=[slug, 1, 1]), {"team": "2", "pot": "entry", "reason": "x"}),
    ]


def test_money_pages_refuse_everyone_but_directors(client, tournament, make_teams, scorekeeper, player_user):
    make_teams(tournament, 2)
    for method, url, data in money_pages(tournament):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302 and "/login/" in response["Location"], url
    for user in (scorekeeper, player_user):
        client.force_login(user)
        for method, url, data in money_pages(tournament):
            assert getattr(client, method)(url, data).status_code == 403, (user, url)
    assert not Payment.objects.exists()


def test_corrections_refuse_everyone_but_directors(client, tournament, make_teams, scorekeeper):
    settings(tournament)
    one, _ = make_teams(tournament, 2)
    payment = payment_record(team=one, amount="100")
    slug = tournament.slug
    corrections = [
        (reverse("director:payment_void", args=[slug, 1, payment.pk]), {"reason": "x"}),
        (reverse("director:payment_move", args=[slug, 1, payment.pk]), {"team": "2", "pot": "entry", "reason": "x"}),
    ]
    for url, data in corrections:
        assert client.post(url, data).status_code == 302 and not Payment.objects.filter(voided_at__isnull=False)
    client.force_login(scorekeeper)
    for url, data in corrections:
        assert client.post(url, data).status_code == 403
    assert Payment.objects.get().voided_at is None


def test_money_settings_refused_beside_the_field(director_client, tournament):
    url = reverse("director:money_settings", args=[tournament.slug])
    data = {
        "entry_fee": "100",
        "side_pot_fee": "20",
        "house_percent": "0",
        "payout_percents": "50, 30, 30",
        "side_pot_rule": "placing",
    }
    response = director_client.post(url, data)
    assert response.status_code == 200
    assert "The percentages add up to 110%, not 100%." in text_of(response)
    assert response.context["form"].errors["payout_percents"]
    tournament.refresh_from_db()
    assert tournament.entry_fee == 0
    response = director_client.post(url, {**data, "payout_percents": "50, 30, 20", "entry_fee": "$1,000"})
    assert response.status_code == 302, "a dollar sign and a thousands comma, as money is written"
    tournament.refresh_from_db()
    assert tournament.entry_fee == D(1000)


def test_the_desk_records_payments_and_shows_its_totals(director_client, tournament, make_teams):
    settings(tournament)
    _, two = make_teams(tournament, 2)
    team_desk_update(team=two, side_pot=True)
    desk = reverse("director:desk", args=[tournament.slug])
    pay = reverse("director:payment_add", args=[tournament.slug, 2])
    response = director_client.post(pay, {"amount": "$100", "method": "card", "pot": "entry"})
    assert response.status_code == 302 and response["Location"].endswith("#team-2")
    director_client.post(pay, {"amount": "-5", "method": "cash", "pot": "owed"})
    page = text_of(director_client.get(desk))
    assert "An amount cannot be negative." in page
    assert "Received 100.00" in page and "Expected 220.00" in page and "Outstanding 120.00" in page
    assert "Paid 100.00 of 100.00 · side pot 0.00 of 20.00 (card) · owes 20.00" in page
    assert "Side-pot entrants 1" in page
    refund = reverse("director:refund_add", args=[tournament.slug, 2])
    director_client.post(refund, {"amount": "100.01", "pot": "entry", "method": "cash", "reason": "Overpaid"})
    assert "a refund cannot be more" in text_of(director_client.get(desk))
    director_client.post(refund, {"amount": "20", "pot": "entry", "method": "cash", "reason": "Overpaid"})
    assert Payment.objects.filter(kind="refund").get().reason == "Overpaid"
    assert "Received 100.00 (20.00 refunded)" in text_of(director_client.get(desk))


def test_the_payout_sheet_is_a_marked_preview_until_the_placings_are_final(director_client, finished, sheet):  # noqa: F811
    url = reverse("director:payouts", args=[finished.slug])
    page = text_of(director_client.get(url))
    assert "Preview: the placings are not final yet" in page
    assert "Pay " not in page
    director_client.post(reverse("director:payout_pay", args=[finished.slug]), {"team": "1", "pot": "entry"})
    assert not Payout.objects.exists()
    play(sheet, finished, "3P", "EW")
    page = text_of(director_client.get(url))
    assert "Preview" not in page
    assert "Pay 360.00" in page and "Pay 216.00" in page and "Pay 144.00" in page
    assert "House's share 80.00" in page and "Prize pool 720.00" in page


def open_team_page(client, team):
    response = client.post(reverse("team_open"), {"code": team.code})
    assert response.status_code == 302
    return response["Location"]


def test_two_winners_confirm_on_their_phones_and_the_desk_balances(client, director_client, finished, sheet):  # noqa: F811
    from django.test import Client

    play(sheet, finished, "3P", "EW")
    url = reverse("director:payouts", args=[finished.slug])
    for number, pot in (
        (1, "entry"),
        (3, "entry"),
        (5, "entry"),
        (1, "side_pot"),
        (5, "side_pot"),
        (2, "side_pot"),
        (6, "side_pot"),
    ):
        director_client.post(reverse("director:payout_pay", args=[finished.slug]), {"team": str(number), "pot": pot})
    assert Payout.objects.count() == 7
    for number in (1, 3):
        phone = Client()
        team = finished.teams.get(number=number)
        page = open_team_page(phone, team)
        shown = text_of(phone.get(page))
        assert "Your prize" in shown
        payout = Payout.objects.get(team=team, pot="entry")
        confirm = reverse("team_payout_confirm", args=[team.pk, payout.pk])
        phone.post(confirm, {"code": finished.teams.get(number=8).code})
        assert "not team" in text_of(phone.get(page))
        phone.post(confirm, {"code": team.code})
        payout.refresh_from_db()
        assert payout.confirmed_at is not None and payout.confirmed_on.startswith("on ")
        assert "Receipt confirmed" in text_of(phone.get(page))
    confirmations = LogEntry.objects.filter(action=LogEntry.Action.PAYOUT_CONFIRMED)
    assert [entry.actor for entry in confirmations] == ["team", "team"]
    page = text_of(director_client.get(url))
    assert "Balanced" in page and "The desk should hold 80.00 Of which the house's share 80.00" in page


def test_a_team_cannot_confirm_another_teams_prize(client, finished, sheet):  # noqa: F811
    play(sheet, finished, "3P", "EW")
    from tournament.services.money import payout_pay

    prize = payout_pay(tournament=finished, team=finished.teams.get(number=1))
    loser = finished.teams.get(number=8)
    open_team_page(client, loser)
    response = client.post(reverse("team_payout_confirm", args=[loser.pk, prize.pk]), {"code": loser.code})
    assert response.status_code == 404
    response = client.post(reverse("team_payout_confirm", args=[prize.team_id, prize.pk]), {"code": loser.code})
    assert response.status_code == 404, "a team page not opened on this phone"
    prize.refresh_from_db()
    assert prize.confirmed_at is None


def test_pdf_and_exports_of_the_payout_sheet(director_client, finished, sheet):  # noqa: F811
    play(sheet, finished, "3P", "EW")
    pdf = director_client.get(reverse("director:payouts_pdf", args=[finished.slug]))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    response = director_client.get(reverse("director:payouts_export", args=[finished.slug, "csv"]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["Sheet", "Pot", "Place", "Team", "Team name", "Amount", "Paid", "Confirmed by the team"]
    assert [(row[1], row[2], row[3], row[5]) for row in rows[1:4]] == [
        ("Prize pool", "1", "1", "360.00"),
        ("Prize pool", "2", "3", "216.00"),
        ("Prize pool", "3", "5", "144.00"),
    ]
    assert ["final", "House's share", "", "", "", "80.00", "", ""] in rows
    xlsx = director_client.get(reverse("director:payouts_export", args=[finished.slug, "xlsx"]))
    assert xlsx.status_code == 200 and xlsx.content.startswith(b"PK")
    assert director_client.get(reverse("director:payouts_export", args=[finished.slug, "json"])).status_code == 404


def test_money_is_never_on_public_pages_the_projector_or_the_api(client, finished, sheet):  # noqa: F811
    play(sheet, finished, "3P", "EW")
    from tournament.services.money import payout_pay

    payout_pay(tournament=finished, team=finished.teams.get(number=1))
    slug = finished.slug
    urls = [
        reverse("public:tournament", args=[slug]),
        reverse("public:standings", args=[slug]),
        reverse("public:team", args=[slug, 1]),
        reverse("public:bracket", args=[slug]),
        reverse("public:projector", args=[slug]),
        reverse("public:event", args=[finished.event.slug]),
        f"/api/v1/tournaments/{slug}",
        f"/api/v1/tournaments/{slug}/teams",
        f"/api/v1/tournaments/{slug}/teams/1",
        f"/api/v1/tournaments/{slug}/placings",
        f"/api/v1/tournaments/{slug}/standings",
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        for word in ("360.00", "216.00", "payout", "Payout", "side_pot", "Side pot", "fee_paid", "entry_fee"):
            assert word not in body, (url, word)


@pytest.mark.parametrize("teams", [4, 16])
def test_the_payout_sheet_and_desk_cost_a_fixed_number_of_queries(
    director_client, tournament, make_teams, teams, django_assert_max_num_queries
):
    settings(tournament)
    for team in make_teams(tournament, teams):
        payment_record(team=team, amount="100")
    with django_assert_max_num_queries(30):
        assert director_client.get(reverse("director:payouts", args=[tournament.slug])).status_code == 200
    with django_assert_max_num_queries(30):
        assert director_client.get(reverse("director:desk", args=[tournament.slug])).status_code == 200


def test_the_desk_books_a_side_pot_teams_payment_where_it_is_owed_and_says_so_before(
    director_client, tournament, make_teams
):
    settings(tournament)
    (_, two) = make_teams(tournament, 2)
    team_desk_update(team=two, side_pot=True)
    desk = reverse("director:desk", args=[tournament.slug])
    page = text_of(director_client.get(desk))
    assert "Books 100.00 to the entry fee and 20.00 to the side pot." in page
    pay = reverse("director:payment_add", args=[tournament.slug, 2])
    director_client.post(pay, {"amount": "120.00", "method": "cash", "pot": "owed"})
    page = text_of(director_client.get(desk))
    assert "Team #2: 120.00 received: 100.00 to the entry fee and 20.00 to the side pot." in page
    assert "Paid 100.00 of 100.00 · side pot 20.00 of 20.00 (cash)" in page
    director_client.post(pay, {"amount": "５０", "method": "cash", "pot": "owed"})
    assert "Enter an amount such as 25 or 25.50." in text_of(director_client.get(desk))
    assert Payment.objects.count() == 2


def test_a_wrong_payment_is_moved_or_voided_from_the_desk_and_stays_in_its_history(
    director_client, tournament, make_teams
):
    settings(tournament)
    make_teams(tournament, 2)
    desk = reverse("director:desk", args=[tournament.slug])
    director_client.post(
        reverse("director:payment_add", args=[tournament.slug, 1]), {"amount": "100", "method": "cash", "pot": "owed"}
    )
    wrong = Payment.objects.get()
    move = reverse("director:payment_move", args=[tournament.slug, 1, wrong.pk])
    director_client.post(move, {"team": "2", "pot": "entry", "reason": ""})
    assert Payment.objects.get().voided_at is None, "no reason, no move"
    response = director_client.post(move, {"team": "2", "pot": "entry", "reason": "It was #2's money"})
    assert response["Location"].endswith("#team-1")
    page = text_of(director_client.get(desk))
    assert "100.00 moved to team #2" in page
    assert "Voided" in page and "moved to team #2" in page and "It was #2" in page
    assert "Received 100.00" in page and "Outstanding 100.00" in page
    moved = Payment.objects.get(voided_at__isnull=True)
    director_client.post(
        reverse("director:payment_void", args=[tournament.slug, 2, moved.pk]), {"reason": "Never paid"}
    )
    page = text_of(director_client.get(desk))
    assert "Team #2: the 100.00 was voided." in page and "Received 0.00" in page
    assert Payment.objects.count() == 2 and not Payment.objects.filter(voided_at__isnull=True).exists()


def test_pay_confirms_a_prize_is_undone_and_the_desk_records_a_signed_hand_over(director_client, finished, sheet):  # noqa: F811
    play(sheet, finished, "3P", "EW")
    sheet_url = reverse("director:payouts", args=[finished.slug])
    pay = reverse("director:payout_pay", args=[finished.slug])
    confirmation = director_client.get(f"{pay}?team=1&pot=entry")
    page = text_of(confirmation)
    assert "Pay #1 Player 0a" in page and "360.00 for place 1 (prize pool)? Pay 360.00" in page
    back = f'href="{sheet_url}">Not now: back to the sheet</a>'
    assert back in confirmation.content.decode(), "a way back without paying"
    assert not Payout.objects.exists(), "opening the confirmation pays nothing"
    assert director_client.get(f"{pay}?team=8&pot=entry").status_code == 404, "no prize for #8"
    director_client.post(pay, {"team": "1", "pot": "entry"})
    payout = Payout.objects.get()
    page = text_of(director_client.get(sheet_url))
    assert "Paid" in page and payout.team.code not in page, "the payout sheet shows no team code"
    director_client.post(reverse("director:payout_undo", args=[finished.slug, payout.pk]), {"reason": "Wrong team"})
    assert not Payout.objects.exists()
    assert "prize of 360.00 is unpaid again." in text_of(director_client.get(sheet_url))
    director_client.post(pay, {"team": "1", "pot": "entry"})
    payout = Payout.objects.get()
    confirm = reverse("director:payout_confirm", args=[finished.slug, payout.pk])
    director_client.post(confirm, {"signed_by": payout.team.code})
    assert "one of its players" in text_of(director_client.get(sheet_url))
    director_client.post(confirm, {"signed_by": "Player 0b"})
    payout.refresh_from_db()
    assert payout.confirmed_on == "handed over at the desk, signed by Player 0b"
    assert "confirmed handed over at the desk, signed by Player 0b" in text_of(director_client.get(sheet_url))


ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)


def test_a_prize_confirmed_on_an_android_phone_is_named_so_at_local_time(director_client, finished, sheet):  # noqa: F811
    from django.test import Client
    from django.utils import timezone

    play(sheet, finished, "3P", "EW")
    director_client.post(reverse("director:payout_pay", args=[finished.slug]), {"team": "1", "pot": "entry"})
    phone = Client(HTTP_USER_AGENT=ANDROID)
    team = finished.teams.get(number=1)
    open_team_page(phone, team)
    prize = Payout.objects.get(team=team, pot="entry")
    phone.post(reverse("team_payout_confirm", args=[team.pk, prize.pk]), {"code": team.code})
    prize.refresh_from_db()
    assert prize.confirmed_on.endswith("(Android phone)")
    page = text_of(director_client.get(reverse("director:payouts", args=[finished.slug])))
    assert "(Android phone)" in page and "(Linux)" not in page
    response = director_client.get(reverse("director:payouts_export", args=[finished.slug, "csv"]))
    row = next(row for row in csv.DictReader(io.StringIO(response.content.decode())) if row["Team"] == "1")
    assert row["Paid"] == timezone.localtime(prize.paid_at).strftime("%Y-%m-%d %H:%M"), "local time, to the minute"
    when = timezone.localtime(prize.confirmed_at).strftime("%Y-%m-%d %H:%M")
    assert row["Confirmed by the team"] == f"{when}, {prize.confirmed_on}"
