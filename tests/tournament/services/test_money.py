"""Money at the desk: settings, payments, refunds, the payout sheet, prizes paid and confirmed with the code."""

from decimal import Decimal

import pytest

from tests.conftest import round_published
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (fixture)
from tournament.errors import ServiceError
from tournament.models import LogEntry, Payment, Payout, Throttle
from tournament.selectors.money import desk_money, payout_sheet
from tournament.services.money import (
    money_settings_set,
    payment_record,
    payout_confirm,
    payout_pay,
    refund_record,
)
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.teams import team_desk_update
from tournament.services.throttle import code_pauses

D = Decimal


def settings(tournament, **changes):
    values = {
        "entry_fee": "100",
        "side_pot_fee": "20",
        "house_percent": "10",
        "payout_percents": "50, 30, 20",
        "side_pot_rule": "placing",
    }
    money_settings_set(tournament=tournament, **{**values, **changes})
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize(
    ("field", "typed", "message"),
    [
        ("payout_percents", "50, 30, 10", "add up to 90%, not 100%"),
        ("payout_percents", "20, 30, 50", "may not rise"),
        ("entry_fee", "-10", "cannot be negative"),
        ("entry_fee", "1000000", "more than this can be"),
        ("side_pot_fee", "5.555", "two decimals"),
        ("house_percent", "120", "from 0 to 100"),
    ],
)
def test_bad_money_settings_are_refused_beside_the_field_and_nothing_changes(tournament, field, typed, message):
    with pytest.raises(ServiceError, match=message) as refused:
        settings(tournament, **{field: typed})
    assert refused.value.field == field
    tournament.refresh_from_db()
    assert (tournament.entry_fee, tournament.payout_percents) == (D("0.00"), "50, 30, 20")
    assert not LogEntry.objects.filter(action=LogEntry.Action.MONEY_SETTINGS).exists()


def test_settings_are_kept_and_logged(tournament):
    settings(tournament, payout_percents="60%, 40")
    tournament.refresh_from_db()
    assert (tournament.entry_fee, tournament.side_pot_fee, tournament.house_percent) == (D(100), D(20), D(10))
    assert tournament.payout_percents == "60, 40"
    entry = LogEntry.objects.get(action=LogEntry.Action.MONEY_SETTINGS)
    assert entry.before["entry_fee"] == "0.00" and entry.after["entry_fee"] == "100.00"


def test_a_script_may_change_one_setting_and_the_others_stay(tournament):
    settings(tournament)
    money_settings_set(tournament=tournament, house_percent="12.5")
    tournament.refresh_from_db()
    assert (tournament.entry_fee, tournament.house_percent, tournament.payout_percents) == (
        D(100),
        D("12.5"),
        "50, 30, 20",
    )
    entry = LogEntry.objects.filter(action=LogEntry.Action.MONEY_SETTINGS).latest("pk")
    assert entry.summary == (
        "Money: entry fee 100.00, side pot 20.00, house 12.50%, payouts 50, 30, 20, side pot by placing"
    )
    with pytest.raises(TypeError, match="entry_fees"):
        money_settings_set(tournament=tournament, entry_fees="5")


def test_a_side_pot_rule_that_is_none_of_the_choices_is_refused_beside_it(tournament):
    with pytest.raises(ServiceError, match="The side pot is paid: choose one of the choices") as refused:
        settings(tournament, side_pot_rule="dice")
    assert refused.value.field == "side_pot_rule"
    tournament.refresh_from_db()
    assert tournament.side_pot_rule == "placing"


def test_the_desk_totals_as_payments_come_in(tournament, make_teams):
    settings(tournament)
    one, two, _ = make_teams(tournament, 3)
    team_desk_update(team=two, side_pot=True)
    payment_record(team=one, amount="100", method="card")
    payment_record(team=two, amount="60")
    payment_record(team=two, amount="20", pot="side_pot")
    desk = desk_money(tournament)
    assert (desk.received, desk.expected, desk.outstanding, desk.side_pot_entrants) == (D(180), D(320), D(140), 1)
    one.refresh_from_db()
    two.refresh_from_db()
    assert one.fee_paid and not two.fee_paid, "the fee is paid when what was received covers it"
    payment_record(team=two, amount="40")
    two.refresh_from_db()
    assert two.fee_paid
    assert LogEntry.objects.filter(action=LogEntry.Action.PAYMENT).count() == 4


def test_a_side_pot_payment_needs_the_team_in_the_side_pot(tournament, make_teams):
    settings(tournament)
    (team,) = make_teams(tournament, 1)
    with pytest.raises(ServiceError, match="not in the side pot") as refused:
        payment_record(team=team, amount="20", pot="side_pot")
    assert refused.value.field == "pot"
    assert not Payment.objects.exists()


def test_a_refund_is_never_more_than_was_paid_and_has_a_reason(tournament, make_teams):
    settings(tournament)
    (team,) = make_teams(tournament, 1)
    payment_record(team=team, amount="100")
    with pytest.raises(ServiceError, match=r"has paid 100\.00 for the entry fee: a refund cannot be more"):
        refund_record(team=team, amount="100.01", reason="Withdrew")
    with pytest.raises(ServiceError, match="Say why") as refused:
        refund_record(team=team, amount="50", reason="  ")
    assert refused.value.field == "reason"
    refund_record(team=team, amount="100", reason="Withdrew before round 1")
    team.refresh_from_db()
    assert not team.fee_paid
    entry = LogEntry.objects.get(action=LogEntry.Action.REFUND)
    assert entry.reason == "Withdrew before round 1" and entry.team == team
    with pytest.raises(ServiceError, match=r"has paid 0\.00"):
        refund_record(team=team, amount="0.01", reason="Again")


def test_a_withdrawn_teams_fee_is_kept_and_its_side_pot_fee_stays_in_the_pot(tournament, make_teams):
    settings(tournament)
    teams = make_teams(tournament, 4)
    for team in teams:
        team_desk_update(team=team, side_pot=True)
        payment_record(team=team, amount="100")
        payment_record(team=team, amount="20", pot="side_pot")
    team_desk_update(team=teams[3], withdrawn=True)
    sheet = payout_sheet(tournament)
    assert sheet.side_pot == D(80), "the withdrawn team's side-pot fee is kept"
    assert sheet.desk.outstanding == 0
    assert teams[3] in sheet.unpaid_side_pot_teams
    assert teams[3].pk not in {line.team.pk for line in sheet.side_prizes}


@pytest.fixture
def finished(qualified, sheet):  # noqa: F811
    """8 teams, every one paid 100 (house 10%), teams 1, 2, 5, 6 in a 20 side pot; the playoff of four with a
    third-place match: #1 champion, #3 runner-up, #5 third, #7 fourth; #2, #4, #6, #8 share 5th."""
    settings(qualified)
    for team in qualified.teams.all():
        payment_record(team=team, amount="100")
        if team.number in (1, 2, 5, 6):
            team_desk_update(team=team, side_pot=True)
            payment_record(team=team, amount="20", pot="side_pot")
    playoff_seed(tournament=qualified, teams=4, third_place=True)
    playoff_publish(tournament=qualified)
    for code, side in (("W1-1", "NS"), ("W1-2", "NS"), ("W2-1", "NS")):
        play(sheet, qualified, code, side)
    return qualified


def amounts(lines):
    return [(str(line.place), line.team.number, line.amount) for line in lines]


def test_before_the_placings_are_final_the_sheet_is_a_preview_and_nothing_can_be_paid(finished):
    sheet = payout_sheet(finished)
    assert not sheet.final
    team = finished.teams.get(number=1)
    with pytest.raises(ServiceError, match="only a preview"):
        payout_pay(tournament=finished, team=team)
    assert not Payout.objects.exists()


def test_the_payout_sheet_from_the_final_placings(finished, sheet):
    play(sheet, finished, "3P", "EW")
    payouts = payout_sheet(finished)
    assert payouts.final
    assert (payouts.entry_net, payouts.house, payouts.pool, payouts.side_pot) == (D(800), D(80), D(720), D(80))
    assert amounts(payouts.prizes) == [("1", 1, D(360)), ("2", 3, D(216)), ("3", 5, D(144))]
    # Side-pot teams among themselves: #1 (1st), #5 (3rd), then #2 and #6 sharing 5th.
    assert amounts(payouts.side_prizes) == [("1", 1, D(40)), ("2", 5, D(24)), ("T-3", 2, D(8)), ("T-3", 6, D(8))]
    assert payouts.difference == 0 and not payouts.balanced, "prizes still to hand over"


def test_prizes_paid_and_confirmed_with_the_team_code_balance_the_desk(finished, sheet):
    play(sheet, finished, "3P", "EW")
    for line in payout_sheet(finished).lines:
        payout_pay(tournament=finished, team=line.team, pot=line.pot)
    champion = Payout.objects.get(team__number=1, pot="entry")
    with pytest.raises(ServiceError, match="not team #1's code") as refused:
        payout_confirm(payout=champion, code=finished.teams.get(number=3).code, address="10.0.0.9")
    assert refused.value.field == "code"
    assert Throttle.objects.get(key=f"payout-code:{champion.team_id}:10.0.0.9").failures == 1
    payout_confirm(payout=champion, code=champion.team.code.lower(), where="on the team's phone")
    champion.refresh_from_db()
    assert champion.confirmed_at is not None and champion.confirmed_on == "on the team's phone"
    with pytest.raises(ServiceError, match="confirmed this prize already"):
        payout_confirm(payout=champion, code=champion.team.code)
    with pytest.raises(ServiceError, match="paid already"):
        payout_pay(tournament=finished, team=champion.team)
    payouts = payout_sheet(finished)
    assert payouts.balanced and payouts.held == payouts.house == D(80), "the house's share is still in the box"
    assert LogEntry.objects.filter(action=LogEntry.Action.PAYOUT).count() == 7
    assert LogEntry.objects.filter(action=LogEntry.Action.PAYOUT_CONFIRMED).count() == 1
    with pytest.raises(ServiceError, match="can no longer change"):
        settings(finished, payout_percents="100")


def test_wrong_codes_pause_the_address_that_guessed_not_the_team(finished, sheet):
    play(sheet, finished, "3P", "EW")
    payout = payout_pay(tournament=finished, team=finished.teams.get(number=1))
    for _ in range(5):
        with pytest.raises(ServiceError, match="not team #1's code"):
            payout_confirm(payout=payout, code="AAAAAA", address="203.0.113.7")
    with pytest.raises(ServiceError, match="Too many wrong team codes"):
        payout_confirm(payout=payout, code=payout.team.code, address="203.0.113.7")
    (pause,) = code_pauses()
    assert (pause.address, pause.where) == ("203.0.113.7", f"{finished.name}, confirming team #1's prize")
    payout_confirm(payout=payout, code=payout.team.code, address="198.51.100.4")  # the team's own phone
    payout.refresh_from_db()
    assert payout.confirmed_at is not None


def test_side_pot_by_bostons_with_nobody_making_one_goes_to_the_best_placed(finished, sheet):
    play(sheet, finished, "3P", "EW")
    settings(finished, side_pot_rule="bostons")
    payouts = payout_sheet(finished)
    assert all(line.bostons == 0 for line in payouts.side_prizes)
    assert amounts(payouts.side_prizes) == [("1", 1, D(80))]


def test_side_pot_by_bostons_counts_the_playoff(finished, sheet):
    from tests.tournament.services.test_playoffs import match

    table = match(finished, "3P").table
    sheet.hand(table, "N", "E", 3, "high", 13)  # East–West (#5) make a Boston
    for dealer, bidder in (("E", "E"), ("S", "S"), ("W", "W")):
        sheet.hand(table, dealer, bidder, 1, "high", 7)
    sheet.sign_both(table)
    settings(finished, side_pot_rule="bostons")
    payouts = payout_sheet(finished)
    assert payouts.final
    assert amounts(payouts.side_prizes) == [("2", 5, D(80))]


def test_three_teams_sharing_two_paid_places(tournament, make_teams, sheet):
    """No playoff: one round, #1, #3, #5 win alike and share 1st: they split 60 + 40 three ways."""
    tournament.qualifying_rounds = 1
    tournament.save()
    settings(tournament, entry_fee="50", house_percent="0", payout_percents="60, 40")
    teams = make_teams(tournament, 6)
    for team in teams:
        payment_record(team=team, amount="50")
    round_ = round_published(tournament, method="manual", pairs="1 2\n3 4\n5 6")
    assert not payout_sheet(tournament).final
    for table in round_.tables.order_by("number"):
        sheet.play(table, "NS")
    payouts = payout_sheet(tournament)
    assert payouts.final
    assert amounts(payouts.prizes) == [("T-1", 1, D("100.00")), ("T-1", 3, D("100.00")), ("T-1", 5, D("100.00"))]
    settings(tournament, entry_fee="50", house_percent="0.5", payout_percents="60, 40")
    # 300 less 1.50 house = 298.50: 99.50 each.
    assert [line.amount for line in payout_sheet(tournament).prizes] == [D("99.50")] * 3
    refund_record(team=teams[5], amount="0.01", reason="Short-changed")
    # 299.99 less 1.49 house = 298.50: 99.50 each; without the house, 299.99: the two left-over cents to #1, #3.
    assert [line.amount for line in payout_sheet(tournament).prizes] == [D("99.50")] * 3
    settings(tournament, entry_fee="50", house_percent="0", payout_percents="60, 40")
    assert [line.amount for line in payout_sheet(tournament).prizes] == [D("100.00"), D("100.00"), D("99.99")]


def test_the_archive_carries_the_money_and_round_trips_byte_identically(finished, sheet, tmp_path):
    import io
    import json

    from django.core.management import call_command

    from tests.tournament.services.archive.test_schema import export_text
    from tournament.models import Event

    play(sheet, finished, "3P", "EW")
    refund_record(team=finished.teams.get(number=8), amount="12.50", reason="Left after round 1")
    payout = payout_pay(tournament=finished, team=finished.teams.get(number=1))
    payout_confirm(payout=payout, code=payout.team.code, where="on the team's phone")
    first = export_text(finished.event)
    money = json.loads(first)["tournaments"][0]["money"]
    assert money["entry_fee"] == "100.00" and money["house_percent"] == "10.00"
    assert money["payments"][-1] | {"created_at": None} == {
        "team": 8,
        "kind": "refund",
        "pot": "entry",
        "amount": "12.50",
        "method": "cash",
        "reason": "Left after round 1",
        "recorded_by": "",
        "created_at": None,
        "voided_at": None,
        "voided_reason": "",
        "voided_by": "",
    }
    # 787.50 in, house 78.75, pool 708.75: half is 354.375, rounded down, and the left-over cent to 1st.
    assert money["payouts"][0]["amount"] == "354.38" and money["payouts"][0]["confirmed_at"]
    path = tmp_path / "event.json"
    path.write_text(first, encoding="utf-8")
    finished.event.delete()
    call_command("import_event", str(path), stdout=io.StringIO())
    assert export_text(Event.objects.get()) == first
    imported = Event.objects.get().tournaments.get()
    assert payout_sheet(imported).paid_out == D("354.38")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"entry_fee": 25.5}, "money.entry_fee: Input should be a valid string"),
        ({"entry_fee": "-5.00"}, "money.entry_fee: String should match pattern"),
        ({"payout_percents": "50, 30"}, "money.payout_percents: The percentages add up to 80%"),
        ({"payments": [{"team": 1, "kind": "refund", "pot": "entry", "amount": "5.00", "method": "cash"}]}, "reason"),
        ({"payments": [{"team": 9, "kind": "received", "pot": "entry", "amount": "5.00", "method": "cash"}]}, "team"),
        (
            {
                "payments": [
                    {
                        "team": 1,
                        "kind": "received",
                        "pot": "entry",
                        "amount": "5.00",
                        "method": "cash",
                        "voided_at": "2026-05-01T10:00:00Z",
                    }
                ]
            },
            "a voided payment has its reason",
        ),
    ],
)
def test_bad_money_in_an_archive_is_refused_and_nothing_is_loaded(tournament, make_teams, change, message):
    from tournament.models import Event
    from tournament.services.archive import event_export, event_import

    make_teams(tournament, 2)
    data = event_export(tournament.event)
    data["tournaments"][0]["money"].update(change)
    tournament.event.delete()
    with pytest.raises(ServiceError, match=message):
        event_import(data=data)
    assert not Event.objects.exists()


def test_an_archive_of_version_3_loads_with_no_money(tournament, make_teams):
    from tournament.services.archive import event_export, event_import

    make_teams(tournament, 2)
    data = event_export(tournament.event)
    data["version"] = 3
    del data["tournaments"][0]["money"]
    tournament.event.delete()
    imported = event_import(data=data).tournaments.get()
    assert (imported.entry_fee, imported.payout_percents) == (D(0), "50, 30, 20")


def test_a_seeded_playoff_makes_the_standings_a_preview_again(qualified):  # noqa: F811
    settings(qualified)
    assert payout_sheet(qualified).final, "qualifying is complete and no playoff is seeded"
    playoff_seed(tournament=qualified, teams=4)
    assert not payout_sheet(qualified).final


def test_an_archived_fee_paid_mark_yields_to_the_archived_amounts(tournament, make_teams):
    """A "fee paid" mark made before the fee existed, archived beside a fee and no payment: imported unpaid."""
    from tournament.services.archive import event_export, event_import

    make_teams(tournament, 2)
    data = event_export(tournament.event)
    data["tournaments"][0]["money"]["entry_fee"] = "100.00"
    data["tournaments"][0]["money"]["payments"] = [
        {"team": 2, "kind": "received", "pot": "entry", "amount": "100.00", "method": "cash"}
    ]
    for team in data["tournaments"][0]["teams"]:
        team["fee_paid"] = team["number"] == 1
    tournament.event.delete()
    imported = event_import(data=data).tournaments.get()
    assert list(imported.teams.order_by("number").values_list("fee_paid", flat=True)) == [False, True]
