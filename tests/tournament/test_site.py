import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_home_page_renders(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "Bid Whist tournaments" in response.content.decode()


@pytest.mark.django_db
def test_login_page_renders_and_logs_a_director_in(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()
    call_command("ensure_director", stdout=io.StringIO())
    response = client.post(reverse("login"), {"username": "director", "password": "whist-director"})
    assert response.status_code == 302
    response = client.get(reverse("home"))
    assert "Log out director" in response.content.decode()


@pytest.mark.django_db
def test_wrong_password_is_refused_with_a_message(client):
    call_command("ensure_director", stdout=io.StringIO())
    response = client.post(reverse("login"), {"username": "director", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


@pytest.mark.django_db
def test_ensure_director_creates_one_account_and_says_how_to_log_in(capsys):
    call_command("ensure_director")
    call_command("ensure_director")
    out = capsys.readouterr().out
    assert "Log in as director / whist-director" in out
    assert get_user_model().objects.filter(username="director", is_staff=True).count() == 1


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
