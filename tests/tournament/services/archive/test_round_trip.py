import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import Event, Hand, Table
from tournament.services.archive import event_export, event_import
from tournament.services.draws import round_draw
from tournament.services.events import announcement_post, tournament_create
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext, HandEntry, hand_update
from tournament.services.teams import PlayerEntry, team_register


@pytest.fixture
def full_event(event, tournament, make_teams, sheet, director):
    """An event with everything the archive must carry."""
    make_teams(tournament, 5)
    round_1 = round_published(tournament, method="random", seed=4)
    first, second = round_1.tables.order_by("number")
    sheet.hand(first, "N", "E", 3, "low", 10)
    sheet.redeal(first, "E", reason="bid_out_of_turn", team="NS")
    sheet.hand(first, "E", "N", 4, "high", 9, suit="clubs")
    sheet.penalty(first, kind="renege", team="EW", hand=first.hands.get(sequence=3), count=1)
    sheet.penalty(first, kind="exposed_card", team="NS", hand=first.hands.get(sequence=1))
    sheet.hand(first, "S", "S", 2, "nt", 8, direction="down")
    sheet.hand(first, "W", "W", 1, "high", 5, suit="spades")
    sheet.penalty(first, kind="director_ruling", team="EW", points=-1, reason="Slow play", user=director)
    sheet.sign_both(first)
    hand_update(
        hand=first.hands.get(sequence=5),
        entry=HandEntry("W", "W", 1, "high", 6, "spades"),
        context=ChangeContext(
            version=sheet.version(first), actor=Actor.staff(director), reason="Six books, counted again"
        ),
    )
    sheet.play(second, "tie")
    round_draw(tournament=tournament, method="swiss")
    announcement_post(tournament=tournament, text="Lunch at noon", hours=3)
    side = tournament_create(event=event, name="Kitty side game", preset="kitty")
    team_register(tournament=side, players=[PlayerEntry("Player 0a", "Detroit"), PlayerEntry("Guest", "Ohio")])
    return event


def test_an_archive_round_trip_is_lossless(full_event):
    exported = event_export(full_event)
    text = json.dumps(exported)
    totals = {t.number: (t.ns_total, t.ew_total) for t in Table.objects.filter(round__tournament__event=full_event)}
    full_event.delete()
    assert not Event.objects.exists()
    imported = event_import(data=json.loads(text))
    assert event_export(imported) == exported
    again = {t.number: (t.ns_total, t.ew_total) for t in Table.objects.filter(round__tournament__event=imported)}
    assert again == totals, "scores are recomputed from the entries"
    assert Hand.objects.filter(table__round__tournament__event=imported, penalties__kind="renege").count() == 1


def test_the_archive_holds_what_the_issue_lists(full_event):
    data = event_export(full_event)
    main = data["tournaments"][0]
    table = main["rounds"][0]["tables"][0]
    assert main["rules"]["renege_books"] == 3
    assert {h["misdeal"] for h in table["hands"]} == {False}
    assert any(p["choice"] == "redeal" for h in table["hands"] for p in h["penalties"])
    assert table["rulings"][0]["reason"] == "Slow play"
    assert len(table["signatures"]) == 2
    assert any(c["correction"] and c["reason"] == "Six books, counted again" for c in table["changes"])
    assert main["rounds"][0]["byes"] and main["rounds"][1]["status"] == "draft"
    assert main["announcements"][0]["text"] == "Lunch at noon"
    assert len(data["tournaments"]) == 2


def problem(data):
    with pytest.raises(ServiceError) as refused:
        event_import(data=data)
    return refused.value.message


def test_an_event_already_in_the_database_is_refused(full_event):
    data = event_export(full_event)
    assert problem(data) == "event.slug: an event 'spring-classic' is already in this database"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "format: expected 'bidwhist-event-archive'"),
        (lambda d: d["players"][0].update(name=" "), "players[0].name: The text is blank: it is needed here."),
        (
            lambda d: d["tournaments"][0]["teams"][1].update(players=[1, 1]),
            "tournaments[0].teams[1].players: a team is two different players",
        ),
        (
            lambda d: d["tournaments"][0]["rounds"][0]["tables"][0]["hands"][0].update(books=14),
            "tournaments[0].rounds[0].tables[0].hands[0].books: Input should be less than or equal to 13",
        ),
        (
            lambda d: d["tournaments"][0]["rounds"][0]["tables"][0].update(north_south=99),
            "tournaments[0].rounds[0].tables[0].north_south: no team number 99 in this tournament",
        ),
        (
            lambda d: d["tournaments"][0]["rules"].update(min_bid=9),
            "tournaments[0].rules: Minimum bid: 9 is outside 1 to 7",
        ),
        (
            lambda d: d["tournaments"][0]["rounds"][0]["tables"][0]["hands"][2].update(dealer="N"),
            "tournaments[0].rounds[0].tables[0]: the rules refuse this sheet",
        ),
    ],
)
def test_a_bad_archive_names_the_first_problem_and_imports_nothing(full_event, change, message):
    data = copy.deepcopy(event_export(full_event))
    full_event.delete()
    change(data)
    assert problem(data).startswith(message)
    assert not Event.objects.exists()


def test_export_and_import_commands(full_event, tmp_path):
    out = io.StringIO()
    call_command("export_event", full_event.slug, stdout=out)
    path = tmp_path / "event.json"
    path.write_text(out.getvalue())
    with pytest.raises(CommandError, match="already in this database"):
        call_command("import_event", str(path), stdout=io.StringIO())
    full_event.delete()
    out = io.StringIO()
    call_command("import_event", str(path), stdout=out)
    assert "Imported Spring Classic (2 tournaments) as /spring-classic/." in out.getvalue()
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match="not JSON: line 1"):
        call_command("import_event", str(bad), stdout=io.StringIO())


def test_directors_download_the_archive(director_client, client, full_event):
    url = reverse("director:event_archive", args=[full_event.slug])
    response = director_client.get(url)
    assert response["Content-Disposition"].startswith('attachment; filename="spring-classic-')
    assert json.loads(response.content)["event"]["name"] == "Spring Classic"
    client.logout()
    assert client.get(url).status_code == 302


def test_the_action_log_goes_round_the_archive(full_event, director):
    data = event_export(full_event)
    main = data["tournaments"][0]
    assert data["log"][0]["action"] == "event_created"
    assert {"team_registered", "round_drawn", "round_published", "announcement_posted"} <= {
        entry["action"] for entry in main["log"]
    }
    drawn = next(entry for entry in main["log"] if entry["action"] == "round_drawn")
    assert drawn["round"] == 1 and drawn["after"], "the draw as it was made"
    correction = next(c for c in main["rounds"][0]["tables"][0]["changes"] if c["correction"])
    assert (correction["actor"], correction["actor_name"]) == ("staff", director.username)
    full_event.delete()
    imported = event_import(data=data)
    assert imported.log.filter(action="event_imported").exists(), "the import itself is logged here"
    assert event_export(imported) == data, "but not written back into the archive"


def test_a_version_1_archive_still_imports(full_event, director):
    data = event_export(full_event)
    data["version"] = 1
    del data["log"]
    for tournament in data["tournaments"]:
        del tournament["log"]
        for round_ in tournament["rounds"]:
            for table in round_["tables"]:
                for change in table["changes"]:
                    change["user"] = change.pop("actor_name") or None
                    del change["actor"]
    full_event.delete()
    imported = event_import(data=data)
    changes = Table.objects.get(round__tournament__event=imported, round__number=1, number=1).changes
    assert changes.filter(correction=True, actor="staff", actor_name=director.username).exists()
    assert changes.filter(action="hand_added", actor="table").exists()


def test_a_copy_takes_free_addresses_and_new_links(full_event):
    data = event_export(full_event)
    copy = event_import(data=data, as_copy=True)
    assert copy.slug != full_event.slug
    assert copy.tournaments.get(name="Main Event").slug != "main-event"
    secrets = set(Table.objects.filter(round__tournament__event=full_event).values_list("secret", flat=True))
    assert not secrets & set(Table.objects.filter(round__tournament__event=copy).values_list("secret", flat=True))


def test_an_archive_imported_into_its_own_database_gives_clashing_teams_new_codes(full_event, tmp_path):
    data = event_export(full_event)
    data["event"]["slug"] = "spring-classic-again"
    for index, tournament in enumerate(data["tournaments"]):
        tournament["slug"] = f"again-{index}"
        for round_ in tournament["rounds"]:
            for table in round_["tables"]:
                table["secret"] = f"again-{table['secret']}"[:32]
    path = tmp_path / "again.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command("import_event", str(path), stdout=out)
    assert "6 teams had a code another team of this database holds" in out.getvalue()
    assert "Main Event team #1" in out.getvalue() and "Kitty side game team #1" in out.getvalue()
    again = Event.objects.get(slug="spring-classic-again")
    old_codes = set(full_event.tournaments.values_list("teams__code", flat=True))
    new_codes = set(again.tournaments.values_list("teams__code", flat=True))
    assert len(new_codes) == 6 and not old_codes & new_codes
    assert again.log.filter(action="event_imported", summary__contains="new codes for 6 teams").exists()


def test_the_same_event_imports_again_as_a_copy_from_the_command(full_event, tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event_export(full_event)))
    with pytest.raises(CommandError, match=r"already in this database \(to load a copy of it beside, add --copy\)"):
        call_command("import_event", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("import_event", str(path), "--copy", stdout=out)
    assert Event.objects.count() == 2 and "Imported Spring Classic (2 tournaments) as /" in out.getvalue()


def test_two_teams_of_one_archive_with_the_same_code_are_refused(full_event):
    data = event_export(full_event)
    full_event.delete()
    teams = data["tournaments"][0]["teams"]
    teams[2]["code"] = teams[0]["code"]
    assert problem(data) == "tournaments[0].teams[2].code: the same code as tournaments[0].teams[0]"


@pytest.mark.parametrize("secret", ["x", "abcdefghijklmno", "abababababababababab"])
def test_an_easily_guessed_table_link_is_refused_with_its_place(full_event, secret):
    data = event_export(full_event)
    full_event.delete()
    data["tournaments"][0]["rounds"][0]["tables"][1]["secret"] = secret
    assert problem(data).startswith("tournaments[0].rounds[0].tables[1].secret: a table's private link is 16 random")
    assert not Event.objects.exists()
