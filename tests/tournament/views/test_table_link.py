import re

from django.urls import reverse

from tests.conftest import round_published
from tournament.services.draws import round_draw, round_publish


def test_a_draft_tables_link_does_not_work_until_published(client, tournament, make_teams):
    make_teams(tournament, 4)
    round_ = round_draw(tournament=tournament, method="manual")
    table = round_.tables.get(number=1)
    assert client.get(reverse("table", args=[table.secret])).status_code == 404
    round_publish(round=round_)
    response = client.get(reverse("table", args=[table.secret]))
    assert response.status_code == 200
    text = re.sub(r"<[^>]+>", "", response.content.decode())
    assert "Table 1 · Round 1" in text
    assert "North: Player 0a" in text and "South: Player 0b" in text
    assert "East: Player 1a" in text and "West: Player 1b" in text


def test_a_wrong_secret_is_plainly_not_found(client, tournament, make_teams):
    make_teams(tournament, 4)
    round_published(tournament)
    assert client.get(reverse("table", args=["not-a-real-secret"])).status_code == 404


def test_table_secrets_are_unguessable_and_distinct(tournament, make_teams):
    make_teams(tournament, 40)
    round_ = round_draw(tournament=tournament, method="random", seed=1)
    secrets = [table.secret for table in round_.tables.all()]
    assert len(set(secrets)) == 20
    assert all(len(secret) >= 16 for secret in secrets)
