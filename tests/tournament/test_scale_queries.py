"""Every page and write costs a fixed number of queries whatever the size of the field: pages at 8 and 512
teams, the bracket at 4 and 64 seeds, a draw and the archive export at 8 and 512 teams."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import round_published
from tournament.services.archive import event_export
from tournament.services.draws import round_draw
from tournament.services.events import event_create, tournament_create
from tournament.services.playoffs import playoff_publish, playoff_seed

# Saving a hand from the phone's queue: the table, the probe for a repeated entry, the locked table, the hand,
# the sheet, the hand's results, the table's results with the sheet's version, the log (the first hand also names
# the dealer), and the phone's session keeping its offer to undo the hand (its row read and written, in a
# savepoint); nothing of the tournament's. On PostgreSQL one more: the round, tournament and event held against
# change (FOR KEY SHARE) while only the table is locked for update.
SAVE_QUERIES = 17


def queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def statements(call) -> tuple[int, int]:
    """The queries other than bulk inserts, and the bulk inserts (SQLite splits one into batches of 999
    values, so their number grows by one per batch; PostgreSQL sends one)."""
    with CaptureQueriesContext(connection) as captured:
        call()
    inserts = sum(1 for query in captured.captured_queries if query["sql"].startswith("INSERT"))
    return len(captured) - inserts, inserts


def fields(event, big_field, sizes, **options):
    for size in sizes:
        tournament = tournament_create(event=event, name=f"Field of {size}")
        big_field(tournament, size, **options)
        yield size, tournament


@pytest.mark.parametrize("path", ["bracket", "projector", "api"])
def test_the_bracket_costs_the_same_at_4_and_64_seeds(client, director_client, event, big_field, path):
    counts = []
    for seeds, tournament in fields(event, big_field, (8, 128)):
        tournament.qualifying_rounds = 1
        tournament.save()
        playoff_seed(tournament=tournament, teams=seeds // 2)
        playoff_publish(tournament=tournament)
        if path == "api":
            address = f"/api/v1/tournaments/{tournament.slug}/bracket"
        else:
            address = reverse(f"public:{path}", args=[tournament.slug])
        counts.append(queries(lambda address=address: client.get(address)))
        counts.append(queries(lambda t=tournament: director_client.get(reverse("director:playoffs", args=[t.slug]))))
    assert counts[:2] == counts[2:], counts


@pytest.mark.parametrize("path", ["standings", "rounds", "rounds/1", "teams", "teams/1", "placings"])
def test_the_api_costs_the_same_at_8_and_512_teams(client, event, big_field, path):
    counts = []
    for _, tournament in fields(event, big_field, (8, 512)):
        counts.append(queries(lambda t=tournament: client.get(f"/api/v1/tournaments/{t.slug}/{path}")))
    assert counts[0] == counts[1], counts


def test_a_draw_and_the_archive_cost_the_same_at_8_and_512_teams(event, big_field):
    draws, exports = [], []
    for size in (8, 512):
        day = datetime.date(2026, 5, 1)
        own = event_create(name=f"Event of {size}", starts_on=day, ends_on=day)
        tournament = tournament_create(event=own, name="Main")
        big_field(tournament, size, rounds=2)
        draws.append(statements(lambda t=tournament: round_draw(tournament=t, method="swiss")))
        exports.append(queries(lambda e=own: event_export(e)))
    assert draws[0][0] == draws[1][0], draws
    assert draws[1][1] <= 12, f"256 tables and their 512 seatings in a few bulk inserts, not one each: {draws}"
    assert exports[0] == exports[1], exports


def test_the_table_page_costs_the_same_at_8_and_512_teams(client, event, big_field):
    counts = []
    for _, tournament in fields(event, big_field, (8, 512)):
        table = tournament.rounds.get(number=1).tables.order_by("number").last()
        counts.append(queries(lambda t=table: client.get(reverse("table", args=[t.secret]))))
    assert counts[0] == counts[1], counts


def test_saving_a_hand_costs_the_same_at_8_and_512_teams(client, event, big_field):
    """A phone's queued hand: the table and its seats are read, the one table rescored, nothing else."""
    counts = []
    for _, tournament in fields(event, big_field, (8, 512)):
        table = round_published(tournament, method="swiss").tables.order_by("number").last()
        address = reverse("table_hand_sync", args=[table.secret])
        for number, dealer in enumerate("NE", start=1):
            data = {"hand-version": number - 1, "hand-dealer": dealer, "hand-bidder": "N", "hand-bid": "3:high"}
            data |= {"hand-books": "9", "entry_id": f"entry-{number}"}
            counts.append(queries(lambda data=data, address=address: client.post(address, data)))
        assert table.hands.count() == 2
    held = 1 if connection.vendor == "postgresql" else 0
    assert counts[:2] == counts[2:] and max(counts) <= SAVE_QUERIES + held, counts


def test_registering_a_team_costs_the_same_at_8_and_512_teams(event, big_field):
    """Team by team through the services: the same queries for the 9th team and the 513th."""
    from tournament.services.teams import PlayerEntry, team_register

    counts = []
    for size, tournament in fields(event, big_field, (8, 512)):
        players = [PlayerEntry(f"Late {size}a", "Gary"), PlayerEntry(f"Late {size}b", "Gary", "555-0100")]
        counts.append(queries(lambda t=tournament, p=players: team_register(tournament=t, players=p)))
    assert counts[0] == counts[1]


def test_finding_a_registered_player_is_an_index_probe_not_a_scan(event, big_field):
    """The lookup of a typed player (letter case aside) uses the index of the event's unique names, so a
    registration in a field of 2,048 teams does not read the whole field (as a case-blind LIKE would), nor
    sort what it found."""
    from tournament.factories import CITIES
    from tournament.models import Player
    from tournament.services.teams.entries import PlayerEntry, player_found

    tournament = tournament_create(event=event, name="Open")
    big_field(tournament, 512)
    with CaptureQueriesContext(connection) as captured:
        found = player_found(tournament, PlayerEntry(f"{tournament.slug.upper()} 3A", CITIES[3].upper()))
    assert found == Player.objects.get(event=event, name=f"{tournament.slug} 3a")
    (lookup,) = captured.captured_queries
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ANALYZE tournament_player")
            cursor.execute("EXPLAIN " + lookup["sql"])
        else:
            cursor.execute("EXPLAIN QUERY PLAN " + lookup["sql"])
        plan = " ".join(str(part) for row in cursor.fetchall() for part in row)
    assert "player_unique_name_city_in_event" in plan and "Sort" not in plan and "ORDER BY" not in lookup["sql"], plan


def test_importing_an_archive_costs_the_same_at_8_and_64_teams(db):
    """Every sheet played (4 hands each, signed), two rounds: the import's queries do not grow with the
    field; SQLite alone splits a bulk insert (and the kept times' updates) into batches of 999 values."""
    import json

    from bench.fields import field_build
    from tournament.services.archive import event_import

    counts = []
    for size in (8, 64):
        tournament = field_build(teams=size, rounds=2, name=f"Field {size}")
        data = json.loads(json.dumps(event_export(tournament.event)))
        tournament.event.delete()
        counts.append(statements(lambda data=data: event_import(data=data)))
    (others_small, inserts_small), (others_large, inserts_large) = counts
    assert others_small == others_large, counts
    if connection.vendor == "postgresql":
        assert inserts_small == inserts_large, counts
    assert inserts_large <= inserts_small + 12, f"32 tables, 128 hands, 64 signatures in a few inserts: {counts}"
