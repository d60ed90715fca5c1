"""Text people typed, shown: escaped, each character the text check refuses as its code point, and isolated in a
<bdi>, so a name in a right-to-left script is shown as typed without reordering the text around it."""

import pytest
from django.template import Context, Template
from django.urls import reverse

from tests.conftest import round_published
from tournament.models import LogEntry
from tournament.services.teams import PlayerEntry, team_register

ARABIC = "فريق النجوم"
HEBREW = ("דוד כהן", "שרה לוי")


def shown(value) -> str:
    return Template("{% load typed %}{{ value|shown }}").render(Context({"value": value}))


def test_text_is_isolated_and_escaped():
    assert shown(ARABIC) == f"<bdi>{ARABIC}</bdi>"
    assert shown("<b>Aces</b> & Co") == "<bdi>&lt;b&gt;Aces&lt;/b&gt; &amp; Co</bdi>"


def test_a_character_the_check_refuses_is_shown_as_its_code_point():
    """Text stored before the check, or typed by a stranger (a login name), never reorders or hides the page."""
    assert shown("\u202enimda") == "<bdi>[U+202E]nimda</bdi>"
    assert shown("ann\u200blee\x1b") == "<bdi>ann[U+200B]lee[U+001B]</bdi>"


@pytest.fixture
def rtl_field(tournament, make_teams):
    """Team #1 named in Arabic with two Hebrew-named players, playing round 1 against team #2."""
    team_register(
        tournament=tournament,
        players=[PlayerEntry(HEBREW[0], "חיפה"), PlayerEntry(HEBREW[1], "חיפה")],
        name=ARABIC,
        checked_in=True,
    )
    make_teams(tournament, 3, start=1)
    round_published(tournament)
    return tournament


def test_a_right_to_left_team_name_is_isolated_wherever_its_team_is_named(client, director, rtl_field):
    """Accepted as typed, and shown in a <bdi>: "#1 فريق النجوم" stays number then name, and the text after it
    stays after it."""
    slug = rtl_field.slug
    team = rtl_field.teams.get(number=1)
    pages = {
        "the team's public page": reverse("public:team", args=[slug, 1]),
        "the tables": reverse("public:draw", args=[slug]),
    }
    for where, url in pages.items():
        page = client.get(url).content.decode()
        assert f"#1 <bdi>{ARABIC}</bdi>" in page, where
    client.post(reverse("team_open"), {"code": team.code})
    mine = client.get(reverse("team_page", args=[team.pk])).content.decode()
    assert f"#1 <bdi>{ARABIC}</bdi>" in mine and f"<bdi>{HEBREW[0]} &amp; {HEBREW[1]}</bdi>" in mine
    client.force_login(director)
    round_page = client.get(reverse("director:round", args=[slug, 1])).content.decode()
    assert f"#1 <bdi>{ARABIC}</bdi>" in round_page and "<bdi>חיפה</bdi>" in round_page
    table = team.seatings.get(round__number=1).table
    sheet = client.get(reverse("table", args=[table.secret])).content.decode()
    assert f"#1 <bdi>{ARABIC}</bdi>" in sheet


def test_a_reason_stored_before_the_check_shows_escaped_in_the_log(director_client, rtl_field):
    """The desk once stored a refund's reason as typed, U+202E and ESC included: the log shows it in order."""
    team = rtl_field.teams.get(number=2)
    LogEntry.objects.create(
        tournament=rtl_field,
        team=team,
        action=LogEntry.Action.REFUND,
        summary=f"Team {team} was refunded 5.00 of the entry fee",
        reason="\u202ednufer\x1b[2J",
    )
    page = director_client.get(reverse("director:log", args=[rtl_field.slug])).content.decode()
    assert "Reason: <bdi>[U+202E]dnufer[U+001B][2J</bdi>" in page
    assert "\u202e" not in page and "\x1b" not in page
