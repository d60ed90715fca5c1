"""The one write path: a new kind of sheet change is an edit function; sheet_write does every other step."""

import inspect
from inspect import Parameter, signature

import pytest

from tournament.errors import ServiceError
from tournament.models import LogEntry, Table
from tournament.services import sheets
from tournament.services.log import TABLE_LINK, Actor
from tournament.services.sheets import Change, ChangeContext, StaleSheet, sheet_write


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
        sheet_write(table, edit=swap_sitting_team, context=ChangeContext(version=version - 1, actor=TABLE_LINK))

    sheet_write(table, edit=swap_sitting_team, context=ChangeContext(version=version, actor=TABLE_LINK))
    table.refresh_from_db()
    assert table.sitting_pair == "EW"
    assert not table.signatures.exists(), "the signature given is void"
    last = list(table.changes.order_by("-version")[:2])
    assert [entry.action for entry in last] == [LogEntry.Action.DRAW_CHANGED, LogEntry.Action.SIGNATURES_CLEARED]
    assert last[0].version == table.version and last[0].who == "table link" and last[0].before == {"sitting": "NS"}

    sheet.sign_both(table)
    locked = sheet.version(table)
    with pytest.raises(ServiceError, match="signed and locked"):
        sheet_write(table, edit=swap_sitting_team, context=ChangeContext(version=locked, actor=TABLE_LINK))
    with pytest.raises(ServiceError) as no_reason:
        sheet_write(
            table, edit=swap_sitting_team, context=ChangeContext(version=locked, actor=Actor.staff(scorekeeper))
        )
    assert no_reason.value.field == "reason"
    sheet_write(
        table,
        edit=swap_sitting_team,
        context=ChangeContext(version=locked, actor=Actor.staff(scorekeeper), reason="Swapped seats"),
    )
    entry = table.changes.latest("version")
    assert entry.correction and entry.reason == "Swapped seats" and entry.who == scorekeeper.username


def test_an_edit_the_rules_refuse_leaves_nothing_behind(table, sheet):
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "N", 3, "high", 9)
    version = sheet.version(table)

    def out_of_rotation(table: Table, correction: bool) -> Change:
        table.hands.filter(sequence=1).update(books=12)
        hand = table.hands.create(sequence=3, dealer="W", bidder="E", level=1, kind="high", books=7)
        return Change(LogEntry.Action.HAND_ADDED, "hand 3 dealt by West", result=hand)

    with pytest.raises(ServiceError) as refused:
        sheet_write(table, edit=out_of_rotation, context=ChangeContext(version=version, actor=TABLE_LINK))
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
        sheets.penalty_remove(penalty=cause, context=ChangeContext(version=sheet.version(table)))
    sheets.penalty_remove(penalty=taken, context=ChangeContext(version=sheet.version(table)))
    assert not misdeal.penalties.exists()


def test_every_sheet_service_takes_its_change_as_one_keyword_only_context():
    """One signature per service: the change's version, actor and reason travel as ``context`` and nothing else
    (no loose keywords beside it), so mypy checks every call."""
    named = [getattr(sheets, name) for name in sheets.__all__]
    services = [
        service for service in named if inspect.isfunction(service) and "context" in signature(service).parameters
    ]
    assert len(services) == 17, "the sixteen services of a sheet and sheet_write"
    for service in services:
        parameters = signature(service).parameters
        context = parameters["context"]
        assert context.kind is Parameter.KEYWORD_ONLY and context.default is Parameter.empty, service.__name__
        assert context.annotation in (ChangeContext, "ChangeContext"), service.__name__
        assert not any(p.kind is Parameter.VAR_KEYWORD for p in parameters.values()), service.__name__
        assert not {"version", "actor", "user"} & set(parameters), service.__name__
