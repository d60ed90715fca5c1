"""Trust at the venue: logins, who may change what, the back office, exports, headers and storage."""

import csv
import dataclasses
import io
import logging
import os
import subprocess
import sys
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.db import connection
from django.urls import reverse
from openpyxl import load_workbook

from tests.conftest import round_published
from tournament.checks import sqlite_location_problem
from tournament.errors import ServiceError
from tournament.models import Hand, Round, Table
from tournament.security import RefusalsWithoutTraceback
from tournament.services import sheets
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext
from tournament.services.teams import PlayerEntry, team_register


def login(client, username, password, address="10.0.0.7"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


# No account with a known password.


def test_the_deploy_check_refuses_an_account_with_a_published_password(db, django_user_model):
    django_user_model.objects.create_user(username="director", password="whist-director", is_staff=True)
    with pytest.raises(SystemCheckError, match=r"tournament\.E001"):
        call_command(
            "check",
            "--deploy",
            "--tag",
            "security",
            "--fail-level",
            "ERROR",
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
    user = django_user_model.objects.get(username="director")
    user.set_password("A-new-and-private-one-42")
    user.save()
    call_command(
        "check", "--deploy", "--tag", "security", "--fail-level", "ERROR", stdout=io.StringIO(), stderr=io.StringIO()
    )


def test_no_password_is_printed_in_the_readme_or_docs():
    from tournament.checks import PUBLISHED_PASSWORDS

    texts = [(settings.BASE_DIR / "README.md").read_text()]
    texts += [path.read_text() for path in (settings.BASE_DIR / "docs").glob("*.md")]
    assert not any(password in text for password in PUBLISHED_PASSWORDS for text in texts)


# Logins cannot be guessed or flooded.


@pytest.fixture
def keeper(db, django_user_model):
    return django_user_model.objects.create_user(username="keeper", password="Right-Password-7", is_staff=True)


def test_five_wrong_passwords_lock_the_address_with_a_clear_message(client, keeper):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(client, "keeper", "wrong").status_code == 200
    assert login(client, "keeper", "wrong").status_code == 429, "the fifth wrong password locks"
    refused = login(client, "keeper", "Right-Password-7")
    assert refused.status_code == 429
    assert (
        "Too many failed logins" in refused.content.decode() and "ask a tournament director" in refused.content.decode()
    )
    assert login(client, "someone-else", "guess").status_code == 429, "the address is locked, whatever the account"
    assert login(client, "other", "guess", address="10.0.0.9").status_code == 200, "other addresses are not"


def test_failures_spread_over_accounts_lock_the_address(client, keeper):
    for number in range(settings.AXES_FAILURE_LIMIT):
        login(client, f"guess-{number}", "wrong")
    assert login(client, "keeper", "Right-Password-7").status_code == 429


def test_a_stranger_never_locks_the_director_out_of_their_own_device(client, django_user_model):
    """A hundred failures for ``director`` from one address (twenty times the limit): the director logs in from
    another at once."""
    django_user_model.objects.create_user(username="director", password="Own-Password-31", is_staff=True)
    for _ in range(100):
        login(client, "director", "guess", address="192.0.2.66")
    assert login(client, "director", "Own-Password-31", address="192.0.2.66").status_code == 429
    assert login(client, "director", "Own-Password-31", address="10.0.0.2").status_code == 302


def test_a_locked_login_hashes_no_password(client, keeper):
    """Locked-out guesses are refused before any password is checked, so they cost the server nothing."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "keeper", "wrong")
    with mock.patch.object(AbstractBaseUser, "check_password", autospec=True) as checked:
        for _ in range(20):
            assert login(client, "keeper", "wrong").status_code == 429
    assert checked.call_count == 0


def test_a_director_unlocks_a_locked_login(client, keeper, director):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "keeper", "wrong")
    client.force_login(director)
    page = client.get(reverse("director:lockouts")).content.decode()
    assert "10.0.0.7" in page and "accounts tried: <bdi>keeper</bdi>" in page
    client.post(reverse("director:lockout_remove"), {"ip_address": "10.0.0.7"})
    client.logout()
    assert login(client, "keeper", "Right-Password-7").status_code == 302


def test_a_login_name_that_would_reverse_the_page_is_shown_escaped_and_in_order(client, director):
    """A stranger's login name is stored as typed (its failures count): on *Locked logins* each invisible or
    control character shows as its code point, and the name is isolated from the text around it."""
    names = ("\u202enimda", "ann\u2066lee", "zero\u200bwidth", "esc\x1b[2J", "\ufeffbom")
    for username in names[: settings.AXES_FAILURE_LIMIT]:
        login(client, username, "wrong")
    client.force_login(director)
    page = client.get(reverse("director:lockouts")).content.decode()
    for shown in ("<bdi>[U+202E]nimda</bdi>", "<bdi>ann[U+2066]lee</bdi>", "<bdi>zero[U+200B]width</bdi>"):
        assert shown in page
    assert "<bdi>esc[U+001B][2J</bdi>" in page
    assert not any(char in page for char in "\u202e\u2066\u200b\x1b\ufeff"), "no such character reaches the page"


def test_only_directors_see_and_unlock_logins(client, scorekeeper):
    client.force_login(scorekeeper)
    assert client.get(reverse("director:lockouts")).status_code == 403
    assert client.post(reverse("director:lockout_remove"), {"username": "x"}).status_code == 403


def test_a_login_with_hostile_text_is_refused_not_an_error(client, db):
    for username in ("\x00", "a" * 10_000, "‮evil", "🂡" * 200):
        assert login(client, username, "\x00pw").status_code in (200, 429)


# Who may change what.


@pytest.fixture
def played(table, sheet, director):
    """Two hands; a renege the director applied on the first."""
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 2, "low", 8)
    renege = sheet.penalty(table, kind="renege", team="EW", hand=table.hands.get(sequence=1), user=director)
    return table, renege


def test_the_table_link_cannot_undo_a_penalty_the_director_applied(client, played, sheet, director):
    table, renege = played
    with pytest.raises(ServiceError, match="Staff applied this penalty"):
        sheets.penalty_remove(penalty=renege, context=ChangeContext(version=sheet.version(table)))
    client.post(reverse("table_penalty_remove", args=[table.secret, renege.pk]), {"version": sheet.version(table)})
    assert table.penalties.filter(pk=renege.pk).exists()
    assert f"/penalties/{renege.pk}/remove/" not in client.get(reverse("table", args=[table.secret])).content.decode()
    with pytest.raises(ServiceError, match="Staff applied a penalty on this hand"):
        sheets.hand_remove(hand=table.hands.get(sequence=1), context=ChangeContext(version=sheet.version(table)))
    sheets.penalty_remove(
        penalty=renege, context=ChangeContext(version=sheet.version(table), actor=Actor.staff(director))
    )


def test_the_table_link_cannot_change_a_hand_staff_corrected(client, played, sheet, scorekeeper):
    table, _ = played
    second = table.hands.get(sequence=2)
    entry = sheets.HandEntry("E", "E", 2, "low", 9, "hearts")
    sheets.hand_update(
        hand=second, entry=entry, context=ChangeContext(version=sheet.version(table), actor=Actor.staff(scorekeeper))
    )
    assert Hand.objects.get(pk=second.pk).by_staff
    for change in (
        lambda: sheets.hand_update(
            hand=second, entry=dataclasses.replace(entry, books=10), context=ChangeContext(version=sheet.version(table))
        ),
        lambda: sheets.hand_remove(hand=second, context=ChangeContext(version=sheet.version(table))),
    ):
        with pytest.raises(ServiceError, match="Staff entered or corrected this hand"):
            change()
    html = client.get(reverse("table", args=[table.secret])).content.decode()
    assert "Edit hand 2" not in html and "/hands/2/remove/" not in html
    assert "Edit hand 1" in html and "/hands/1/remove/" not in html, "hand 1 holds the director's renege"


def test_a_scorekeeper_cannot_reverse_a_signed_result(client, table, sheet, scorekeeper, director):
    table = sheet.full_round(table)
    sheet.sign_both(table)
    flip = sheets.HandEntry("E", "N", 4, "low", 10, "hearts")
    hand = table.hands.get(sequence=2)
    with pytest.raises(ServiceError, match="changed only by the tournament director's ruling"):
        sheets.hand_update(
            hand=hand,
            entry=flip,
            context=ChangeContext(version=sheet.version(table), actor=Actor.staff(scorekeeper), reason="bidder"),
        )
    table.refresh_from_db()
    assert table.winner_pair == "EW"
    sheets.hand_update(
        hand=hand,
        entry=flip,
        context=ChangeContext(
            version=sheet.version(table), actor=Actor.staff(director), reason="bidder", director_ruling=True
        ),
    )
    table.refresh_from_db()
    assert table.winner_pair == "NS"


def test_a_scorekeeper_keeps_every_other_correction(table, sheet, scorekeeper):
    table = sheet.full_round(table)
    sheet.sign_both(table)
    entry = sheets.HandEntry("N", "N", 3, "high", 10, "spades")
    sheets.hand_update(
        hand=table.hands.get(sequence=1),
        entry=entry,
        context=ChangeContext(version=sheet.version(table), actor=Actor.staff(scorekeeper), reason="ten"),
    )
    table.refresh_from_db()
    assert (table.ns_total, table.ew_total, table.winner_pair) == (4, 10, "EW")


# The back office is read-only for scored data, and keeps what was played.


@pytest.fixture
def superuser_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", "boss@example.org", "Boss-Password-1"))
    return client


def test_the_back_office_cannot_change_scores_or_delete_what_was_played(superuser_client, table, sheet):
    table = sheet.full_round(table)
    sheet.sign_both(table)
    hand = table.hands.first()
    for name, pk in (("table", table.pk), ("hand", hand.pk)):
        change = reverse(f"admin:tournament_{name}_change", args=[pk])
        assert 'name="ns_total"' not in superuser_client.get(change).content.decode()
        superuser_client.post(change, {"ns_total": 99, "ns_points": 99, "version": 0})
        assert superuser_client.post(reverse(f"admin:tournament_{name}_delete", args=[pk])).status_code == 403
    table.refresh_from_db()
    assert (table.ns_total, table.version) != (99, 0) and Table.objects.filter(pk=table.pk).exists()
    played = {
        "round": table.round.pk,
        "team": table.team_ns.pk,
        "tournament": table.round.tournament.pk,
        "event": table.round.tournament.event.pk,
    }
    for name, pk in played.items():
        assert (
            superuser_client.post(reverse(f"admin:tournament_{name}_delete", args=[pk]), {"post": "yes"}).status_code
            == 403
        )
    listing = superuser_client.get(reverse("admin:tournament_team_changelist")).content.decode()
    assert "delete_selected" not in listing


def test_the_back_office_deletes_a_draft(superuser_client, tournament, make_teams):
    from tournament.services.draws import round_draw

    make_teams(tournament, 2)
    draft = round_draw(tournament=tournament, method="manual")
    superuser_client.post(reverse("admin:tournament_round_delete", args=[draft.pk]), {"post": "yes"})
    assert not Round.objects.filter(pk=draft.pk).exists()


def test_the_back_office_changes_nothing_the_app_s_pages_manage(superuser_client, tournament, make_teams):
    (team,) = make_teams(tournament, 1)
    tournament.refresh_from_db()
    version = tournament.results_version
    change = reverse("admin:tournament_tournament_change", args=[tournament.pk])
    page = superuser_client.get(change).content.decode()
    for field in ("sheet_mode", "qualifying_rounds", "standings_order", "results_version"):
        assert f'name="{field}"' not in page, field
    superuser_client.post(change, {"sheet_mode": "double", "qualifying_rounds": 9, "results_version": 0})
    team_change = reverse("admin:tournament_team_change", args=[team.pk])
    assert 'name="number"' not in superuser_client.get(team_change).content.decode()
    superuser_client.post(team_change, {"number": 77, "withdrawn": "on", "name": "Renamed"})
    tournament.refresh_from_db()
    team.refresh_from_db()
    assert (tournament.sheet_mode, tournament.qualifying_rounds) != ("double", 9)
    assert tournament.results_version == version and (team.number, team.withdrawn, team.name) == (1, False, "")
    assert superuser_client.get(reverse("admin:tournament_team_add")).status_code == 403


def test_a_deletion_in_the_back_office_is_logged_and_refreshes_the_pages(superuser_client, tournament, make_teams):
    _, second = make_teams(tournament, 2)
    tournament.refresh_from_db()
    version = tournament.results_version
    superuser_client.post(reverse("admin:tournament_team_delete", args=[second.pk]), {"post": "yes"})
    assert not tournament.teams.filter(pk=second.pk).exists()
    entry = tournament.log.order_by("-pk").first()
    assert entry.actor == "staff" and entry.actor_name == "boss" and "deleted team #2" in entry.summary
    tournament.refresh_from_db()
    assert tournament.results_version > version


# Exports that cannot attack a spreadsheet.


@pytest.fixture
def formula_team(tournament, make_teams, sheet):

    team_register(
        tournament=tournament,
        players=[PlayerEntry("@SUM(1+1)", "-Detroit"), PlayerEntry("+Bo", "\tTab")],
        name='=HYPERLINK("http://evil.example","x")',
        checked_in=True,
    )
    make_teams(tournament, 1)
    table = round_published(tournament).tables.get()
    sheet.play(table, "NS")
    return tournament


def test_csv_exports_neutralise_formulas(client, director, formula_team):
    client.force_login(director)
    slug = formula_team.slug
    for url in (
        reverse("public:standings", args=[slug]) + "?_export=csv",
        reverse("director:teams", args=[slug]) + "?_export=csv",
        reverse("director:hands_export", args=[slug, "csv"]),
    ):
        rows = list(csv.reader(io.StringIO(client.get(url).content.decode())))
        cells = [cell for row in rows for cell in row]
        assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in cells), url
        assert not any(cell.startswith("-") and not cell.lstrip("-").isdigit() for cell in cells), url
    standings = client.get(reverse("public:standings", args=[slug]) + "?_export=csv").content.decode()
    assert "'@SUM(1+1) & +Bo" in standings, "the players' names are neutralised"
    assert '#1 =HYPERLINK(""http://evil.example"",""x"")' in standings, "the team, after its number, is text"


def test_xlsx_exports_hold_text_not_formulas(client, director, formula_team):
    client.force_login(director)
    for url in (
        reverse("public:standings", args=[formula_team.slug]) + "?_export=xlsx",
        reverse("director:teams", args=[formula_team.slug]) + "?_export=xlsx",
    ):
        sheet = load_workbook(io.BytesIO(client.get(url).content)).active
        cells = [cell for row in sheet.iter_rows() for cell in row if cell.value is not None]
        assert all(cell.data_type != "f" for cell in cells), url
        assert any(str(cell.value).startswith(("'=HYPERLINK", "'@SUM")) for cell in cells), url


def test_only_csv_and_xlsx_are_exported(client, tournament):
    for export in ("yaml", "xls", "ods", "json", "latex", "tsv"):
        response = client.get(reverse("public:standings", args=[tournament.slug]), {"_export": export})
        assert response.status_code == 200 and response["Content-Type"].startswith("text/html")


# Headers, sessions, storage.


def test_every_page_has_a_content_security_policy_and_no_inline_code(client, table, sheet, director):
    sheet.full_round(table)
    client.force_login(director)
    slug = table.round.tournament.slug
    for url in (
        reverse("home"),
        reverse("public:standings", args=[slug]),
        reverse("table", args=[table.secret]),
        reverse("director:tournament", args=[slug]),
        reverse("login"),
    ):
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy and "'unsafe-inline'" not in policy
        html = response.content.decode()
        assert "<script>" not in html and " style=" not in html and "<style" not in html, url


def test_private_pages_are_never_cached(client, table, director):
    """A table's page is this browser's own: no shared cache keeps it, and the browser asks again each time
    (answered 304 while nothing changed, ``pagecache.private``); a staff page is not kept at all."""
    assert client.get(reverse("table", args=[table.secret]))["Cache-Control"] == "private, no-cache"
    client.force_login(director)
    assert client.get(reverse("director:dashboard"))["Cache-Control"] == "no-store"
    assert "no-store" not in client.get(reverse("home")).get("Cache-Control", "")


def test_staff_sessions_end_within_a_day_and_hsts_suits_a_hosted_site():
    assert settings.SESSION_COOKIE_AGE <= 24 * 60 * 60
    env = {key: value for key, value in os.environ.items() if key not in ("SECURE_HTTPS", "DEBUG")}
    env.update(DEBUG="false", SECRET_KEY="x" * 60, DJANGO_SETTINGS_MODULE="tournament.settings")
    script = "import django;django.setup();from django.conf import settings as s;print(s.SECURE_HSTS_SECONDS)"
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True
    )
    assert int(result.stdout.strip()) >= 365 * 24 * 60 * 60, result.stderr


def test_a_saved_hand_survives_a_power_cut(db):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL keeps its own durability")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA synchronous")
        assert cursor.fetchone()[0] == 2, "FULL"


def test_a_missing_database_folder_is_said_at_start_up(tmp_path):
    sqlite = "django.db.backends.sqlite3"
    problem = sqlite_location_problem({"ENGINE": sqlite, "NAME": str(tmp_path / "nowhere" / "db.sqlite3")})
    assert "does not exist" in problem
    assert sqlite_location_problem({"ENGINE": sqlite, "NAME": str(tmp_path / "db.sqlite3")}) is None
    assert "is not a file" in sqlite_location_problem({"ENGINE": sqlite, "NAME": str(tmp_path)})


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder on a read-only file system, holding a database file."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(folder)], capture_output=True).returncode:
        pytest.skip("this machine does not let the tests mount a read-only file system")
    (folder / "db.sqlite3").write_bytes(b"")
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    yield folder
    subprocess.run(["umount", str(folder)], check=True)


def test_a_read_only_database_is_said_at_start_up(read_only_folder):
    sqlite = "django.db.backends.sqlite3"
    problem = sqlite_location_problem({"ENGINE": sqlite, "NAME": str(read_only_folder / "db.sqlite3")})
    assert "cannot be written" in problem
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{read_only_folder / 'db.sqlite3'}"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    command = [sys.executable, "-c", "import tournament.wsgi"]
    started = subprocess.run(command, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True)
    assert started.returncode != 0 and "cannot be written" in started.stderr


def test_a_director_lands_on_manage_a_player_on_the_home_and_a_page_asked_for_wins(client, director, player_user):
    assert login(client, "director", "pw-for-tests-123")["Location"] == reverse("director:dashboard")
    client.logout()
    assert login(client, "player", "pw-for-tests-123")["Location"] == reverse("home")
    client.logout()
    asked = reverse("director:lockouts")
    credentials = {"username": "director", "password": "pw-for-tests-123"}
    answer = client.post(f"{reverse('login')}?next={asked}", credentials, REMOTE_ADDR="10.0.0.7")
    assert answer["Location"] == asked


def test_a_refused_request_is_logged_in_one_line_without_a_traceback(client, player_user, tournament):
    """gunicorn's log keeps one line per 403 (a player opening a director's page), so real errors stand out."""
    console = next(
        handler
        for handler in logging.getLogger().handlers
        if any(isinstance(check, RefusalsWithoutTraceback) for check in handler.filters)
    )
    logged = io.StringIO()
    kept = console.setStream(logged)
    try:
        client.force_login(player_user)
        assert client.get(reverse("director:tournament", args=[tournament.slug])).status_code == 403
    finally:
        console.setStream(kept)
    assert "Forbidden (Permission denied)" in logged.getvalue()
    assert "Traceback" not in logged.getvalue()
