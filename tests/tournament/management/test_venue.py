"""The venue as deployed: ``manage.py venue`` (what ``make venue`` runs) and the server it starts (gunicorn,
production settings with DEBUG off, static files collected by the manifest storage), against which every
public and table address answers and every static file a page names is there."""

import json
import os
import re
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import closing

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.conftest import round_published
from tests.venue import venue_command, venue_ctrl_c, venue_said_until_serving
from tournament.management.gunicorn import free_port
from tournament.management.venue import venue_environment
from tournament.services import persons
from tournament.services.cards import table_cards_issue

STAFF_NAMESPACES = ("director", "admin")
STATIC_IN_PAGE = re.compile(r"""(?:src|href)=["'](/static/[^"']+)["']""")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def fetch(url: str) -> tuple[int, dict, bytes]:
    try:
        with OPENER.open(url, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def public_and_table_routes(patterns=None, namespace=""):
    """(name, keyword arguments) of every address but the staff's pages."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}:{pattern.namespace}".strip(":") if pattern.namespace else namespace
            if not inner.startswith(STAFF_NAMESPACES):
                yield from public_and_table_routes(pattern.url_patterns, inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield f"{namespace}:{pattern.name}".strip(":"), list(pattern.pattern.converters or [])


@pytest.fixture
def venue_event(transactional_db, tournament, make_teams, sheet):
    """Eight teams: round 1 signed, round 2 published with one sheet signed, one half entered, two untouched."""
    make_teams(tournament, 8)
    first = round_published(tournament, method="random", seed=1)
    for table in first.tables.all():
        sheet.play(table)
    second = round_published(tournament, method="swiss", seed=2)
    tables = list(second.tables.order_by("number"))
    sheet.play(tables[0])
    sheet.hand(tables[1], "N", "N", 3, "high", 9)
    sheet.hand(tables[1], "E", "E", 4, "low", 10)
    cards = table_cards_issue(tournament=tournament)
    return tournament, list(first.tables.all()) + tables, cards


def addresses(tournament, tables, cards) -> list[str]:
    team = tournament.teams.order_by("number").first()
    values = {"slug": tournament.slug, "event_slug": tournament.event.slug, "number": 1, "team_id": team.pk}
    person = persons.player_link(player=team.members[0].player)
    values.update(sequence=1, penalty_id=1, payout_id=1, person_id=person.pk)
    found = []
    for name, arguments in public_and_table_routes():
        if name == "table_card":
            found += [reverse(name, kwargs={"secret": card.secret}) for card in cards]
        elif "secret" in arguments:
            given = {key: values[key] for key in arguments if key != "secret"}
            found += [reverse(name, kwargs={**given, "secret": table.secret}) for table in tables]
        else:
            found.append(reverse(name, kwargs={key: values[key] for key in arguments}))
    return found


def test_every_public_and_table_address_answers_on_the_venue_server(venue_server, venue_event):
    tournament, tables, cards = venue_event
    pages = addresses(tournament, tables, cards)
    assert len(pages) > 100
    errors, static_named = [], set()
    for path in pages:
        status, headers, body = fetch(venue_server + path)
        if status >= 500:
            errors.append(f"{path}: {status}")
        if headers.get("Content-Type", "").startswith("text/html"):
            static_named.update(STATIC_IN_PAGE.findall(body.decode()))
    assert not errors, errors

    status, headers, body = fetch(venue_server + "/sw.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", body.decode()).group(1))
    missing = [url for url in sorted(static_named | set(assets)) if fetch(venue_server + url)[0] != 200]
    assert not missing, missing
    assert any(re.fullmatch(r"/static/css/app\.[0-9a-f]{12}\.css", url) for url in static_named), "hashed names"
    named_by_table_page = fetch_static(venue_server + reverse("table", args=[tables[-1].secret]))
    assert set(named_by_table_page) <= set(assets), "the service worker keeps every file the table page names"

    status, _, body = fetch(venue_server + "/no-such-page/")
    assert status == 404 and b"URLconf" not in body, "DEBUG is off: the app's own page, not Django's report"


def fetch_static(url: str) -> list[str]:
    return STATIC_IN_PAGE.findall(fetch(url)[2].decode())


# The command


def test_the_venue_command_serves_production_keeps_its_data_and_stops_on_ctrl_c(tmp_path):
    port, database = free_port(), tmp_path / "whist" / "venue.sqlite3"
    server = venue_command(port=port, database=str(database))
    said = venue_said_until_serving(server)
    try:
        password = re.search(r"Log in as director with the password (\S+)", said).group(1)
        assert f"Phones open http://127.0.0.1:{port}/" in said
        assert "▀" in said or "█" in said, "the address as a QR code"
        status, _, body = fetch(f"http://127.0.0.1:{port}/")
        assert status == 200 and re.search(rb"/static/css/app\.[0-9a-f]{12}\.css", body), "collected static files"
        assert fetch(f"http://127.0.0.1:{port}/sw.js")[0] == 200
        status, _, body = fetch(f"http://127.0.0.1:{port}/no-such-page/")
        assert status == 404 and b"URLconf" not in body, "DEBUG is off"
    finally:
        stopped = venue_ctrl_c(server)
    assert "Stopped" in stopped
    assert database.is_file(), "its own database, outside the checkout"

    server = venue_command(port=port, database=str(database))
    said = venue_said_until_serving(server)
    venue_ctrl_c(server)
    assert password not in said and "with the password you were given" in said, "the account is kept"
    printed = re.search(r"\(a new one: (.+)\)\.$", said, re.MULTILINE).group(1)
    assert printed.startswith(f"DATABASE_URL=sqlite:///{database} ")
    shell = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL"))}
    typed = "Venue-Restart-2026\n" * 2
    subprocess.run(printed, shell=True, cwd=tmp_path, env=shell, input=typed, text=True, check=True, timeout=60)
    assert venue_password_is(database, "director", "Venue-Restart-2026"), "the venue's database, run as printed"

    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(DATABASE_URL=f"sqlite:///{database}", DEBUG="false")
    script = "from django.contrib.auth.models import User; User.objects.create_user('alice', password='whist-director')"
    subprocess.run([sys.executable, "manage.py", "shell", "-c", script], cwd=settings.BASE_DIR, env=env, check=True)
    server = venue_command(port=port, database=str(database))
    said, _ = server.communicate(timeout=120)
    assert server.returncode == 1 and "Phones open" not in said, "an account with a published password: not served"
    assert "Not serving" in said and f"DATABASE_URL=sqlite:///{database} " in said
    assert "manage.py changepassword alice" in said


def venue_password_is(database, username: str, password: str) -> bool:
    """Whether the account in the venue's SQLite file has that password (the venue's production hasher)."""
    with closing(sqlite3.connect(database)) as connection:
        (encoded,) = connection.execute("SELECT password FROM auth_user WHERE username = ?", [username]).fetchone()
    return PBKDF2PasswordHasher().verify(password, encoded)


def test_make_run_warns_of_an_account_with_a_published_password(db, django_user_model, settings, capsys):
    django_user_model.objects.create_user(username="director", password="whist-director", is_staff=True)
    settings.DEBUG = True
    call_command("check", "--deploy", "--tag", "accounts")
    assert "has a password printed in the README or docs" in capsys.readouterr().err
    makefile = (settings.BASE_DIR / "Makefile").read_text()
    run_recipe = makefile.split("\nrun:")[1].split("\n\n")[0]
    assert "check --deploy --tag accounts" in run_recipe


@pytest.mark.skipif(not (settings.BASE_DIR / ".git").exists(), reason="the release is the git checkout's commit")
def test_the_venue_serves_as_the_release_checked_out():
    """After an upgrade the venue's server renders every page afresh (its release is the new commit); a release
    given in the environment is kept."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=settings.BASE_DIR, capture_output=True)
    env = venue_environment(host="127.0.0.1", port=8000, database_url="sqlite:///venue.sqlite3", base={})
    assert env["RELEASE"].startswith(commit.stdout.decode().strip())
    given = venue_environment(host="127.0.0.1", port=8000, database_url="sqlite:///v.sqlite3", base={"RELEASE": "r7"})
    assert given["RELEASE"] == "r7"
