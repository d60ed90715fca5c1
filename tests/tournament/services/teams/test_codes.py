"""Each team vouches for its own sheet: team codes, signing with them, opponents accepting, blind double entry."""

import datetime
import re
from unittest import mock

import pytest
from django.conf import settings
from django.utils import timezone

from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import LogEntry, Throttle, Tournament
from tournament.models.events import CODE_ALPHABET, CODE_LENGTH
from tournament.services import sheets, throttle
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext, HandEntry, Submitted, WrongCode
from tournament.services.teams import team_code_open, team_code_renew, team_desk_update
from tournament.services.throttle import WRONG_CODES_ALLOWED


def team(table, pair):
    return table.seatings.get(pair=pair).team


def first_player(table, pair):
    return team(table, pair).memberships.order_by("position").first().player


def sign(sheet, table, pair, code, **kwargs):
    return sheets.sheet_sign(
        table=table,
        pair=pair,
        player=first_player(table, pair),
        code=code,
        context=sheet.context(table, **kwargs),
    )


@pytest.fixture
def two_tables(tournament, make_teams):
    make_teams(tournament, 4)
    round_ = round_published(tournament, method="manual", pairs="1 2\n3 4")
    return list(round_.tables.order_by("number"))


@pytest.fixture
def mode(tournament):
    def set_mode(value):
        Tournament.objects.filter(pk=tournament.pk).update(sheet_mode=value)

    return set_mode


def test_every_team_gets_a_short_code_without_look_alikes(tournament, make_teams):
    teams = make_teams(tournament, 20)
    codes = [t.code for t in teams]
    assert len(set(codes)) == 20
    assert all(len(code) == 6 and set(code) <= set(CODE_ALPHABET) for code in codes)
    assert not set(CODE_ALPHABET) & set("0O1IL2Z5S8B")


def test_signing_needs_the_signing_teams_code(two_tables, sheet):
    table, other_table = two_tables
    sheet.full_round(table)
    ns, ew = team(table, "NS"), team(table, "EW")
    refusals = {
        "": "Type North–South's team code",
        ew.code: "That is East–West's code: each team vouches with its own.",
        team(other_table, "NS").code: f"That is not North–South's code (team #{ns.number}).",
        "ZZZZZZ": "That is not North–South's code",
    }
    for code, message in refusals.items():
        with pytest.raises(ServiceError, match=re.escape(message)) as refused:
            sign(sheet, table, "NS", code)
        assert refused.value.field == "code"
    assert not table.signatures.exists()
    signature = sign(sheet, table, "NS", ns.code.lower(), actor=Actor.table_link("phone 1a2b3c (iPhone)"))
    assert signature.device == "phone 1a2b3c (iPhone)"
    entry = table.changes.get(action=LogEntry.Action.SIGNED)
    assert f"team #{ns.number}, with the team's code" in entry.summary and entry.device == "phone 1a2b3c (iPhone)"


def test_a_new_code_replaces_the_old_one_and_is_logged(two_tables, sheet, director):
    table, _ = two_tables
    sheet.full_round(table)
    old = team(table, "EW").code
    renewed = team_code_renew(team=team(table, "EW"), actor=Actor.staff(director))
    assert renewed.code != old
    with pytest.raises(WrongCode):
        sign(sheet, table, "EW", old)
    sign(sheet, table, "EW", renewed.code)
    entry = LogEntry.objects.get(action=LogEntry.Action.CODE_ISSUED)
    assert entry.team == renewed and entry.who == director.username and renewed.code not in entry.summary


def test_a_withdrawn_team_signs_for_nothing(two_tables, sheet):
    table, _ = two_tables
    sheet.full_round(table)
    withdrawn = team_desk_update(team=team(table, "NS"), withdrawn=True)
    with pytest.raises(ServiceError, match="has withdrawn"):
        sign(sheet, table, "NS", withdrawn.code)


def test_staff_sign_for_a_team_without_its_code(two_tables, sheet, scorekeeper):
    table, _ = two_tables
    sheet.full_round(table)
    signature = sign(sheet, table, "NS", "", user=scorekeeper)
    assert signature.pair == "NS"
    assert "as staff" in table.changes.get(action=LogEntry.Action.SIGNED).summary


def test_wrong_codes_at_a_table_pause_the_address_that_typed_them_not_the_teams(two_tables, sheet):
    table, _ = two_tables
    sheet.full_round(table)
    stranger = Actor.table_link("phone 0badf0 (X11)", "203.0.113.9")
    for _ in range(WRONG_CODES_ALLOWED):
        with pytest.raises(WrongCode):
            sign(sheet, table, "NS", "AAAAAA", actor=stranger)
    with pytest.raises(ServiceError, match="Too many wrong team codes from this phone"):
        sign(sheet, table, "NS", team(table, "NS").code, actor=stranger)
    assert not table.signatures.exists()
    own_phone = Actor.table_link("phone 1c2d3e (iPhone)", "10.0.0.21")
    assert sign(sheet, table, "NS", team(table, "NS").code, actor=own_phone).pair == "NS", "at once"
    ew = team(table, "EW")
    assert sign(sheet, table, "EW", ew.code, actor=Actor.team(ew, "phone 4e5f6a")).pair == "EW"


def test_a_pause_at_one_table_binds_that_table_only(two_tables, sheet):
    table, other = two_tables
    sheet.full_round(table)
    sheet.full_round(other)
    stranger = Actor.table_link("", "203.0.113.9")
    for _ in range(WRONG_CODES_ALLOWED):
        with pytest.raises(WrongCode):
            sign(sheet, table, "NS", "AAAAAA", actor=stranger)
    assert sign(sheet, other, "NS", team(other, "NS").code, actor=stranger).pair == "NS"


def test_a_right_code_never_refills_the_budget(db, make_teams, tournament):
    (known,) = make_teams(tournament, 1)
    for _ in range(WRONG_CODES_ALLOWED - 1):
        with pytest.raises(ServiceError, match="That is not a team code"):
            team_code_open(code="AAAAAA", address="198.51.100.7")
        assert team_code_open(code=known.code, address="198.51.100.7") == known
    with pytest.raises(ServiceError, match="That is not a team code"):
        team_code_open(code="AAAAAA", address="198.51.100.7")
    with pytest.raises(ServiceError, match="Too many wrong team codes"):
        team_code_open(code=known.code, address="198.51.100.7")
    assert team_code_open(code=known.code, address="198.51.100.8") == known, "another address is not paused"


def test_an_ipv6_phone_cannot_hop_addresses_within_its_network(db):
    for host in range(WRONG_CODES_ALLOWED):
        with pytest.raises(ServiceError, match="That is not a team code"):
            team_code_open(code="AAAAAA", address=f"2001:db8:1:2::{host + 1}")
    with pytest.raises(ServiceError, match="Too many wrong team codes"):
        team_code_open(code="AAAAAA", address="2001:db8:1:2:ffff::9")


def _guesses_in(days: int, guess) -> int:
    """Guess as fast as the app answers (one a second) on a simulated clock for ``days``; when refused,
    wait for the pause to end. The number of guesses the app checked against the codes."""
    start = timezone.now()
    clock = [start]
    checked = 0
    with mock.patch("django.utils.timezone.now", lambda: clock[0]):
        while clock[0] < start + datetime.timedelta(days=days):
            try:
                guess()
            except WrongCode:
                checked += 1
            except ServiceError as error:
                if "Too many" not in error.message:
                    checked += 1
                    clock[0] += datetime.timedelta(seconds=1)
                    continue
                paused = Throttle.objects.filter(blocked_until__gt=clock[0]).order_by("blocked_until").first()
                clock[0] = paused.blocked_until + datetime.timedelta(seconds=1)
                continue
            clock[0] += datetime.timedelta(seconds=1)
    return checked


def test_guessing_any_code_of_a_512_team_event_takes_longer_than_1000_events(two_tables, sheet):
    """The budgets driven for 30 simulated days, then docs/scorekeeping.md's arithmetic: an event is 72
    hours; a guess on /my/ hits any of 512 codes; at a table, one of its two."""
    codes = len(CODE_ALPHABET) ** CODE_LENGTH
    event_hours, days = 72, 30
    per_event = {}
    per_event["my"] = _guesses_in(days, lambda: team_code_open(code="AAAAAA", address="203.0.113.9"))
    table, _ = two_tables
    sheet.full_round(table)
    stranger = Actor.table_link("", "203.0.113.9")
    per_event["table"] = _guesses_in(days, lambda: sign(sheet, table, "NS", "AAAAAA", actor=stranger))
    per_event = {where: count * event_hours / (days * 24) for where, count in per_event.items()}
    assert per_event["my"] <= WRONG_CODES_ALLOWED + 1 and per_event["table"] <= WRONG_CODES_ALLOWED + 1
    events = {
        "one address on /my/": (codes / 512) / per_event["my"],
        "50 addresses on /my/": (codes / 512) / (50 * per_event["my"]),
        "50 addresses at every table": (codes / 2) / (50 * 256 * per_event["table"]),
    }
    assert all(count > 1000 for count in events.values()), events
    documented = (settings.BASE_DIR / "docs" / "scorekeeping.md").read_text()
    budget = (codes / 512) / (50 * WRONG_CODES_ALLOWED)
    assert f"| 250 | 512 / 23⁶ | 289,133 | {budget:,.0f} events |" in documented


# Opponents accept each hand.


def test_the_other_team_accepts_each_hand_before_the_sheet_is_signed(two_tables, sheet, mode, scorekeeper):
    mode(Tournament.SheetMode.ACCEPT)
    table, _ = two_tables
    table = sheet.full_round(table)
    hands = list(table.hands.order_by("sequence"))
    assert all(hand.entered_by == "NS" and hand.accepted_at is None for hand in hands), "the sitting team entered"
    with pytest.raises(ServiceError, match="hand 1 is not accepted by the other team yet"):
        sign(sheet, table, "NS", team(table, "NS").code)
    with pytest.raises(ServiceError, match="That is North–South's code"):
        sheets.hand_accept(
            table=table, hand=hands[0], code=team(table, "NS").code, context=ChangeContext(version=sheet.version(table))
        )
    for hand in hands[:3]:
        sheets.hand_accept(
            table=table, hand=hand, code=team(table, "EW").code, context=ChangeContext(version=sheet.version(table))
        )
    sheets.hand_update(
        hand=hands[0],
        entry=HandEntry("N", "N", 3, "high", 10, "spades"),
        context=ChangeContext(version=sheet.version(table)),
    )
    hands[0].refresh_from_db()
    assert hands[0].accepted_at is None, "a changed hand is accepted again"
    sheets.hand_update(
        hand=hands[3],
        entry=HandEntry("W", "W", 1, "nt", 9),
        context=ChangeContext(version=sheet.version(table), actor=Actor.staff(scorekeeper)),
    )
    hands[3].refresh_from_db()
    assert hands[3].accepted_at is not None, "staff entries need no acceptance"
    sheets.hand_accept(
        table=table, hand=hands[0], code=team(table, "EW").code, context=ChangeContext(version=sheet.version(table))
    )
    sign(sheet, table, "NS", team(table, "NS").code)
    accepted = table.changes.filter(action=LogEntry.Action.HAND_ACCEPTED)
    assert accepted.count() == 4 and "East–West" in accepted.first().summary


# Blind double entry.


def submit(sheet, table, pair, entry=None, **kwargs):
    return sheets.hand_submit(
        table=table,
        pair=pair,
        code=team(table, pair).code,
        entry=entry,
        **kwargs,
        context=ChangeContext(version=sheet.version(table)),
    )


def test_in_blind_double_entry_a_hand_is_recorded_when_both_teams_agree(two_tables, sheet, mode):
    mode(Tournament.SheetMode.DOUBLE)
    table, _ = two_tables
    with pytest.raises(ServiceError, match="each team enters every hand on its own phone"):
        sheet.hand(table, "N", "N", 3, "high", 9)
    hand = HandEntry("N", "N", 3, "high", 9, "spades")
    waiting = submit(sheet, table, "NS", hand)
    assert waiting.status == Submitted.WAITING and not table.hands.exists()
    entry = table.changes.get(action=LogEntry.Action.HAND_SUBMITTED)
    assert "3" not in entry.summary.replace("deal 1", ""), "the log says nothing of a blind entry"
    recorded = submit(sheet, table, "EW", hand)
    assert recorded.status == Submitted.RECORDED and recorded.hand.hand_number == 1
    assert not table.submissions.exists()
    table.refresh_from_db()
    assert table.ns_total == 3


def test_entries_that_differ_wait_until_a_team_corrects_its_own(two_tables, sheet, mode):
    mode(Tournament.SheetMode.DOUBLE)
    table, _ = two_tables
    submit(sheet, table, "NS", HandEntry("N", "N", 3, "high", 9, "spades"))
    differ = submit(sheet, table, "EW", HandEntry("N", "N", 3, "high", 8, "spades"))
    assert differ.status == Submitted.DIFFER and not table.hands.exists()
    assert "9 books" in differ.theirs.words and "8 books" in differ.mine.words
    recorded = submit(sheet, table, "EW", HandEntry("N", "N", 3, "high", 9, "spades"))
    assert recorded.status == Submitted.RECORDED


def test_staff_settle_entries_that_differ(two_tables, sheet, mode, scorekeeper):
    mode(Tournament.SheetMode.DOUBLE)
    table, _ = two_tables
    submit(sheet, table, "NS", HandEntry("N", "N", 3, "high", 9, "spades"))
    submit(sheet, table, "EW", HandEntry("N", "N", 3, "high", 8, "spades"))
    with pytest.raises(ServiceError, match="Only the tournament director or scorekeeper"):
        sheets.entries_settle(table=table, keep="NS", context=ChangeContext(version=sheet.version(table), reason="x"))
    with pytest.raises(ServiceError, match="Say why") as no_reason:
        sheets.entries_settle(
            table=table,
            keep="NS",
            context=ChangeContext(version=sheet.version(table), actor=Actor.staff(scorekeeper), reason=" "),
        )
    assert no_reason.value.field == "reason"
    hand = sheets.entries_settle(
        table=table,
        keep="EW",
        context=ChangeContext(
            version=sheet.version(table), actor=Actor.staff(scorekeeper), reason="Books counted with both teams"
        ),
    )
    assert hand.books == 8 and not table.submissions.exists()
    settled = table.changes.get(action=LogEntry.Action.ENTRIES_SETTLED)
    assert settled.reason == "Books counted with both teams" and settled.who == scorekeeper.username


def test_a_double_entry_round_with_a_re_deal_is_signed_by_both_teams(two_tables, sheet, mode):
    mode(Tournament.SheetMode.DOUBLE)
    table, _ = two_tables
    for pair in ("NS", "EW"):
        result = submit(sheet, table, pair, dealer="E", redeal_reason="deal_out_of_turn", redeal_team="EW")
    assert result.status == Submitted.RECORDED and not result.hand.counts
    assert result.hand.penalties.get().kind == "deal_out_of_turn"
    for dealer, level, books in (("E", 4, 10), ("S", 2, 8), ("W", 1, 7), ("N", 3, 9)):
        for pair in ("NS", "EW"):
            submit(sheet, table, pair, HandEntry(dealer, dealer, level, "high", books, "hearts"))
    table.refresh_from_db()
    assert table.complete and table.hands.filter(counts=True).count() == 4
    with pytest.raises(ServiceError, match="round is over"):
        submit(sheet, table, "NS", HandEntry("N", "N", 1, "high", 7, "hearts"))
    sign(sheet, table, "NS", team(table, "NS").code)
    sign(sheet, table, "EW", team(table, "EW").code)
    table.refresh_from_db()
    assert table.signed


def test_a_double_entry_is_refused_beside_its_field_before_the_other_team_enters(two_tables, sheet, mode):
    mode(Tournament.SheetMode.DOUBLE)
    table, _ = two_tables
    submit(sheet, table, "NS", HandEntry("N", "N", 3, "high", 9, "spades"))
    submit(sheet, table, "EW", HandEntry("N", "N", 3, "high", 9, "spades"))
    submit(sheet, table, "NS", HandEntry("E", "N", 3, "high", 9, "spades"))
    submit(sheet, table, "EW", HandEntry("E", "N", 3, "high", 9, "spades"))
    with pytest.raises(ServiceError, match="Hand 3 is dealt by South") as refused:
        submit(sheet, table, "NS", HandEntry("W", "E", 3, "high", 9, "spades"))
    assert refused.value.field == "dealer"
    with pytest.raises(WrongCode):
        sheets.hand_submit(
            table=table, pair="NS", code=team(table, "EW").code, context=ChangeContext(version=sheet.version(table))
        )


def test_staff_see_the_pauses_and_lift_one_which_is_logged(client, two_tables, sheet, scorekeeper):
    from django.urls import reverse

    table, _ = two_tables
    sheet.full_round(table)
    stranger = Actor.table_link("", "203.0.113.9")
    for _ in range(WRONG_CODES_ALLOWED):
        with pytest.raises(WrongCode):
            sign(sheet, table, "NS", "AAAAAA", actor=stranger)
        with pytest.raises(ServiceError):
            team_code_open(code="AAAAAA", address="198.51.100.7")
    pages = reverse("director:code_pauses")
    assert client.get(pages).status_code == 302, "not to the public"
    client.force_login(scorekeeper)
    page = client.get(pages).content.decode()
    assert f"round 1, table {table.number}" in page and "203.0.113.9" in page
    assert "198.51.100.7" in page and "opening team pages" in page
    (table_pause,) = [pause for pause in throttle.code_pauses() if pause.table is not None]
    lifted_page = client.post(reverse("director:code_pause_lift"), {"pause": table_pause.pk}, follow=True)
    assert "Lifted: team codes from 203.0.113.9 are accepted again" in lifted_page.content.decode()
    assert [pause.address for pause in throttle.code_pauses()] == ["198.51.100.7"]
    assert sign(sheet, table, "NS", team(table, "NS").code, actor=stranger).pair == "NS"
    lifted = table.changes.get(action=LogEntry.Action.CODE_PAUSE_LIFTED)
    assert lifted.actor_name == scorekeeper.username and "203.0.113.9" in lifted.summary


def test_the_table_link_cannot_lift_a_pause(two_tables, sheet):
    table, _ = two_tables
    sheet.full_round(table)
    for _ in range(WRONG_CODES_ALLOWED):
        with pytest.raises(WrongCode):
            sign(sheet, table, "NS", "AAAAAA", actor=Actor.table_link("", "203.0.113.9"))
    (pause,) = throttle.code_pauses()
    with pytest.raises(ServiceError, match="Only the tournament director or scorekeeper"):
        throttle.code_pause_lift(pause_id=pause.pk, actor=Actor.table_link("", "203.0.113.9"))
