"""A series' standings computed by hand from two events with overlapping players, the series' bad input,
and statistics counted hand by hand."""

import datetime
import io
import re
from fractions import Fraction

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import round_published, text_of
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (fixture)
from tournament.errors import ServiceError
from tournament.models import Person, Player, TeamRecords
from tournament.selectors.series import series_standings_of
from tournament.selectors.standings import tournament_standings
from tournament.selectors.statistics import tournament_statistics
from tournament.services.draws import round_close
from tournament.services.events import event_create, tournament_create
from tournament.services.persons import person_update, player_link
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.series import series_create, series_tournament_add, series_tournament_remove, series_update
from tournament.services.teams import PlayerEntry, team_register


@pytest.fixture
def spring(qualified, sheet):  # noqa: F811
    """8 teams, one qualifying round won by #1, #3, #5, #7; #1 champion, #3 runner-up, #5 third, #7 fourth."""
    playoff_seed(tournament=qualified, teams=4, third_place=True)
    playoff_publish(tournament=qualified)
    for code, side in (("W1-1", "NS"), ("W1-2", "NS"), ("W2-1", "NS"), ("3P", "EW")):
        play(sheet, qualified, code, side)
    return qualified


@pytest.fixture
def fall(db, sheet):
    """Another event, no playoff: two rounds. Round 1: #1 beats #2, #3 beats #4; round 2: #1 beats #3, #4 beats #2."""
    day = datetime.date(2026, 10, 3)
    event = event_create(name="Fall Open", starts_on=day, ends_on=day)
    tournament = tournament_create(event=event, name="Open", qualifying_rounds=2)
    for first, second in (
        ("Player 0a", "Player 2a"),
        ("Player 0b", "Player 1a"),
        ("Player 4a", "New Guy"),
        ("Player 6a", "Other Guy"),
    ):
        team_register(
            tournament=tournament,
            players=[PlayerEntry(first, "Detroit"), PlayerEntry(second, "Detroit")],
            checked_in=True,
        )
    for pairs, winners in (("1 2\n3 4", ("NS", "NS")), ("1 3\n4 2", ("NS", "NS"))):
        round_ = round_published(tournament, method="manual", pairs=pairs)
        for table, winner in zip(round_.tables.order_by("number"), winners, strict=True):
            sheet.play(table, winner)
        round_close(round=round_)
    return tournament


def _link_everyone():
    for player in Player.objects.order_by("event__starts_on", "pk"):
        player_link(player=player, person=Person.objects.filter(name=player.name).first())


def test_series_standings_match_a_count_by_hand(spring, fall):
    _link_everyone()
    series = series_create(name="Tournament of Champions")
    series_tournament_add(series=series, tournament=spring)
    series_tournament_add(series=series, tournament=fall)

    standings = series_standings_of(series)
    got = [(str(row.place), row.name, row.total) for row in standings.rows if row.total]
    half = Fraction(1, 2)
    # Spring: champion 6, runner-up 3, both semifinal losers 1 (third and fourth), ½ per qualifying win.
    # Fall: no playoff, ½ per round won: #1 (0a, 2a) two, #3 (4a, New Guy) one, #4 (6a, Other Guy) one.
    assert got == [
        ("1", "Player 0a", 6 + half + 2 * half),
        ("2", "Player 0b", 6 + half),
        ("3", "Player 2a", 3 + half + 2 * half),
        ("4", "Player 2b", 3 + half),
        ("T-5", "Player 4a", 1 + half + half),
        ("T-5", "Player 6a", 1 + half + half),
        ("T-7", "Player 4b", 1 + half),
        ("T-7", "Player 6b", 1 + half),
        ("T-9", "New Guy", half),
        ("T-9", "Other Guy", half),
    ]
    zero = [row for row in standings.rows if not row.total]
    assert {str(row.place) for row in zero} == {"T-11"} and len(zero) == 8


def test_qualifying_wins_are_the_standings_own_even_with_no_records_stored(spring, fall):
    """The series counts a team's qualifying wins as its standings do; a tournament played before the standings'
    records were stored is counted from its sheets."""
    series = series_create(name="Both")
    series_tournament_add(series=series, tournament=spring)
    series_tournament_add(series=series, tournament=fall)
    before = {row.name: row.total for row in series_standings_of(series).rows}
    wins = {row.team.number: row.record.wins for row in tournament_standings(fall)}
    assert wins == {1: 2, 2: 0, 3: 1, 4: 1}
    TeamRecords.objects.filter(tournament=fall).delete()
    assert {row.name: row.total for row in series_standings_of(series).rows} == before


def test_unlinked_players_keep_their_points_and_a_hidden_person_is_a_player(spring, fall):
    series = series_create(name="Race")
    series_tournament_add(series=series, tournament=spring)
    champion = Player.objects.get(event=spring.event, name="Player 0a")
    person_update(person=player_link(player=champion), hidden=True)
    rows = {row.name: row for row in series_standings_of(series).rows}
    assert rows["a player"].total == Fraction(13, 2) and rows["a player"].person_id is None
    assert rows["Player 0b"].total == Fraction(13, 2) and not rows["Player 0b"].linked
    assert str(rows["a player"].place) == str(rows["Player 0b"].place) == "T-1"


def test_a_custom_points_table(spring):
    series = series_create(name="Heavy", points={"champion": 10, "qualifying_win": 1})
    series_tournament_add(series=series, tournament=spring)
    rows = {row.name: row.total for row in series_standings_of(series).rows}
    assert (rows["Player 0a"], rows["Player 2a"], rows["Player 1a"]) == (11, 4, 0)


def test_a_tournament_without_a_decided_playoff_gives_only_qualifying_points(qualified):  # noqa: F811
    series = series_create(name="Early")
    series_tournament_add(series=series, tournament=qualified)
    rows = {row.name: row.total for row in series_standings_of(series).rows}
    assert rows["Player 0a"] == Fraction(1, 2) and rows["Player 1a"] == 0


def test_series_bad_input_is_refused_with_nothing_written(spring):
    series = series_create(name="Once")
    series_tournament_add(series=series, tournament=spring)
    with pytest.raises(ServiceError, match="already in the series"):
        series_tournament_add(series=series, tournament=spring)
    assert series.entries.count() == 1
    with pytest.raises(ServiceError, match="already a series named"):
        series_create(name="once")
    with pytest.raises(ServiceError, match="needs a name"):
        series_create(name="  ")
    with pytest.raises(ServiceError, match="points are 0 to") as refused:
        series_update(series=series, points={"champion": -2})
    assert refused.value.field == "champion"
    series.refresh_from_db()
    assert series.points_data["champion"] == 6
    series_tournament_remove(series=series, tournament=spring)
    with pytest.raises(ServiceError, match="not in the series"):
        series_tournament_remove(series=series, tournament=spring)


def test_statistics_match_a_count_of_the_hands(table, sheet):
    """NS make 3 Uptown (+3), EW make 4 Downtown (+4), NS set on 2 (EW +2), EW make 1 No Trump (+4); EW renege twice on
    the first hand, which gives NS all 13 books: a Boston."""
    sheet.full_round(table)
    sheet.penalty(table, kind="renege", team="EW", hand=table.hands.get(sequence=1), count=2)
    sheet.sign_both(table)
    result = tournament_statistics(table.round.tournament, minimum_bids=2)
    stats = {row.team.number: row.stats for row in result.rows}
    ns, ew = stats[1], stats[2]
    assert (ns.hands, ns.bids_made, ns.bids_set, ns.no_trump_made, ns.reneges, ns.bostons) == (4, 1, 1, 0, 0, 1)
    assert ns.by_bid() == [(2, "high", 0, 1), (3, "high", 1, 0)]
    assert (ew.hands, ew.bids_made, ew.bids_set, ew.no_trump_made, ew.reneges) == (4, 2, 0, 1, 2)
    assert ew.by_bid() == [(1, "nt", 1, 0), (4, "low", 1, 0)]
    table.refresh_from_db()
    assert (ns.points, ew.points) == (table.ns_total, table.ew_total)
    awards = {award.title: [team.number for team in teams] for award, teams in result.awards}
    assert awards == {
        "Most Bostons": [1],
        "Best bid success (at least 2 bids)": [2],
        "Most no-trump bids made": [2],
    }


def test_an_unsigned_table_counts_for_nothing(table, sheet):
    sheet.full_round(table)
    result = tournament_statistics(table.round.tournament)
    assert result.rows == [] and result.awards == []


def test_the_api_answers_series_persons_and_statistics(client, spring, fall):
    _link_everyone()
    series = series_create(name="Tour")
    series_tournament_add(series=series, tournament=spring)
    series_tournament_add(series=series, tournament=fall)
    answer = client.get(f"/api/v1/series/{series.slug}").json()
    assert answer["points_table"] == {"champion": 6, "runner_up": 3, "semifinalist": 1, "qualifying_win": 0.5}
    first = answer["standings"][0]
    assert (first["label"], first["name"], first["points"]) == ("1", "Player 0a", 7.5)
    assert [entry["points"] for entry in first["by_tournament"]] == [6.5, 1.0]
    assert [row["label"] for row in answer["standings"][4:6]] == ["T-5", "T-5"]

    person = Person.objects.get(name="Player 0a")
    record = client.get(f"/api/v1/persons/{person.pk}").json()
    assert [(t["tournament"], t["place"], t["placing"]) for t in record["tournaments"]] == [
        (fall.slug, None, ""),
        (spring.slug, "1", "Champion"),
    ]
    assert record["series"] == [{"series": series.slug, "points": 7.5, "tournaments": 2}]
    # Four hands a round: spring's round 1, semifinal and final, and fall's two rounds.
    assert record["statistics"]["hands"] == 4 * 5 and "phone" not in str(record)
    person_update(person=person, hidden=True)
    assert client.get(f"/api/v1/persons/{person.pk}").status_code == 404
    hidden = client.get(f"/api/v1/series/{series.slug}").json()["standings"][0]
    assert (hidden["name"], hidden["person"]) == ("a player", None)

    stats = client.get(f"/api/v1/tournaments/{spring.slug}/statistics").json()
    assert {team["number"]: team["statistics"]["hands"] for team in stats["teams"]}[1] == 4 * 3
    assert stats["minimum_bids"] == 5 and stats["awards"]


def test_two_events_from_archives_linked_by_the_director_give_the_series(client, director, spring, fall):
    """Both events go out as archives and come back into an empty database; the director links the players
    from the suggestions on each event's page; the series standing is the one counted by hand above."""
    from tournament.models import Event
    from tournament.services.archive import event_export, event_import

    archives = [event_export(tournament.event) for tournament in (spring, fall)]
    Event.objects.all().delete()
    assert not Player.objects.exists()
    imported = [event_import(data=archive) for archive in archives]
    assert not Person.objects.exists(), "an import links nobody by itself"

    client.force_login(director)
    for event in imported:
        for player in Player.objects.filter(event=event).order_by("pk"):
            suggestions = list(Person.objects.filter(name=player.name))
            address = reverse("director:event_person_link", args=[event.slug])
            client.post(address, {"player": player.pk, "person": suggestions[0].pk if suggestions else ""})
    assert Player.objects.filter(person__isnull=True).count() == 0
    assert Person.objects.count() == 18, "16 spring players, and fall's New Guy and Other Guy"

    series = series_create(name="From archives")
    for event in imported:
        series_tournament_add(series=series, tournament=event.tournaments.get())
    top = [(str(row.place), row.name, row.total) for row in series_standings_of(series).rows[:3]]
    assert top == [
        ("1", "Player 0a", Fraction(15, 2)),
        ("2", "Player 0b", Fraction(13, 2)),
        ("3", "Player 2a", Fraction(9, 2)),
    ]


def test_nothing_across_events_leads_back_to_a_hidden_champion(client, director, spring, fall):
    """Spring's champion #1 is Player 0a and 0b; 0a is hidden. The series (page, PDF, API) keeps "a player"'s
    place and total but not the points per tournament that name team #1; 0b's page and API answer do not give
    the team whose page names 0a. The event's own team page keeps the names as registered."""
    _link_everyone()
    series = series_create(name="Tour")
    series_tournament_add(series=series, tournament=spring)
    series_tournament_add(series=series, tournament=fall)
    hidden = person_update(person=Person.objects.get(name="Player 0a"), hidden=True)
    partner = Person.objects.get(name="Player 0b")

    answer = client.get(f"/api/v1/series/{series.slug}").json()["standings"]
    first = answer[0]
    assert (first["label"], first["name"], first["points"], first["person"]) == ("1", "a player", 7.5, None)
    assert first["by_tournament"] == [], "6.5 in spring names the champion's players"
    assert [entry["points"] for entry in answer[1]["by_tournament"]] == [6.5, 0], "0b's own points stay"

    page = client.get(reverse("public:series", args=[series.slug])).content.decode()
    row = re.search(r"<tr><td>1</td>.*?</tr>", page, re.S).group(0)
    assert "a player" in row and re.findall(r'<td class="num">([^<]*)</td>', row) == ["", ""]
    assert "their points per tournament are not shown" in re.sub(r"\s+", " ", page)

    client.force_login(director)
    pdf = client.get(reverse("director:series_pdf", args=[series.slug])).content
    lines = "".join(sheet.extract_text() for sheet in PdfReader(io.BytesIO(pdf)).pages).splitlines()
    line = next(line for line in lines if line.startswith("1 "))
    assert line.split() == ["1", "a", "player", "7½"], line
    client.logout()

    team_page = reverse("public:team", args=[spring.slug, 1])
    partner_page = client.get(reverse("public:person", args=[partner.pk])).content.decode()
    assert team_page not in partner_page and "a player" in partner_page
    assert reverse("public:team", args=[fall.slug, 2]) in partner_page, "a visible partner's team keeps its link"
    record = client.get(f"/api/v1/persons/{partner.pk}").json()["tournaments"]
    assert [(row["tournament"], row["team"], row["partner"]) for row in record] == [
        (fall.slug, 2, "Player 1a"),
        (spring.slug, None, "a player"),
    ]
    assert client.get(reverse("public:person", args=[hidden.pk])).status_code == 404
    assert "Player 0a" in text_of(client.get(team_page)), "the event's own page names the team as registered"
