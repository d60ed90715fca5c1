"""The words of the game as players say them, the same on every page, the phone, the printed sheets and the docs:
bids are "4 Uptown", "4 Downtown", "4 No Trump"; the sitting team is the one that keeps the score sheet. No page,
template or doc uses the old words ("4 Special", "4 No", "sitting team", "sits")."""

import re
from pathlib import Path

from django.conf import settings
from django.urls import reverse

from scoring import BidKind
from tests.conftest import round_published, text_of
from tournament.forms.table import bid_choices
from tournament.models import Round
from tournament.services.draws import round_draw

OLD_WORDS = [
    re.compile(r"\bSpecial\b"),
    re.compile(r"\b\d No\b(?! Trump)"),
    re.compile(r"\bsitting team", re.IGNORECASE),
    re.compile(r"\bsits\b(?! out| North| East)", re.IGNORECASE),
    re.compile(r"keeps? the sheet\b"),
    re.compile(r"\((?:up|down)\)"),
]


def old_words_in(text: str) -> list[str]:
    return [match.group() for pattern in OLD_WORDS for match in pattern.finditer(text)]


def test_the_bid_kinds_are_named_once_as_players_call_them():
    assert [kind.label for kind in BidKind] == ["Uptown", "Downtown", "No Trump"]
    assert [label for _, label in bid_choices(4)[:3]] == ["4 Uptown", "4 Downtown", "4 No Trump"]


def test_no_template_script_or_doc_uses_the_old_words():
    base = Path(settings.BASE_DIR)
    shipped = [*base.glob("templates/**/*.html"), *base.glob("static/js/*.js"), *base.glob("docs/*.md")]
    found = {str(path.relative_to(base)): old_words_in(path.read_text()) for path in [*shipped, base / "README.md"]}
    assert not {path: words for path, words in found.items() if words}


def test_the_pages_a_player_reads_use_the_players_words(client, director_client, tournament, make_teams, sheet):
    """A movement round with a bid of each kind, a No Trump played downtown: the table page, the public tables and
    the director's round read only the players' words."""
    make_teams(tournament, 2)
    sheet.play(round_published(tournament).tables.get())
    table = round_published(tournament, method="movement").tables.get()
    sheet.hand(table, "N", "N", 3, "high", 9)
    sheet.hand(table, "E", "E", 4, "low", 10)
    sheet.hand(table, "S", "S", 2, "nt", 8, direction="down")
    pages = {
        "table": text_of(client.get(reverse("table", args=[table.secret]))),
        "tables": text_of(client.get(reverse("public:draw", args=[tournament.slug]))),
        "director": text_of(director_client.get(reverse("director:round", args=[tournament.slug, 2]))),
    }
    assert "3 Uptown" in pages["table"] and "4 Downtown" in pages["table"]
    assert "2 No Trump (downtown)" in pages["table"]
    for name in ("table", "tables", "director"):
        assert "Keeps the score sheet (stays at this table)" in pages[name], name
        assert "Moves after the round" in pages[name], name
        assert not old_words_in(pages[name]), (name, old_words_in(pages[name]))


def test_outside_a_movement_round_only_the_score_sheet_is_named(director_client, tournament, make_teams):
    """Only a movement keeps the sheet's team at its table; another draw says nothing of who moves."""
    make_teams(tournament, 2)
    round_draw(tournament=tournament, method="random", seed=1)
    assert Round.objects.get().method == "random"
    text = text_of(director_client.get(reverse("director:round", args=[tournament.slug, 1])))
    assert "Keeps the score sheet" in text and "stays at this table" not in text and "Moves after" not in text
    assert "The other team keeps the score sheet" in text
