"""Every form, the CSV importer and the table link's POSTs, fed hostile values: never a server error, never
anything half-written. Runs on SQLite and on PostgreSQL (CI runs the suite on both)."""

from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tests.conftest import main_event, round_published, spring_classic
from tournament.models import Person, Table, Team, Tournament
from tournament.services.log import Actor
from tournament.services.recompute import table_recompute
from tournament.services.series import series_create
from tournament.services.sheets import ChangeContext

NASTY = [
    "",
    " ",
    "-1",
    "0",
    "2147483648",
    "99999999999999999999999",
    "1e3",
    "1e26",
    "1E+100",
    "²",
    "١٢",
    "\x00",
    "a\x00b",
    "x" * 10_000,
    "\u202egnp.exe",
    "🂡🂱♠",
    "<script>alert(1)</script>",
    '=HYPERLINK("http://evil.example")',
]


@pytest.fixture(scope="module")
def field_played(module_transaction, django_db_blocker, make_teams, sheet):
    """Four teams; round 1 published: table 1 has two hands (one with a penalty), table 2 is complete. Played once
    a module (each test's writes are rolled back); its tournament's key."""
    with django_db_blocker.unblock():
        tournament = main_event(spring_classic())
        make_teams(tournament, 4)
        round_1 = round_published(tournament)
        busy, done = round_1.tables.order_by("number")
        sheet.hand(busy, "N", "N", 3, "high", 9)
        sheet.hand(busy, "E", "E", 2, "low", 8)
        sheet.penalty(busy, kind="exposed_card", team="NS", hand=busy.hands.get(sequence=1))
        sheet.full_round(done)
        return tournament.pk


@pytest.fixture
def field(field_played, director):
    return Tournament.objects.get(pk=field_played)


def version(table):
    table.refresh_from_db()
    return table.version


def director_forms(tournament):
    slug, event = tournament.slug, tournament.event.slug
    team = tournament.teams.get(number=1)
    person, _ = Person.objects.get_or_create(name="Ann Lee", city="Reno")
    return {
        "event_create": (
            reverse("director:event_create"),
            {"name": "Fall", "starts_on": "2026-10-01", "ends_on": "2026-10-02"},
        ),
        "event_edit": (
            reverse("director:event_edit", args=[event]),
            {"name": "Spring", "venue": "Hall", "starts_on": "2026-05-01", "ends_on": "2026-05-03"},
        ),
        "tournament_create": (
            reverse("director:tournament_create", args=[event]),
            {
                "name": "Side",
                "preset": "tournament",
                "qualifying_rounds": "3",
                "paper_size": "letter",
                "standings_order": tournament.standings_order,
                "avoid_same_city_rounds": "2",
            },
        ),
        "tournament_edit": (
            reverse("director:tournament_edit", args=[slug]),
            {
                "name": "Main Event",
                "qualifying_rounds": "4",
                "paper_size": "a4",
                "standings_order": tournament.standings_order,
                "avoid_same_city_rounds": "1",
            },
        ),
        "tournament_rules": (
            reverse("director:tournament_rules", args=[slug]),
            {"deal": "straight", "min_bid": "1", "no_trump_multiplier": "2", "hands_per_round": "4", "preset": ""},
        ),
        "team_create": (
            reverse("director:team_create", args=[slug]),
            {"player1_name": "Ann", "player2_name": "Bo", "number": "40", "city": "Reno", "next": "/manage/"},
        ),
        "team_edit": (
            reverse("director:team_edit", args=[slug, team.number]),
            {"player1_name": "Player 0a", "player1_city": "Detroit", "player2_name": "Player 0b", "number": "1"},
        ),
        "desk_action": (reverse("director:desk_action", args=[slug, team.number]), {"action": "fee_paid", "q": "x"}),
        "desk_check_in": (reverse("director:desk_check_in", args=[slug]), {"teams": "1", "shown": "2", "q": "x"}),
        "round_new": (
            reverse("director:round_new", args=[slug]),
            {"method": "manual", "seed": "4", "pairs": "1 3\n2 4", "override_unsigned": "on"},
        ),
        "round_swap": (reverse("director:round_swap", args=[slug, 1]), {"team_a": str(team.number), "team_b": "2"}),
        "round_move": (reverse("director:round_move", args=[slug, 1]), {"team": str(team.number), "table_number": "3"}),
        "announcements": (reverse("director:announcements", args=[slug]), {"text": "Lunch", "hours": "2"}),
        "playoffs_seed": (reverse("director:playoffs_seed", args=[slug]), {"teams": "4", "third_place": "on"}),
        "playoffs_swap": (reverse("director:playoffs_swap", args=[slug]), {"seed_a": "1", "seed_b": "2"}),
        "lockout_remove": (reverse("director:lockout_remove"), {"ip_address": "10.0.0.1", "username": "x"}),
        "code_pause_lift": (reverse("director:code_pause_lift"), {"pause": "1"}),
        "team_code_new": (reverse("director:team_code_new", args=[slug, team.number]), {"unused": "x"}),
        "money_settings": (
            reverse("director:money_settings", args=[slug]),
            {
                "entry_fee": "20",
                "side_pot_fee": "5",
                "house_percent": "10",
                "payout_percents": "50, 30, 20",
                "side_pot_rule": "placing",
            },
        ),
        "payment_add": (
            reverse("director:payment_add", args=[slug, team.number]),
            {"amount": "20", "method": "cash", "pot": "entry"},
        ),
        "refund_add": (
            reverse("director:refund_add", args=[slug, team.number]),
            {"amount": "5", "method": "cash", "pot": "entry", "reason": "Left early"},
        ),
        "payout_pay": (reverse("director:payout_pay", args=[slug]), {"team": "1", "pot": "entry"}),
        "sit_out": (reverse("director:sit_out", args=[slug]), {"team": "3", "reason": "Late flight"}),
        "substitute_add": (
            reverse("director:substitute_add", args=[slug, 1]),
            {"replaces": str(team.members[0].player_id), "name": "Cy Young", "reason": "Ill"},
        ),
        "table_forfeit": (
            reverse("director:table_forfeit", args=[slug, 1, 1]),
            {"absent": "NS", "early": "on", "reason": "Not here"},
        ),
        "person_edit": (reverse("director:person_edit", args=[person.pk]), {"name": "Ann Lee", "city": "Reno"}),
        "event_persons_link_all": (
            reverse("director:event_persons_link_all", args=[event]),
            {"which": "new"},
        ),
        "series_create": (
            reverse("director:series"),
            {"name": "Circuit", "champion": "6", "runner_up": "3", "semifinalist": "1", "qualifying_win": "0.5"},
        ),
    }


def table_forms(tournament):
    busy, done = Table.objects.filter(round__tournament=tournament).order_by("number")
    penalty = busy.penalties.get()
    hand = {
        "hand-dealer": "S",
        "hand-bidder": "S",
        "hand-bid": "2:high",
        "hand-suit": "clubs",
        "hand-out_of_turn": "",
        "hand-books": "8",
        "hand-direction": "",
        "hand-reason": "",
    }
    ns = done.team_at("NS").members[0].player
    return {
        "hand_add": (
            reverse("table_hand_add", args=[busy.secret]),
            {**hand, "hand-version": version(busy), "hand-confirm": "on"},
        ),
        "hand_check": (
            reverse("table_hand_add", args=[busy.secret]),
            {**hand, "hand-version": version(busy), "hand-confirm": ""},
        ),
        "hand_sync": (
            reverse("table_hand_sync", args=[busy.secret]),
            {**hand, "hand-version": version(busy), "entry_id": "0123456789abcdef"},
        ),
        "hand_preview": (reverse("table_hand_preview", args=[busy.secret]), {**hand, "hand-version": version(busy)}),
        "undo": (reverse("table_undo", args=[busy.secret]), {"version": version(busy)}),
        "hand_undo": (reverse("table_hand_undo", args=[busy.secret]), {"version": version(busy)}),
        "hand_edit": (
            reverse("table_hand_edit", args=[busy.secret, 2]),
            {**hand, "hand-dealer": "E", "hand-version": version(busy)},
        ),
        "hand_remove": (reverse("table_hand_remove", args=[busy.secret, 2]), {"version": version(busy), "reason": ""}),
        "redeal": (
            reverse("table_redeal", args=[busy.secret]),
            {
                "redeal-version": version(busy),
                "redeal-dealer": "S",
                "redeal-reason": "deal_out_of_turn",
                "redeal-team": "NS",
            },
        ),
        "penalty": (
            reverse("table_penalty_add", args=[busy.secret]),
            {
                "penalty-version": version(busy),
                "penalty-hand": "1",
                "penalty-kind": "renege",
                "penalty-team": "EW",
                "penalty-count": "2",
                "penalty-choice": "",
                "penalty-points": "3",
                "penalty-reason": "",
            },
        ),
        "penalty_remove": (reverse("table_penalty_remove", args=[busy.secret, penalty.pk]), {"version": version(busy)}),
        "first_dealer": (
            reverse("table_first_dealer", args=[busy.secret]),
            {"first-version": version(busy), "first-seat": "W"},
        ),
        "sign": (
            reverse("table_sign", args=[done.secret]),
            {"sign-NS-version": version(done), "sign-NS-pair": "NS", "sign-NS-player": str(ns.pk)},
        ),
        "dispute": (
            reverse("table_dispute", args=[done.secret]),
            {"dispute-version": version(done), "dispute-pair": "EW", "dispute-note": "Hand 2"},
        ),
        "settle": (
            reverse("table_settle", args=[done.secret]),
            {"settle-version": version(done), "settle-reason": "ok"},
        ),
        "hand_accept": (reverse("table_hand_accept", args=[busy.secret, 1]), {"version": version(busy), "code": "X"}),
        "entries_settle": (
            reverse("table_entries_settle", args=[busy.secret]),
            {"entries-version": version(busy), "entries-keep": "NS", "entries-reason": "r"},
        ),
    }


def consistent(tournament):
    """Nothing half-written: stored scores are what the engine makes of the entries; teams have two players."""
    for table in Table.objects.filter(round__tournament=tournament):
        with transaction.atomic():
            assert table_recompute(table) == {}, table
            transaction.set_rollback(True)
    assert all(team.memberships.count() == 2 for team in Team.objects.filter(tournament=tournament))


def hammer(client, url, base):
    for name in base:
        for value in NASTY:
            response = client.post(url, {**base, name: value})
            assert response.status_code < 500, (url, name, value[:30])


DIRECTOR_FORMS = [
    "event_create",
    "event_edit",
    "tournament_create",
    "tournament_edit",
    "tournament_rules",
    "team_create",
    "team_edit",
    "desk_action",
    "desk_check_in",
    "round_new",
    "round_swap",
    "round_move",
    "announcements",
    "playoffs_seed",
    "playoffs_swap",
    "lockout_remove",
    "code_pause_lift",
    "team_code_new",
    "money_settings",
    "payment_add",
    "refund_add",
    "payout_pay",
    "sit_out",
    "substitute_add",
    "table_forfeit",
    "person_edit",
    "event_persons_link_all",
    "series_create",
]
TABLE_FORMS = [
    "hand_add",
    "hand_check",
    "hand_sync",
    "hand_preview",
    "undo",
    "hand_undo",
    "hand_edit",
    "hand_remove",
    "redeal",
    "penalty",
    "penalty_remove",
    "first_dealer",
    "sign",
    "dispute",
    "settle",
    "hand_accept",
    "entries_settle",
]
TEAM_FORMS = ["open", "sign", "enter", "redeal", "accept"]


def team_forms(tournament, client):
    """The team page's forms, on a phone that opened team #1's page (double entry, so every form applies)."""
    Tournament.objects.filter(pk=tournament.pk).update(sheet_mode=Tournament.SheetMode.DOUBLE)
    team = tournament.teams.get(number=1)
    client.post(reverse("team_open"), {"code": team.code})
    table = Table.objects.filter(round__tournament=tournament).order_by("number").first()
    page = reverse("team_page", args=[team.pk])
    hand = {"dealer": "S", "bidder": "S", "bid": "2:high", "suit": "clubs", "books": "8"}
    return {
        "open": (reverse("team_open"), {"code": team.code}),
        "sign": (page + "sign/", {"version": version(table), "player": str(team.memberships.first().player_id)}),
        "enter": (page + "enter/", {"enter-version": version(table), **{f"enter-{k}": v for k, v in hand.items()}}),
        "redeal": (
            page + "redeal/",
            {"redeal-version": version(table), "redeal-dealer": "S", "redeal-redeal_reason": "misdeal"},
        ),
        "accept": (page + "accept/1/", {"version": version(table)}),
    }


@pytest.mark.parametrize("form", TEAM_FORMS)
def test_team_page_posts_take_any_value_without_a_server_error(client, field, form):
    url, base = team_forms(field, client)[form]
    hammer(client, url, base)
    consistent(field)


def test_every_form_is_hammered(field):
    """A form added to the app must be added here too."""
    assert sorted(director_forms(field)) == sorted(DIRECTOR_FORMS)
    assert sorted(table_forms(field)) == sorted(TABLE_FORMS)


@pytest.mark.parametrize("form", DIRECTOR_FORMS)
def test_director_forms_take_any_value_without_a_server_error(director_client, field, form):
    url, base = director_forms(field)[form]
    hammer(director_client, url, base)
    consistent(field)


@pytest.mark.parametrize("form", TABLE_FORMS)
@pytest.mark.parametrize("who", ["table link", "scorekeeper"])
def test_table_link_posts_take_any_value_without_a_server_error(client, scorekeeper, field, form, who):
    if who == "scorekeeper":
        client.force_login(scorekeeper)
    url, base = table_forms(field)[form]
    hammer(client, url, base)
    consistent(field)


def test_query_strings_take_any_value_without_a_server_error(director_client, field):
    slug = field.slug
    pages = [
        (reverse("director:desk", args=[slug]), ["q"]),
        (reverse("director:log", args=[slug]), ["round", "team", "page"]),
        (reverse("public:draw", args=[slug]), ["q"]),
        (reverse("public:standings", args=[slug]), ["sort", "_export"]),
        (reverse("director:teams", args=[slug]), ["sort", "_export"]),
        (reverse("director:round_sheets_pdf", args=[slug, 1]), ["blank"]),
        (reverse("director:round_live", args=[slug, 1]), ["quiet"]),
        (reverse("director:checkin_slips", args=[slug]), ["team"]),
        (reverse("director:persons"), ["q"]),
        (reverse("public:standings", args=[slug]), ["team"]),
        (reverse("public:bracket", args=[slug]), ["team"]),
        (reverse("public:projector", args=[slug]), ["seconds"]),
    ]
    for url, names in pages:
        for name in names:
            for value in NASTY:
                assert director_client.get(url, {name: value}).status_code < 500, (url, name, value[:30])


@pytest.mark.parametrize(
    "path",
    ["/table/ab%00cd/", "/table/%E2%80%AE/", "/table/" + "a" * 5000 + "/", "/t/%00/standings/", "/manage/t/%00/"],
)
def test_malformed_addresses_are_not_found(director_client, db, path):
    assert director_client.get(path).status_code == 404


API_PATHS = [
    "/api/v1/events",
    "/api/v1/events/{slug}",
    "/api/v1/persons/{person_id}",
    "/api/v1/series/{slug}",
    "/api/v1/tournaments/{slug}",
    "/api/v1/tournaments/{slug}/announcements",
    "/api/v1/tournaments/{slug}/bracket",
    "/api/v1/tournaments/{slug}/placings",
    "/api/v1/tournaments/{slug}/rounds",
    "/api/v1/tournaments/{slug}/rounds/{number}",
    "/api/v1/tournaments/{slug}/standings",
    "/api/v1/tournaments/{slug}/statistics",
    "/api/v1/tournaments/{slug}/teams",
    "/api/v1/tournaments/{slug}/teams/{number}",
]


def api_addresses(tournament) -> dict[str, dict[str, str]]:
    """Each API path's parameters as a real record's: every address answers with them (the placings once decided)."""
    person = Person.objects.create(name="Ann Lee", city="Reno")
    series = series_create(name="Circuit")
    addresses = {}
    for path in API_PATHS:
        slug = tournament.event.slug if "/events/" in path else series.slug if "/series/" in path else tournament.slug
        addresses[path] = {"slug": slug, "number": "1", "person_id": str(person.pk)}
    return addresses


def test_every_api_path_is_hammered(client, db):
    """A path added to the API must be added here too."""
    assert sorted(client.get("/api/v1/openapi.json").json()["paths"]) == sorted(API_PATHS)


@pytest.mark.parametrize("path", [path for path in API_PATHS if "{" in path])
def test_api_addresses_take_any_value_as_the_apis_not_found(client, field, path):
    """A slug or a number that is none (NUL, "abc", "1.5", "1e9", a negative, 10^42...) is the API's 404 with its
    JSON error, on SQLite and on PostgreSQL; each parameter is hammered with the others real."""
    real = api_addresses(field)[path]
    undecided = path.endswith("/placings")  # the field has no playoff: no placings yet
    assert client.get(path.format(**real)).status_code == (404 if undecided else 200), path
    not_found = client.get("/api/v1/tournaments/nothing-here").json()
    for name in [name for name in real if "{" + name + "}" in path]:
        for value in [*NASTY, "10" + "0" * 41, "1.5", "abc", "a%b", "-7"]:
            if not value:
                continue  # no value is another address: /teams/ is not /teams/{number}
            response = client.get(path.format(**{**real, name: quote(value, safe="")}))
            assert response.status_code == 404, (path, name, value[:30], response.status_code)
            if "/" not in value:  # a slash makes another address, which is not the API's
                assert response.json() == not_found, (path, name, value[:30])


def test_next_only_redirects_within_the_site(director_client, tournament):
    url = reverse("director:team_create", args=[tournament.slug])
    for target in ("https://evil.example/", "//evil.example/", "javascript:alert(1)", "/manage/\x00"):
        response = director_client.post(
            url, {"player1_name": f"A{len(target)}", "player2_name": f"B{len(target)}", "next": target}
        )
        location = response["Location"]
        assert response.status_code == 302 and location.startswith("/") and not location.startswith("//"), location
        assert "evil" not in location and "javascript" not in location
    login = Client().get(reverse("login"), {"next": "https://evil.example/"})
    assert 'name="next" value=""' in login.content.decode(), "the login page drops a next page elsewhere"


CSV_HEADER = "player1,player1_city,player1_phone,player2,player2_city,team_name,team_city,team_number,fee_paid"


@pytest.mark.parametrize("column", CSV_HEADER.split(","))
def test_the_csv_importer_takes_any_value_without_a_server_error(director_client, tournament, column):
    good = {"player1": "Ann Lee", "player2": "Bo Jones", "team_number": "7", "fee_paid": "yes"}
    url = reverse("director:team_import", args=[tournament.slug])
    for value in NASTY:
        row = {**good, column: value.replace('"', '""')}
        line = ",".join(f'"{row.get(name, "")}"' for name in CSV_HEADER.split(","))
        upload = SimpleUploadedFile("teams.csv", f"{CSV_HEADER}\n{line}\n".encode())
        response = director_client.post(url, {"file": upload})
        assert response.status_code < 500, (column, value[:30])
        tournament.teams.all().delete()


def test_every_problem_of_a_csv_line_is_reported(tournament):
    from tournament.errors import ImportRejected
    from tournament.services.teams import teams_import_csv

    line = "A\x00nn,Detroit," + "9" * 50 + ",Bo," + "x" * 200 + ",,,²,maybe"
    with pytest.raises(ImportRejected) as rejected:
        teams_import_csv(tournament=tournament, text=f"{CSV_HEADER}\n{line}\n")
    problems = [message for _, message in rejected.value.problems]
    assert "The first player's name holds a character that is not text (U+0000)." in problems
    assert "The first player's phone is longer than 40 characters." in problems
    assert "The second player's city is longer than 120 characters." in problems
    assert "The team number must be a whole number, not '²'." in problems
    assert "The fee_paid column must be yes or no, not 'maybe'." in problems
    with pytest.raises(ImportRejected) as huge:
        teams_import_csv(tournament=tournament, text=f"{CSV_HEADER}\nAnn,,,Bo,,,,{10**23},\n")
    assert huge.value.problems == [(2, "The team number must be a whole number, not '10000000000000000000'.")]
    assert not tournament.teams.exists()


def test_numbers_are_bounded_to_what_both_databases_store(director_client, tournament, make_teams, sheet, director):
    from tournament.errors import ServiceError
    from tournament.services.sheets import penalty_add
    from tournament.services.teams import PlayerEntry, team_register

    with pytest.raises(ServiceError, match="Team numbers are 1 to 9999"):
        team_register(tournament=tournament, players=[PlayerEntry("A"), PlayerEntry("B")], number=10**23)
    make_teams(tournament, 2)
    table = round_published(tournament).tables.get()
    with pytest.raises(ServiceError, match="at most 100 points") as refused:
        penalty_add(
            table=table,
            kind="director_ruling",
            team="NS",
            points=10**9,
            context=ChangeContext(version=0, actor=Actor.staff(director), reason="x"),
        )
    assert refused.value.field == "points"
    response = director_client.post(
        reverse("director:round_new", args=[tournament.slug]),
        {"method": "manual", "pairs": "1 " + "9" * 5000, "override_unsigned": "on"},
    )
    assert response.status_code == 200 and "is not a team number" in response.content.decode()
