"""The archive's schema: every inconsistency a director could write by mistake is refused, named by its
place in the file, and nothing is written; a round trip is byte-identical."""

import copy
import io
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from tests.tournament.days.test_prize_giving import finished  # noqa: F401 (fixture)
from tests.tournament.services.archive.test_round_trip import full_event  # noqa: F401 (fixture)
from tests.tournament.services.test_playoffs import qualified  # noqa: F401 (fixture)
from tournament.errors import ServiceError
from tournament.models import Event, Tournament
from tournament.services.archive import archive_parse, event_export, event_import
from tournament.services.archive.schema import Archive
from tournament.services.draws import round_draw, round_publish

TABLE = ("tournaments", 0, "rounds", 0, "tables", 0)


def part(data, *path):
    for key in path:
        data = data[key]
    return data


def refused(data) -> str:
    with pytest.raises(ServiceError) as refusal:
        event_import(data=data)
    assert not Event.objects.exists(), "nothing is written"
    return refusal.value.message


@pytest.fixture
def archive(full_event):  # noqa: F811
    data = copy.deepcopy(event_export(full_event))
    full_event.delete()
    return data


def hands_of(data):
    return part(data, *TABLE, "hands")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["event"].update(venu="Hall B"), "event.venu: not a key of the archive (a typo?)"),
        (
            lambda d: hands_of(d)[0].update(bookz=9),
            "tournaments[0].rounds[0].tables[0].hands[0].bookz: not a key of the archive",
        ),
        (lambda d: hands_of(d)[0].update(books="9"), "tournaments[0].rounds[0].tables[0].hands[0].books: Input should"),
        (
            lambda d: part(d, *TABLE).update(hands=hands_of(d)[:2]),
            "tournaments[0].rounds[0].tables[0].locked_at: the sheet is locked after 1 hands",
        ),
        (
            lambda d: part(d, *TABLE).update(signatures=part(d, *TABLE, "signatures")[:1]),
            "tournaments[0].rounds[0].tables[0].locked_at: a locked sheet is signed by both teams",
        ),
        (
            lambda d: part(d, *TABLE, "signatures")[0].update(player=part(d, *TABLE, "signatures")[1]["player"]),
            "tournaments[0].rounds[0].tables[0].signatures[0].player: ",
        ),
        (
            lambda d: part(d, "tournaments", 0, "rounds", 1, "tables", 0).update(hands=hands_of(d)[:1]),
            "tournaments[0].rounds[1].tables[0]: a table of a draft round has no sheet yet",
        ),
        (
            lambda d: hands_of(d)[3].update(trump_suit="hearts"),
            "tournaments[0].rounds[0].tables[0].hands[3].trump_suit: a no-trump bid has no trump suit",
        ),
        (
            lambda d: d["tournaments"][1].update(name=d["tournaments"][0]["name"]),
            "tournaments[1].name: the same name as tournaments[0]",
        ),
        (lambda d: d["players"].append(dict(d["players"][0])), ".id: player id 1 is used twice"),
        (lambda d: hands_of(d)[0].update(bid_level=8), "hands[0].bid_level: Input should be less than or equal to 7"),
        (lambda d: hands_of(d)[0].update(dealer="X"), "hands[0].dealer: Input should be 'N', 'E', 'S' or 'W'"),
        (lambda d: d["players"][0].update(name="x" * 121), "players[0].name: String should have at most 120"),
    ],
)
def test_an_inconsistent_archive_is_refused_where_it_is_wrong(archive, change, message):
    change(archive)
    assert message in refused(archive)


def sit_out(data, team: int, round_number: int) -> None:
    data["tournaments"][0]["sit_outs"].append({"team": team, "round": round_number, "reason": "Late flight"})


PERSON = {"id": 1, "key": "6f1c2a5e-1b7d-4c8e-9a3f-2d4b5c6e7f80", "name": "Alma Wallace"}


def person(data, **given) -> None:
    data["persons"].append({**PERSON, **given})
    data["players"][0]["person"] = 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: sit_out(d, 1, 1),
            "tournaments[0].sit_outs[0].round: team 1 plays round 1: a team sits out a round only when marked before",
        ),
        (lambda d: sit_out(d, 2, 1), "tournaments[0].sit_outs[0].round: team 2 plays round 1"),  # its bye
        (lambda d: sit_out(d, 5, 2), "tournaments[0].sit_outs[0].round: team 5 plays round 2"),  # drawn, a draft
        (lambda d: sit_out(d, 1, 5), "tournaments[0].sit_outs[0].round: round 5 is not one of the 4 qualifying ones"),
        (lambda d: [sit_out(d, 1, 3), sit_out(d, 1, 3)], "tournaments[0].sit_outs[1]: team 1 sits out round 3 twice"),
        (lambda d: person(d, name="   "), "persons[0].name: The text is blank: it is needed here."),
        (
            lambda d: person(d, name="\u202eecallaW amlA"),
            "persons[0].name: The text holds an invisible character (U+202E RIGHT-TO-LEFT OVERRIDE) that reverses",
        ),
        (lambda d: person(d, city="Reno\u200b"), "persons[0].city: The text holds an invisible character (U+200B"),
        (
            lambda d: d["players"][0].update(name="Ann\u2066Lee"),
            "players[0].name: The text holds an invisible character (U+2066",
        ),
        (
            lambda d: d["tournaments"][0]["teams"][0].update(name="\ufeffAces"),
            "tournaments[0].teams[0].name: The text holds an invisible character (U+FEFF",
        ),
        (
            lambda d: d["tournaments"][0]["announcements"][0].update(text="Lunch\x1b[2J"),
            "tournaments[0].announcements[0].text: The text holds a character that is not text (U+001B)",
        ),
        (
            lambda d: part(d, *TABLE, "rulings")[0].update(reason="Slow\u200fplay"),
            "tournaments[0].rounds[0].tables[0].rulings[0].reason: The text holds an invisible character (U+200F",
        ),
    ],
)
def test_a_sit_out_for_a_round_drawn_or_a_name_that_hides_text_is_refused_where_it_is(archive, change, message):
    change(archive)
    assert message in refused(archive)


def test_a_sit_out_marked_before_its_round_is_drawn_and_a_name_in_any_script_are_imported(archive):
    sit_out(archive, 1, 3)
    person(archive, name="محمد علي")
    archive["players"][1]["name"] = "דוד כהן"
    event = event_import(data=archive)
    tournament = event.tournaments.get(slug=archive["tournaments"][0]["slug"])
    assert list(tournament.sit_outs.values_list("team__number", "round_number")) == [(1, 3)]
    assert event.players.filter(name="דוד כהן").exists()
    assert event.players.get(name=archive["players"][0]["name"]).person.name == "محمد علي"


def test_deeply_nested_or_oversized_input_is_refused(archive):
    deep = []
    for _ in range(5000):
        deep = [deep]
    archive["tournaments"][0]["log"][0]["before"] = deep
    assert "nested too deeply" in refused(archive)
    with pytest.raises(ServiceError, match="not JSON an event archive can hold"):
        archive_parse("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ServiceError, match="larger than 64 MB"):
        archive_parse(b" " * (64 * 1024 * 1024 + 1))
    with pytest.raises(ServiceError, match="not JSON: line 1"):
        archive_parse("{nope")


def test_a_playoff_table_whose_teams_are_not_the_matchs_is_refused(finished):  # noqa: F811
    data = copy.deepcopy(event_export(finished.event))
    finished.event.delete()
    final = next(
        table
        for round_ in data["tournaments"][0]["rounds"]
        for table in round_["tables"]
        if table["playoff_match"] == "W2-1"
    )
    third = next(
        table
        for round_ in data["tournaments"][0]["rounds"]
        for table in round_["tables"]
        if table["playoff_match"] == "3P"
    )
    final["north_south"], third["north_south"] = third["north_south"], final["north_south"]
    final_ns, third_ns = (next(s for s in table["signatures"] if s["pair"] == "NS") for table in (final, third))
    final_ns["player"], third_ns["player"] = third_ns["player"], final_ns["player"]
    message = refused(data)
    assert message.endswith("playoff_match: Third-place match (3P) is played by #7 and #5; this table seats #1 and #5")


def test_a_round_trip_keeps_playoff_round_names_and_placings(finished):  # noqa: F811
    text = json.dumps(event_export(finished.event), indent=1, ensure_ascii=False)
    finished.event.delete()
    imported = event_import(data=json.loads(text))
    tournament = imported.tournaments.get()
    assert {r.title for r in tournament.rounds.filter(kind="playoff")} == {"Semifinal", "Final · Third-place match"}
    assert json.dumps(event_export(imported), indent=1, ensure_ascii=False) == text


def export_text(event) -> str:
    out = io.StringIO()
    call_command("export_event", event.slug, stdout=out)
    return out.getvalue()


def assert_round_trip_identical(event, tmp_path):
    """The event exported, deleted and imported by the command exports byte for byte the same again."""
    first = export_text(event)
    path = tmp_path / "event.json"
    path.write_text(first, encoding="utf-8")
    event.delete()
    call_command("import_event", str(path), stdout=io.StringIO())
    assert export_text(Event.objects.get()) == first


def test_the_demo_event_round_trip_is_byte_identical(db, tmp_path):
    demo = json.loads((Path(settings.BASE_DIR) / "fixtures" / "demo-event.json").read_text(encoding="utf-8"))
    event = event_import(data=demo)
    assert_round_trip_identical(event, tmp_path)


def test_a_64_team_event_round_trip_is_byte_identical(event, make_teams, sheet, tmp_path):
    tournament = Tournament.objects.create(event=event, name="Big", slug="big")
    make_teams(tournament, 64)
    for number in (1, 2):
        round_ = round_publish(
            round=round_draw(tournament=tournament, method="random" if number == 1 else "swiss", seed=3)
        )
        for table in round_.tables.all():
            sheet.play(table, "NS" if table.number % 3 else "tie")
    assert_round_trip_identical(event, tmp_path)


def test_the_docs_show_the_schema_the_import_uses():
    page = (Path(settings.BASE_DIR) / "docs" / "archive.md").read_text(encoding="utf-8")
    shown = re.search(r"## JSON Schema\n.*?```json\n(.*?)```", page, re.S).group(1)
    assert json.loads(shown) == Archive.model_json_schema(), "run manage.py archive_schema into docs/archive.md"


def leaves(data, path=()):
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from leaves(value, (*path, index))
    else:
        yield path


NASTY = [None, -1, 10**20, "", "\x00", [], {}, True, "2026-13-45"]


def test_any_value_anywhere_is_refused_plainly_or_loaded(archive):
    """No archive a director could edit by hand ends in a traceback or a half-written event."""
    paths = list(leaves(archive))
    for path in paths[:: max(1, len(paths) // 40)]:
        for value in NASTY:
            data = copy.deepcopy(archive)
            part(data, *path[:-1])[path[-1]] = value
            try:
                event = event_import(data=data)
            except ServiceError:
                assert not Event.objects.exists(), (path, value)
            else:
                event.delete()
