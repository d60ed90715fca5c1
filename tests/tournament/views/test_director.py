import datetime
import html as markup
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import RuleSet
from tests.conftest import round_published, text_of
from tournament.models import Event, Round, Team, Tournament
from tournament.services.absence import team_sit_out_set
from tournament.services.draws import round_draw
from tournament.services.events import tournament_rules_set


@pytest.fixture
def drafted(tournament, make_teams):
    make_teams(tournament, 4)
    return round_draw(tournament=tournament, method="manual")


def director_urls(tournament, round_):
    slug, event_slug, number = tournament.slug, tournament.event.slug, round_.number
    return [
        ("get", reverse("director:event_create")),
        ("get", reverse("director:event", args=[event_slug])),
        ("get", reverse("director:event_edit", args=[event_slug])),
        ("get", reverse("director:tournament_create", args=[event_slug])),
        ("get", reverse("director:tournament", args=[slug])),
        ("get", reverse("director:tournament_edit", args=[slug])),
        ("get", reverse("director:tournament_rules", args=[slug])),
        ("get", reverse("director:teams", args=[slug])),
        ("get", reverse("director:team_create", args=[slug])),
        ("get", reverse("director:team_import", args=[slug])),
        ("get", reverse("director:team_edit", args=[slug, 1])),
        ("get", reverse("director:desk", args=[slug])),
        ("post", reverse("director:desk_action", args=[slug, 1])),
        ("get", reverse("director:round_new", args=[slug])),
        ("get", reverse("director:round", args=[slug, number])),
        ("post", reverse("director:round_swap", args=[slug, number])),
        ("post", reverse("director:round_move", args=[slug, number])),
        ("post", reverse("director:round_sitting", args=[slug, number, 1])),
        ("post", reverse("director:round_publish", args=[slug, number])),
        ("post", reverse("director:round_discard", args=[slug, number])),
        ("post", reverse("director:round_close", args=[slug, number])),
        ("get", reverse("director:event_archive", args=[event_slug])),
        ("get", reverse("director:announcements", args=[slug])),
        ("get", reverse("director:log", args=[slug])),
        ("get", reverse("director:checkin_slips", args=[slug])),
        ("post", reverse("director:team_code_new", args=[slug, 1])),
        ("post", reverse("director:announcement_remove", args=[slug, 1])),
        ("get", reverse("director:playoffs", args=[slug])),
        ("post", reverse("director:playoffs_seed", args=[slug])),
        ("post", reverse("director:playoffs_swap", args=[slug])),
        ("post", reverse("director:playoffs_publish", args=[slug])),
    ]


def staff_urls(tournament, round_):
    """Pages for tournament scorekeepers as well as directors."""
    return [
        ("get", reverse("director:dashboard")),
        ("get", reverse("director:code_pauses")),
        ("get", reverse("director:round_live", args=[tournament.slug, round_.number])),
        ("get", reverse("director:round_live_fragment", args=[tournament.slug, round_.number])),
        ("get", reverse("director:round_sheets_pdf", args=[tournament.slug, round_.number])),
        ("get", reverse("director:standings_pdf", args=[tournament.slug])),
        ("get", reverse("director:hands_export", args=[tournament.slug, "csv"])),
        ("get", reverse("director:bracket_pdf", args=[tournament.slug])),
    ]


def test_anonymous_users_are_sent_to_the_login_page(client, tournament, drafted):
    for method, url in director_urls(tournament, drafted) + staff_urls(tournament, drafted):
        response = getattr(client, method)(url, {"action": "check_in"})
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


@pytest.mark.parametrize("who", ["player_user", "scorekeeper"])
def test_users_who_are_not_directors_are_refused(client, tournament, drafted, who, request):
    client.force_login(request.getfixturevalue(who))
    for method, url in director_urls(tournament, drafted):
        response = getattr(client, method)(url, {"action": "check_in"})
        assert response.status_code == 403, url
    assert drafted.is_draft and Round.objects.filter(pk=drafted.pk).exists()
    assert not Team.objects.get(number=1, tournament=tournament).withdrawn


def test_players_cannot_open_the_staff_pages(client, player_user, tournament, drafted):
    client.force_login(player_user)
    for _, url in staff_urls(tournament, drafted):
        assert client.get(url).status_code == 403, url


def test_scorekeepers_open_the_staff_pages(client, scorekeeper, tournament, drafted):
    client.force_login(scorekeeper)
    for _, url in staff_urls(tournament, drafted):
        assert client.get(url).status_code == 200, url
    assert "New event" not in client.get(reverse("director:dashboard")).content.decode()


def test_a_director_opens_every_page(director_client, tournament, drafted):
    for method, url in director_urls(tournament, drafted) + staff_urls(tournament, drafted):
        if method == "get":
            assert director_client.get(url).status_code == 200, url


def test_a_superuser_counts_as_a_director(client, django_user_model, tournament):
    admin = django_user_model.objects.create_superuser("boss", password="pw-for-tests-123")
    client.force_login(admin)
    assert client.get(reverse("director:tournament", args=[tournament.slug])).status_code == 200


def test_create_an_event_and_a_tournament_through_the_forms(director_client):
    response = director_client.post(
        reverse("director:event_create"),
        {"name": "Labor Day Classic", "venue": "Hotel", "starts_on": "2026-09-05", "ends_on": "2026-09-07"},
    )
    event = Event.objects.get(name="Labor Day Classic")
    assert response["Location"] == reverse("director:event", args=[event.slug])
    response = director_client.post(
        reverse("director:tournament_create", args=[event.slug]),
        {
            "name": "Main Event",
            "qualifying_rounds": 4,
            "paper_size": "letter",
            "preset": "tournament",
            "standings_order": "total_points,rounds_won,point_difference,head_to_head",
            "avoid_same_city_rounds": 1,
        },
    )
    tournament = Tournament.objects.get(event=event)
    assert response["Location"] == reverse("director:tournament_rules", args=[tournament.slug])
    assert tournament.criteria[0] == "total_points" and tournament.avoid_same_city_rounds == 1


def test_bad_input_is_shown_beside_its_field_and_nothing_is_saved(director_client):
    response = director_client.post(
        reverse("director:event_create"),
        {"name": "Backwards", "starts_on": "2026-09-07", "ends_on": "2026-09-05"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_ends_on_error"' in html and "cannot end before it starts" in html
    assert not Event.objects.exists()


def test_rules_form_explains_each_setting_and_refuses_bad_values(director_client, tournament):
    url = reverse("director:tournament_rules", args=[tournament.slug])
    html = director_client.get(url).content.decode()
    assert "Books moved from the reneging team to the other" in html
    assert 'name="jokers"' not in html and 'name="low_beats_high"' not in html, "settings that score nothing"
    data = {key: value for key, value in tournament.rules.to_dict().items() if value is not False}
    response = director_client.post(url, {**data, "min_bid": 9})
    assert 'id="id_min_bid_error"' in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.rules.min_bid == 1
    data.update({"deal": "kitty", "min_bid": 3})
    assert director_client.post(url, data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules.deal == "kitty" and tournament.rules.min_bid == 3


def test_rules_form_keeps_the_settings_it_does_not_offer(director_client, tournament):
    url = reverse("director:tournament_rules", args=[tournament.slug])
    tournament_rules_set(tournament=tournament, rules=RuleSet.preset("kitty"))
    data = {key: value for key, value in RuleSet.preset("kitty").to_dict().items() if value is not False}
    assert director_client.post(url, {**data, "boston_multiplier": 2}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules.jokers == 2 and tournament.rules.boston_multiplier == 2
    assert director_client.post(url, {**data, "deal": "straight"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.rules.jokers == 0, "a straight deal has no jokers"


def test_after_publication_the_rules_form_changes_the_time_settings_only(director_client, tournament, make_teams):
    make_teams(tournament, 4)
    round_published(tournament)
    url = reverse("director:tournament_rules", args=[tournament.slug])
    html = director_client.get(url).content.decode()
    assert re.search(r'name="min_bid"[^>]* disabled', html) and not re.search(
        r'name="round_minutes"[^>]* disabled', html
    )
    assert 'name="preset"' not in html and "the scoring rules stay as they are" in html
    timing = {"round_minutes": 45, "warn_minutes": 10, "last_warn_minutes": 5, "forfeit_minutes": 15}
    assert director_client.post(url, timing).status_code == 302, "a browser posts no disabled field"
    tournament.refresh_from_db()
    assert tournament.rules.round_minutes == 45 and tournament.rules.min_bid == 1
    stale = {key: value for key, value in tournament.rules.to_dict().items() if value is not False}
    refused = director_client.post(url, {**stale, "round_minutes": 30, "min_bid": 4})
    assert "scoring rules cannot change once a round is published" in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.rules.round_minutes == 45 and tournament.rules.min_bid == 1, "nothing half-written"
    assert director_client.post(url, {"preset": "kitty"}).status_code == 200
    tournament.refresh_from_db()
    assert tournament.rules.min_bid == 1


@pytest.mark.parametrize(
    ("clock", "field", "said"),
    [
        ({"round_minutes": 45, "warn_minutes": 5, "last_warn_minutes": 10}, "last_warn_minutes", "after the first"),
        ({"round_minutes": 3, "warn_minutes": 10, "last_warn_minutes": 0}, "warn_minutes", "3 minutes, or is 0"),
    ],
)
def test_the_clocks_warnings_come_in_order_within_the_round(director_client, tournament, clock, field, said):
    url = reverse("director:tournament_rules", args=[tournament.slug])
    before = tournament.rules.to_dict()
    posted = {key: value for key, value in before.items() if value is not False}
    html = director_client.post(url, {**posted, **clock}).content.decode()
    assert f'id="id_{field}_error"' in html and said in html
    tournament.refresh_from_db()
    assert tournament.rules.to_dict() == before, "nothing saved"


def test_rules_form_starts_from_a_preset(director_client, tournament):
    url = reverse("director:tournament_rules", args=[tournament.slug])
    response = director_client.post(url, {"preset": "kitty"})
    html = response.content.decode()
    assert 'name="min_bid" value="3"' in html
    tournament.refresh_from_db()
    assert tournament.rules.min_bid == 1, "a preset only fills the form"


def test_register_a_team_through_the_form_with_a_clash_shown_beside_the_field(director_client, tournament):
    url = reverse("director:team_create", args=[tournament.slug])
    data = {"player1_name": "Ann Lee", "player1_city": "Detroit", "player2_name": "Bo Jones", "checked_in": "on"}
    assert director_client.post(url, data).status_code == 302
    response = director_client.post(
        url, {"player1_name": "Cy Young", "player2_name": "Ann Lee", "player2_city": "Detroit"}
    )
    html = response.content.decode()
    assert 'id="id_player2_name_error"' in html and "Ann Lee already plays on team #1" in html
    assert tournament.teams.count() == 1


def test_import_page_lists_problems_by_line(director_client, tournament):
    url = reverse("director:team_import", args=[tournament.slug])
    upload = SimpleUploadedFile("teams.csv", b"player1,player2\nAnn Lee,\n")
    html = director_client.post(url, {"file": upload}).content.decode()
    assert "Line 2: Each team needs two players&#x27; names." in html
    good = SimpleUploadedFile("teams.csv", b"player1,player2\nAnn Lee,Bo Jones\nCy Young,Dee Brooks\n")
    assert director_client.post(url, {"file": good}).status_code == 302
    assert tournament.teams.count() == 2


def test_desk_search_and_check_in(director_client, tournament, make_teams):
    make_teams(tournament, 3, checked_in=False)
    url = reverse("director:desk", args=[tournament.slug])
    html = director_client.get(url, {"q": "player 1a"}).content.decode()
    assert "Player 1a" in html and "Player 2a" not in html
    response = director_client.post(reverse("director:desk_action", args=[tournament.slug, 2]), {"action": "check_in"})
    assert response.status_code == 302
    assert tournament.teams.get(number=2).checked_in


def test_the_teams_list_sorts_by_its_columns_and_links_each_team(director_client, tournament, make_teams):
    make_teams(tournament, 3)
    url = reverse("director:teams", args=[tournament.slug])
    html = director_client.get(url, {"sort": "-number"}).content.decode()
    assert html.index("Player 2a") < html.index("Player 1a") < html.index("Player 0a")
    assert 'href="?sort=number"' in html, "the # column sorts back"
    assert html.count(reverse("director:team_edit", args=[tournament.slug, 2])) == 1


def test_teams_export_as_csv_and_xlsx(director_client, tournament, make_teams):
    make_teams(tournament, 2)
    url = reverse("director:teams", args=[tournament.slug])
    csv_text = director_client.get(url, {"_export": "csv"}).content.decode()
    assert csv_text.splitlines()[0].startswith("#,Team,Players,City")
    assert "Player 0a & Player 0b" in csv_text and "Edit" not in csv_text
    xlsx = director_client.get(url, {"_export": "xlsx"})
    assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats")


def test_draw_edit_and_publish_through_the_pages(director_client, tournament, make_teams):
    make_teams(tournament, 5)
    slug = tournament.slug
    response = director_client.post(reverse("director:round_new", args=[slug]), {"method": "random", "seed": "99"})
    assert response["Location"] == reverse("director:round", args=[slug, 1])
    round_ = tournament.rounds.get()
    assert round_.seed == 99
    html = director_client.get(reverse("director:round", args=[slug, 1])).content.decode()
    assert "Bye:" in html and "Publish round 1" in html
    director_client.post(reverse("director:round_publish", args=[slug, 1]))
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED
    html = director_client.get(reverse("director:round", args=[slug, 1])).content.decode()
    for table in round_.tables.all():
        assert reverse("table", args=[table.secret]) in html


def test_a_draft_is_changed_by_team_numbers_from_one_list_of_the_teams(director_client, tournament, make_teams):
    make_teams(tournament, 4)
    slug = tournament.slug
    round_draw(tournament=tournament, method="manual", pairs="1 2\n3 4")
    html = director_client.get(reverse("director:round", args=[slug, 1])).content.decode()
    assert html.count("<datalist") == 1 and html.count('list="draft-teams"') == 3 and '<select name="team' not in html
    for field in ("team_a", "team_b", "team"):
        assert f'for="id_{field}"' in html and f'id="id_{field}"' in html, "every typed team is labelled"
    director_client.post(reverse("director:round_swap", args=[slug, 1]), {"team_a": "#2", "team_b": "3"})
    table_1 = tournament.rounds.get().tables.get(number=1)
    assert {table_1.team_ns.number, table_1.team_ew.number} == {1, 3}
    said = director_client.post(
        reverse("director:round_move", args=[slug, 1]), {"team": "9", "table_number": "3"}, follow=True
    ).content.decode()
    assert "a team&#x27;s number" in said and not tournament.rounds.get().tables.filter(number=3).exists()


def test_manual_draw_errors_show_beside_the_table_list(director_client, tournament, make_teams):
    make_teams(tournament, 4)
    response = director_client.post(
        reverse("director:round_new", args=[tournament.slug]), {"method": "manual", "pairs": "1 2\n3 3"}
    )
    assert 'id="id_pairs_error"' in response.content.decode()
    assert not tournament.rounds.exists()


def count_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("page", ["desk", "teams", "round_new", "round", "tournament", "round_live", "log"])
def test_page_query_count_does_not_grow_with_the_field(director_client, event, big_field, page):
    from tournament.services.events import tournament_create

    counts = []
    for size in (8, 512):
        tournament = tournament_create(event=event, name=f"Field of {size}")
        big_field(tournament, size)
        round_draw(tournament=tournament, method="random", seed=6)
        args = (
            [tournament.slug, 2]
            if page == "round"
            else [tournament.slug, 1]
            if page == "round_live"
            else [tournament.slug]
        )
        counts.append(count_queries(director_client, reverse(f"director:{page}", args=args)))
    assert counts[0] == counts[1], counts


def test_the_dashboard_is_the_event_list(director_client, event):
    html = director_client.get(reverse("director:dashboard")).content.decode()
    assert event.name in html
    assert datetime.date(2026, 5, 1).strftime("%b") in html


@pytest.mark.parametrize("who", ["scorekeeper", "director"])
def test_the_live_view_offers_only_what_its_viewer_may_use(client, tournament, make_teams, who, request):
    """A scorekeeper watching the round sees the clock and the tables, and no link or form that would answer
    "Not allowed"; the director sees the clock's controls and the absent-team forms."""
    tournament_rules_set(tournament=tournament, rules=tournament.rules.replace(round_minutes=40))
    make_teams(tournament, 4)
    round_ = round_published(tournament)
    client.force_login(request.getfixturevalue(who))
    html = client.get(reverse("director:round_live", args=[tournament.slug, round_.number])).content.decode()
    links = set(re.findall(r'href="(/[^"#?]*)', html)) - {reverse("logout")}
    actions = set(re.findall(r'<form method="post"[^>]*action="([^"]+)"', html)) - {reverse("logout")}
    if who == "scorekeeper":
        assert "Start the clock" not in html and not actions, actions
        assert [link for link in links if client.get(link).status_code >= 400] == [], "every link opens for them"
    else:
        assert "Start the clock (40 minutes)" in html
        assert reverse("director:round_clock", args=[tournament.slug, round_.number]) in actions
        assert reverse("director:round", args=[tournament.slug, round_.number]) in links


def test_the_draft_names_the_bye_and_the_team_sitting_out_above_its_tables(director_client, tournament, make_teams):
    """Who does not play at a table this round is read first, before the tables and the substitutes' form."""
    teams = make_teams(tournament, 6)
    team_sit_out_set(team=teams[5], round_number=1, reason="flight late")
    draw_page = markup.unescape(text_of(director_client.get(reverse("director:round_new", args=[tournament.slug]))))
    assert f"the 1 sitting out: #6 {teams[5].display_name})" in draw_page
    round_draw(tournament=tournament, method="random", seed=3)
    html = markup.unescape(director_client.get(reverse("director:round", args=[tournament.slug, 1])).content.decode())
    bye = tournament.rounds.get().seatings.get(table__isnull=True).team
    top = html[: html.index('id="table-1"')]
    assert f"Bye:</strong> #{bye.number} {bye.display_name}" in top
    assert f"Sits out:</strong> #6 {teams[5].display_name}" in top and "flight late" in top
    assert html.index("Sits out:") < html.index('id="substitutes"')
