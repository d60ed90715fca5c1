import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "Bid Whist tournaments" in response.content.decode()


def director_password() -> str:
    """Run ensure_director as make run does and read the password it prints once."""
    out = io.StringIO()
    call_command("ensure_director", stdout=out)
    match = re.search(r"with the password (\S+)$", out.getvalue(), re.MULTILINE)
    assert match, out.getvalue()
    return match.group(1)


@pytest.mark.django_db
def test_login_page_renders_and_logs_a_director_in(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()
    response = client.post(reverse("login"), {"username": "director", "password": director_password()})
    assert response.status_code == 302
    response = client.get(reverse("home"))
    assert "Log out director" in response.content.decode()


@pytest.mark.django_db
def test_wrong_password_is_refused_with_a_message(client):
    director_password()
    response = client.post(reverse("login"), {"username": "director", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


@pytest.mark.django_db
def test_ensure_director_makes_a_director_with_a_password_shown_once(capsys):
    first = director_password()
    second = io.StringIO()
    call_command("ensure_director", stdout=second)
    assert first not in second.getvalue() and "changepassword" in second.getvalue()
    director = get_user_model().objects.get(username="director")
    assert director.is_staff and not director.is_superuser, "a director, not a superuser of the back office"
    assert director.groups.filter(name="Directors").exists() and director.check_password(first)
    other = get_user_model().objects.get(username="director")
    assert not other.check_password("whist-director"), "never the password the README once printed"


@pytest.mark.django_db
def test_ensure_director_takes_a_password_for_scripted_set_ups(monkeypatch):
    call_command("ensure_director", "--username", "alice", "--password", "Venue-Laptop-2026", stdout=io.StringIO())
    assert get_user_model().objects.get(username="alice").check_password("Venue-Laptop-2026")
    monkeypatch.setenv("DIRECTOR_PASSWORD", "Another-Long-Secret-9")
    out = io.StringIO()
    call_command("ensure_director", "--username", "alice", stdout=out)
    assert "Another-Long-Secret-9" not in out.getvalue(), "a password given is never printed"
    assert get_user_model().objects.get(username="alice").check_password("Another-Long-Secret-9")
    with pytest.raises(CommandError, match="refused"):
        call_command("ensure_director", "--username", "bob", "--password", "123", stdout=io.StringIO())


def test_pages_load_nothing_from_another_host(client, db):
    html = client.get(reverse("home")).content.decode() + client.get(reverse("login")).content.decode()
    for marker in ("http://", "https://", "//cdn", "fonts.googleapis"):
        assert marker not in html


def test_sqlite_is_set_up_for_many_phones_saving_at_once():
    options = settings.DATABASES["default"].get("OPTIONS", {})
    if connection.vendor != "sqlite":
        pytest.skip("the suite runs on PostgreSQL here")
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5
    assert "journal_mode=WAL" in options["init_command"]


def test_sqlite_file_database_uses_wal(tmp_path):
    """A fresh process on a file database really switches the journal to WAL."""
    script = (
        "import django; django.setup();"
        "from django.db import connection;"
        "cursor = connection.cursor(); cursor.execute('PRAGMA journal_mode');"
        "print(cursor.fetchone()[0])"
    )
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'venue.sqlite3'}"}
    env["DJANGO_SETTINGS_MODULE"] = "tournament.settings"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.stdout.strip() == "wal", result.stderr


def test_production_settings_pass_the_deploy_check():
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "SECURE_HTTPS"} and not key.startswith("DJANGO_")
    }
    env.update(SECRET_KEY="a" * 20 + "-production-secret-key-for-the-deploy-check-0123456789", DEBUG="false")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_unknown_pages_and_refusals_explain_themselves(client, player_user):
    response = client.get("/table/no-such-secret/")
    assert response.status_code == 404 and "Not found" in response.content.decode()
    client.force_login(player_user)
    response = client.get(reverse("director:event_create"))
    assert response.status_code == 403 and "Not allowed" in response.content.decode()


def test_the_readme_names_every_doc():
    """A doc the README does not name is a doc nobody finds."""
    readme = (ROOT / "README.md").read_text()
    unnamed = [path.name for path in sorted((ROOT / "docs").glob("*.md")) if path.name not in readme]
    assert not unnamed, unnamed
