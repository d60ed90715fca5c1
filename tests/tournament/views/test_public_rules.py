"""The public rules page: a tournament's rules in words, from its settings, cached like the other public pages and
linked from where players look for them."""

import html
import re
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.test import Client
from django.urls import reverse

from scoring import RuleSet
from tests.conftest import round_published, text_of
from tournament.services.events import tournament_rules_set
from tournament.services.money import money_settings_set


def rules_page(tournament, client=None) -> tuple:
    response = (client or Client()).get(reverse("public:rules", args=[tournament.slug]))
    assert response.status_code == 200
    return response, html.unescape(text_of(response))


def test_the_rules_page_states_the_tournaments_own_rules(tournament):
    tournament.standings_order = "total_points,rounds_won,point_difference,head_to_head"
    tournament.save()
    tournament_rules_set(
        tournament=tournament,
        rules=RuleSet.preset("kitty").replace(round_minutes=60, warn_minutes=10, last_warn_minutes=5),
    )
    _, text = rules_page(tournament)
    for said in (
        "A bid is a level from 3 to 7 and a kind: 3 Uptown",
        "3 Downtown (low cards win) or 3 No Trump (no trump suit)",
        "the kitty of 6 cards goes to the winner of the bid",
        "Set: the bidding team loses the bid's level (scores may go below 0), × 2 on a No Trump bid.",
        "all 13 books (a Boston) × 4",
        "Renege: 3 books to the other team",
        "A round lasts 60 minutes on the round clock",
        "The clock warns at 10 minutes left and at 5 minutes left.",
        "A team with a bye is credited with a round win and the average points of the round's winners.",
        "may be declared absent by the director",
        "by: Total points; then rounds won (a tie counts ½); then point difference; then the team that won",
    ):
        assert said in text, said
    assert "defenders also score 1" not in text, "the kitty preset gives the defenders no odd books"
    assert "Money" not in text, "no fees: nothing to say about money"


def test_a_change_of_rules_or_money_shows_at_once_though_the_page_is_cached(tournament):
    """The page is kept in the shared cache like the other public pages, and rendered again when the rules, the
    standings order or the money settings change."""
    client = Client()
    rules_page(tournament, client)
    again, text = rules_page(tournament, client)
    assert again["Cache-Status"] == "whist; hit" and "There is no round clock" in text
    tournament_rules_set(tournament=tournament, rules=tournament.rules.replace(round_minutes=45))
    assert "A round lasts 45 minutes" in rules_page(tournament, client)[1]
    money_settings_set(
        tournament=tournament,
        entry_fee="40",
        side_pot_fee="10",
        house_percent="10",
        payout_percents="60, 40",
        side_pot_rule="bostons",
    )
    text = rules_page(tournament, client)[1]
    assert f"Entry fee: {Decimal('40.00')} a team; the house keeps 10% of the entry fees" in text
    assert "paid by final place: 60, 40 percent" in text
    assert "Side pot: 10.00 a team, paid in proportion to the Bostons each team made." in text


def test_the_rules_are_linked_from_the_table_the_team_page_and_the_rules_form(
    client, director_client, tournament, make_teams
):
    make_teams(tournament, 2)
    table = round_published(tournament).tables.get()
    address = reverse("public:rules", args=[tournament.slug])
    for page in (
        client.get(reverse("table", args=[table.secret])),
        client.get(reverse("public:team", args=[tournament.slug, 1])),
        client.get(reverse("public:standings", args=[tournament.slug])),
        director_client.get(reverse("director:tournament_rules", args=[tournament.slug])),
    ):
        assert f'href="{address}"' in page.content.decode()


def test_an_unknown_tournament_has_no_rules_page(client, db):
    assert client.get(reverse("public:rules", args=["no-such-tournament"])).status_code == 404


def test_the_product_cites_no_rule_book_it_does_not_ship():
    """The rules are the rules page; no page, form or doc sends a reader to a file the product does not hold."""
    base = Path(settings.BASE_DIR)
    shipped = [*base.glob("templates/**/*.html"), *base.glob("docs/*.md"), base / "README.md"]
    shipped += [path for path in base.glob("tournament/**/*.py") if "migrations" not in path.parts]
    shipped += [*base.glob("scoring/*.py"), *base.glob("static/js/*.js")]
    citing = [str(path.relative_to(base)) for path in shipped if re.search(r"RULES\.md", path.read_text())]
    assert not citing, citing
