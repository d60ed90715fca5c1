"""The one write path: a new kind of sheet change is an edit function; sheet_write does every other step."""

import pytest

from tournament.errors import ServiceError
from tournament.models import LogEntry, Table
from tournament.services import sheets
from tournament.services.log import TABLE_LINK, Actor
from tournament.services.sheets import Change, StaleSheet, sheet_write


def swap_sitting_team(table: Table, correction: bool) -> Change:
    """A change the services do not have: the other team keeps the sheet from now on."""
    before = table.sitting_pair
    table.sitting_pair = "EW" if before == "NS" else "NS"
    table.save(update_fields=["sitting_pair"])
    return Change(LogEntry.Action.DRAW_CHANGED, f"Sheet kept by {table.sitting_pair}", {"sitting": before})


def test_a_new_kind_of_change_gets_every_step_of_the_write_path(table, sheet, scorekeeper):
    table = sheet.full_round(table)
    sheet.sign(table, "NS", table.team_at("NS").members[0].player)
    version = sheet.version(table)

    with pytest.raises(StaleSheet):
        sheet_write(table, version=version - 1, actor=TABLE_LINK, edit=swap_sitting_team)

    sheet_write(table, version=version, actor=TABLE_LINK, edit=swap_sitting_team)
    table.refresh_from_db()
    assert table.sitting_pair == "EW"
    assert not table.signatures.exists(), "the signature given is void"
    last = list(table.changes.order_by("-version")[:2])
    assert [entry.action for entry in last] == [LogEntry.Action.DRAW_CHANGED, LogEntry.Action.SIGNATURES_CLEARED]
    assert last[0].version == table.version and last[0].who == "table link" and last[0].before == {"sitting": "NS"}

    sheet.sign_both(table)
    locked = sheet.version(table)
    with pytest.raises(ServiceError, match="signed and locked"):
        sheet_write(table, version=locked, actor=TABLE_LINK, edit=swap_sitting_team)
    with pytest.raises(ServiceError) as no_reason:
        sheet_write(table, version=locked, actor=Actor.staff(scorekeeper), edit=swap_sitting_team)
    assert no_reason.value.field == "reason"
    sheet_write(table, version=locked, actor=Actor.staff(scorekeeper), edit=swap_sitting_team, reason="Swapped seats")
    entry = table.changes.latest("version")
    assert entry.correction and entry.reason == "Swapped seats" and entry.who == scorekeeper.username


def test_an_edit_the_rules_refuse_leaves_nothing_behind(table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "N", 3, "high", 9)
    version = sheet.version(table)

    def out_of_rotation(table: Table, correction: bool) -> Change:
        table.hands.filter(sequence=1).update(books=12)
        hand = table.hands.create(sequence=3, dealer="W", bidder="E", bid_level=1, bid_kind="high", books=7)
        return Change(LogEntry.Action.HAND_ADDED, "hand 3 dealt by West", result=hand)

    with pytest.raises(ServiceError) as refused:
        sheet_write(table, version=version, actor=TABLE_LINK, edit=out_of_rotation)
    assert refused.value.field == "dealer"
    table.refresh_from_db()
    assert table.version == version and table.hands.count() == 2
    assert list(table.hands.order_by("sequence").values_list("books", flat=True)) == [9, 9]


def test_a_penalty_of_a_re_deal_is_removable_unless_it_caused_the_re_deal(client, table, sheet):
    """The page offers "remove" exactly where the service allows it: both ask the engine."""
    misdeal = sheet.redeal(table, "N")
    taken = sheet.penalty(table, kind="bid_out_of_turn", team="NS", hand=misdeal, choice="take_points")
    dealt = sheet.redeal(table, "N", reason="deal_out_of_turn", team="EW")
    cause = dealt.penalties.get()
    html = client.get(f"/table/{table.secret}/").content.decode()
    assert f"/penalties/{taken.pk}/remove/" in html and f"/penalties/{cause.pk}/remove/" not in html
    with pytest.raises(ServiceError, match="remove the re-deal instead"):
        sheets.penalty_remove(penalty=cause, version=sheet.version(table))
    sheets.penalty_remove(penalty=taken, version=sheet.version(table))
    assert not misdeal.penalties.exists()


def test_a_change_carries_its_context_whole_or_as_the_keywords_scripts_have_always_passed(table, sheet, scorekeeper):
    context = sheets.ChangeContext(version=sheet.version(table), actor=TABLE_LINK)
    first = sheets.hand_record(table=table, entry=sheets.HandEntry("N", "N", 3, "high", 9), context=context)
    east = sheets.HandEntry("E", "N", 3, "high", 9)
    second = sheets.hand_record(table=table, entry=east, version=1, user=scorekeeper)
    assert (first.by_staff, second.by_staff) == (False, True), "a logged-in user acts as staff"
    changed = sheets.hand_update(
        hand=first, entry=sheets.HandEntry("N", "N", 4, "high", 10), version=2, actor=Actor.staff(scorekeeper)
    )
    assert (changed.bid_level, changed.by_staff) == (4, True)
    with pytest.raises(TypeError):
        sheets.hand_remove(hand=changed, context=sheets.ChangeContext(version=3), actor=TABLE_LINK)
