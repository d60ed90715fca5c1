import html
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import RuleSet
from scoring.series import SERIES_POINTS_DEFAULT
from tests.tournament.services.test_money import finished  # noqa: F401 (a fixture)
from tests.tournament.services.test_playoffs import play, qualified  # noqa: F401 (a fixture)
from tests.tournament.views.test_refusals import field, field_played, prize, tables, text_of, url_names  # noqa: F401
from tournament.models import FormPost, LogEntry, Payment, Payout, Person, Table, Team, Tournament
from tournament.services import clock, persons
from tournament.services import series as series_services
from tournament.services.absence import substitute_approve
from tournament.services.draws import round_draw, round_publish
from tournament.services.events import announcement_post, tournament_create, tournament_rules_set
from tournament.services.money import money_settings_set, payment_record, payout_pay
from tournament.services.playoffs import playoff_seed
from tournament.services.teams.desk import team_desk_update

TEMPLATES = Path(settings.BASE_DIR) / "templates"
UNTOKENED_PAGES = {"login.html", "open.html"}  # the login and the team's code: they open, they add nothing
UNTOKENED = {"logout", "table_hand_add"}
POINTS = {key: str(value) for key, value in SERIES_POINTS_DEFAULT.items()}


def state() -> dict:
    """Every record the app keeps, as it is (the forms' tokens aside)."""
    return {
        model.__name__: sorted(map(repr, model.objects.values_list()))
        for model in apps.get_app_config("tournament").get_models()
        if model is not FormPost
    }


def drawn_token(client, page: str, action: str) -> str:
    """The token of the form posting to ``action`` as ``page`` draws it (a form without an action posts to its
    page): a form drawn without one fails here."""
    content = client.get(page).content.decode()
    for form in re.findall(r"<form\b.*?</form>", content, flags=re.S):
        opening = form[: form.index(">")]
        target = re.search(r'\baction="([^"]*)"', opening)
        if 'method="post"' in opening and html.unescape(target.group(1) if target else page) == action:
            token = re.search(r'name="form_once" value="([^"]+)"', form)
            assert token, f"the form posting to {action} on {page} is drawn without its token"
            return token.group(1)
    raise AssertionError(f"{page} draws no form posting to {action}")


def assert_taken_once(client, page: str, action: str, data: dict):
    """The form as ``page`` draws it, posted twice: the second post changes nothing and lands where the first
    did, told that it was already recorded."""
    token = drawn_token(client, page, action)
    logged = LogEntry.objects.count()
    first = client.post(action, {**data, "form_once": token})
    assert first.status_code == 302, f"the first post was not taken: {first.status_code}"
    assert LogEntry.objects.count() > logged, "the first post wrote nothing: the case adds or moves nothing"
    kept = state()
    for sent in data.values():
        if hasattr(sent, "seek"):
            sent.seek(0)  # a file is sent again whole, as the browser sends it
    second = client.post(action, {**data, "form_once": token})
    assert state() == kept, "the second post changed what the first stored"
    assert second.status_code == 302 and second["Location"] == first["Location"]
    return text_of(client.get(second["Location"]).content.decode())


def fees(tournament):
    money_settings_set(
        tournament=tournament,
        entry_fee="50",
        side_pot_fee="20",
        house_percent="0",
        payout_percents="100",
        side_pot_rule="placing",
    )


def clock_started(tournament):
    tournament_rules_set(tournament=tournament, rules=RuleSet(round_minutes=20))
    clock.round_clock_start(round=tournament.rounds.get(number=1))


def director_cases(tournament, name):
    """``name``'s case on the field: the page drawing the form, where it posts, what is posted."""
    slug, event = tournament.slug, tournament.event.slug
    team = tournament.teams.get(number=1)
    desk = reverse("director:desk", args=[slug])
    round_page = reverse("director:round", args=[slug, 1])
    if name in ("payment_add", "refund_add", "payment_void", "payment_move"):
        fees(tournament)
        paid = payment_record(team=team, amount="50").pk
    if name == "desk_check_in":
        tournament.teams.filter(number__in=[1, 2]).update(checked_in=False)
    if name in ("round_clock", "table_clock"):
        clock_started(tournament)
    if name == "desk_action":
        team_desk_update(team=team, checked_in=False)
    if name == "series_tournament_add":
        series_services.series_create(name="Spring")
    if name == "person_merge":
        merged = {
            "keep": persons.player_link(player=team.members[0].player).pk,
            "merge": Person.objects.create(name="Ann").pk,
        }
    series = reverse("director:series_edit", args=["spring"])
    side = tournament_create(event=tournament.event, name="Side Event").slug if name == "team_import" else slug
    people = reverse("director:persons")
    return {
        "payment_add": (
            desk,
            reverse("director:payment_add", args=[slug, 1]),
            {"amount": "150", "method": "cash", "pot": "entry", "q": ""},
        ),
        "refund_add": (
            desk,
            reverse("director:refund_add", args=[slug, 1]),
            {"amount": "20", "method": "cash", "pot": "entry", "reason": "Left early", "q": ""},
        ),
        "payment_void": lambda: (
            desk,
            reverse("director:payment_void", args=[slug, 1, paid]),
            {"reason": "Booked to the wrong team", "q": ""},
        ),
        "payment_move": lambda: (
            desk,
            reverse("director:payment_move", args=[slug, 1, paid]),
            {"team": "2", "pot": "entry", "reason": "Booked to the wrong team", "q": ""},
        ),
        "desk_action": (desk, reverse("director:desk_action", args=[slug, 1]), {"action": "check_in", "q": ""}),
        "desk_check_in": (desk, reverse("director:desk_check_in", args=[slug]), {"teams": ["1", "2"], "q": ""}),
        "team_code_new": (desk, reverse("director:team_code_new", args=[slug, 1]), {}),
        "round_clock": (round_page, reverse("director:round_clock", args=[slug, 1]), {"action": "add", "minutes": "5"}),
        "table_clock": (
            round_page,
            reverse("director:table_clock", args=[slug, 1, 1]),
            {"action": "add", "minutes": "5"},
        ),
        "sit_out": (
            reverse("director:round_new", args=[slug]),
            reverse("director:sit_out", args=[slug]),
            {"team": "3"},
        ),
        "substitute_add": (
            round_page,
            reverse("director:substitute_add", args=[slug, 1]),
            {"replaces": str(team.members[0].player.pk), "name": "Jo", "reason": "ill"},
        ),
        "series": (reverse("director:series"), reverse("director:series"), {"name": "Spring", **POINTS}),
        "series_tournament_add": (
            series,
            reverse("director:series_tournament_add", args=["spring"]),
            {"tournament": tournament.pk},
        ),
        "ratings_recompute": (people, reverse("director:ratings_recompute"), {}),
        "event_person_link": (
            reverse("director:event_persons", args=[event]),
            reverse("director:event_person_link", args=[event]),
            {"player": team.members[1].player.pk, "person": ""},
        ),
        "event_persons_link_all": (
            reverse("director:event_persons", args=[event]),
            reverse("director:event_persons_link_all", args=[event]),
            {"which": "new"},
        ),
        "person_merge": (
            people,
            reverse("director:person_merge"),
            merged if name == "person_merge" else {},
        ),
        "team_create": (
            reverse("director:team_create", args=[slug]),
            reverse("director:team_create", args=[slug]),
            {"player1_name": "Ann", "player2_name": "Bo", "number": "9", "city": "Reno"},
        ),
        "team_import": (
            reverse("director:team_import", args=[side]),
            reverse("director:team_import", args=[side]),
            {"file": SimpleUploadedFile("teams.csv", b"player1,player2\nAnn Lee,Bo Ray\n")},
        ),
        "event_create": (
            reverse("director:event_create"),
            reverse("director:event_create"),
            {"name": "Fall", "starts_on": "2026-10-01", "ends_on": "2026-10-02"},
        ),
        "tournament_create": (
            reverse("director:tournament_create", args=[event]),
            reverse("director:tournament_create", args=[event]),
            {
                "name": "Side Event",
                "preset": "tournament",
                "qualifying_rounds": "3",
                "paper_size": "letter",
                "standings_order": tournament.standings_order,
                "sheet_mode": "sign",
                "avoid_same_city_rounds": "0",
            },
        ),
        "announcements": (
            reverse("director:announcements", args=[slug]),
            reverse("director:announcements", args=[slug]),
            {"text": "Lunch at noon", "hours": "2"},
        ),
    }[name]


def director_case(tournament, name):
    case = director_cases(tournament, name)
    return case() if callable(case) else case


DIRECTOR_CASES = [
    "payment_add",
    "refund_add",
    "payment_void",
    "payment_move",
    "desk_action",
    "desk_check_in",
    "team_code_new",
    "round_clock",
    "table_clock",
    "sit_out",
    "substitute_add",
    "series",
    "series_tournament_add",
    "ratings_recompute",
    "event_person_link",
    "event_persons_link_all",
    "person_merge",
    "team_create",
    "team_import",
    "event_create",
    "tournament_create",
    "announcements",
]


@pytest.mark.parametrize("name", DIRECTOR_CASES)
def test_a_director_form_posted_twice_is_taken_once(director_client, field, name):  # noqa: F811
    said = assert_taken_once(director_client, *director_case(field, name))
    assert "Already recorded (the form was sent twice)" in said


def drafted(tournament):
    """Round 2 drawn as a draft over round 1's unsigned table."""
    return round_draw(tournament=tournament, method="manual", override_unsigned=True)


def round_cases(tournament, name):
    """The draw: a round drawn, its draft changed, published, discarded; an absent team declared."""
    slug = tournament.slug
    if name != "round_new":
        draft = drafted(tournament)
    if name == "table_forfeit":
        round_publish(round=draft, override_unsigned=True)
    one, two = "1", "2"  # the draw forms take team numbers, as the director types them
    page = reverse("director:round", args=[slug, 2])
    return {
        "round_new": (
            reverse("director:round_new", args=[slug]),
            reverse("director:round_new", args=[slug]),
            {"method": "manual", "pairs": "", "override_unsigned": "on"},
        ),
        "round_swap": (page, reverse("director:round_swap", args=[slug, 2]), {"team_a": one, "team_b": two}),
        "round_move": (page, reverse("director:round_move", args=[slug, 2]), {"team": one, "table_number": "3"}),
        "round_sitting": (page, reverse("director:round_sitting", args=[slug, 2, 1]), {}),
        "round_publish": (page, reverse("director:round_publish", args=[slug, 2]), {"override_unsigned": "on"}),
        "round_discard": (page, reverse("director:round_discard", args=[slug, 2]), {}),
        "table_forfeit": (
            reverse("director:round_live", args=[slug, 2]),
            reverse("director:table_forfeit", args=[slug, 2, 1]),
            {"absent": "EW", "early": "on", "reason": "gone home"},
        ),
    }[name]


ROUND_CASES = [
    "round_new",
    "round_swap",
    "round_move",
    "round_sitting",
    "round_publish",
    "round_discard",
    "table_forfeit",
]


@pytest.mark.parametrize("name", ROUND_CASES)
def test_a_draw_form_posted_twice_is_taken_once(director_client, field, name):  # noqa: F811
    said = assert_taken_once(director_client, *round_cases(field, name))
    assert "Already recorded (the form was sent twice)" in said


def undoing_cases(tournament, name):
    """What takes something back: an announcement, a substitute, a series' tournament, a person link, a round
    published; and the ratings as a tie-break turned on."""
    slug, event = tournament.slug, tournament.event.slug
    team = tournament.teams.get(number=1)
    round_page = reverse("director:round", args=[slug, 1])
    if name == "announcement_remove":
        said = announcement_post(tournament=tournament, text="Lunch at noon").pk
    if name == "substitute_remove":
        replaces = team.members[0].player
        said = substitute_approve(team=team, round=tournament.rounds.get(number=1), replaces=replaces, name="Jo").pk
    if name == "series_tournament_remove":
        spring = series_services.series_create(name="Spring")
        series_services.series_tournament_add(series=spring, tournament=tournament)
    if name == "event_person_unlink":
        persons.player_link(player=team.members[0].player)
    if name == "round_unpublish":
        round_publish(round=drafted(tournament), override_unsigned=True)
    ratings = reverse("director:tournament_ratings", args=[slug])
    return {
        "announcement_remove": lambda: (
            reverse("director:announcements", args=[slug]),
            reverse("director:announcement_remove", args=[slug, said]),
            {},
        ),
        "substitute_remove": lambda: (round_page, reverse("director:substitute_remove", args=[slug, 1, said]), {}),
        "series_tournament_remove": lambda: (
            reverse("director:series_edit", args=["spring"]),
            reverse("director:series_tournament_remove", args=["spring", tournament.pk]),
            {},
        ),
        "event_person_unlink": lambda: (
            reverse("director:event_persons", args=[event]),
            reverse("director:event_person_unlink", args=[event]),
            {"player": team.members[0].player.pk},
        ),
        "round_unpublish": lambda: (
            reverse("director:round", args=[slug, 2]),
            reverse("director:round_unpublish", args=[slug, 2]),
            {},
        ),
        "tournament_ratings": lambda: (ratings, ratings, {"on": "1"}),
    }[name]()


UNDOING_CASES = [
    "announcement_remove",
    "substitute_remove",
    "series_tournament_remove",
    "event_person_unlink",
    "round_unpublish",
    "tournament_ratings",
]


@pytest.mark.parametrize("name", UNDOING_CASES)
def test_a_form_taking_back_posted_twice_is_taken_once(director_client, field, name):  # noqa: F811
    said = assert_taken_once(director_client, *undoing_cases(field, name))
    assert "Already recorded (the form was sent twice)" in said


def test_a_round_closed_twice_is_closed_once(director_client, qualified):  # noqa: F811
    slug = qualified.slug
    page, close = reverse("director:round", args=[slug, 1]), reverse("director:round_close", args=[slug, 1])
    assert "Already recorded (the form was sent twice)" in assert_taken_once(director_client, page, close, {})


def test_the_qualifying_rounds_closed_twice_are_closed_once(director_client, qualified):  # noqa: F811
    slug = qualified.slug
    page, close = reverse("director:tournament", args=[slug]), reverse("director:qualifying_close", args=[slug])
    assert "Already recorded (the form was sent twice)" in assert_taken_once(director_client, page, close, {})


def playoff_cases(tournament, name):
    slug = tournament.slug
    if name != "playoffs_seed":
        playoff_seed(tournament=tournament, teams=4)
    page = reverse("director:playoffs", args=[slug])
    return {
        "playoffs_seed": (page, reverse("director:playoffs_seed", args=[slug]), {"teams": "4"}),
        "playoffs_swap": (page, reverse("director:playoffs_swap", args=[slug]), {"seed_a": "1", "seed_b": "2"}),
        "playoffs_publish": (page, reverse("director:playoffs_publish", args=[slug]), {}),
    }[name]


PLAYOFF_CASES = ["playoffs_seed", "playoffs_swap", "playoffs_publish"]


@pytest.mark.parametrize("name", PLAYOFF_CASES)
def test_a_playoff_form_posted_twice_is_taken_once(director_client, qualified, name):  # noqa: F811
    said = assert_taken_once(director_client, *playoff_cases(qualified, name))
    assert "Already recorded (the form was sent twice)" in said


def table_cases(tournament, client, name):
    """At a table's link: table 1 has two hands and a penalty, table 2 is complete and not signed."""
    busy, done = tables(tournament)
    page = reverse("table", args=[busy.secret])
    version = str(busy.version)
    if name == "table_undo":
        client.post(reverse("table_hand_remove", args=[busy.secret, 2]), {"version": version})
        version = str(busy.version + 1)
    if name == "table_hand_undo":
        saved = {"hand-dealer": "S", "hand-bidder": "S", "hand-bid": "2:high", "hand-books": "8"}
        client.post(
            reverse("table_hand_add", args=[busy.secret]), {**saved, "hand-version": version, "hand-confirm": "on"}
        )
        version = str(busy.version + 1)
    if name == "table_time_call":
        clock_started(tournament)
        Table.objects.filter(pk=busy.pk).update(clock_ends_at=timezone.now())
    ns = done.team_at("NS")
    hand = {"hand-dealer": "N", "hand-bidder": "S", "hand-bid": "2:high", "hand-books": "8"}
    return {
        "table_penalty_add": (
            page,
            reverse("table_penalty_add", args=[busy.secret]),
            {"penalty-version": version, "penalty-kind": "exposed_card", "penalty-team": "EW", "penalty-hand": "2"},
        ),
        "table_redeal": (
            page,
            reverse("table_redeal", args=[busy.secret]),
            {"redeal-version": version, "redeal-dealer": "S", "redeal-reason": "misdeal"},
        ),
        "table_dispute": (
            page,
            reverse("table_dispute", args=[busy.secret]),
            {"dispute-version": version, "dispute-pair": "EW", "dispute-note": "Hand 2 books"},
        ),
        "table_sign": (
            reverse("table", args=[done.secret]),
            reverse("table_sign", args=[done.secret]),
            {
                "sign-NS-version": str(done.version),
                "sign-NS-pair": "NS",
                "sign-NS-player": str(ns.members[0].player.pk),
                "sign-NS-code": ns.code,
            },
        ),
        "table_hand_edit": (
            reverse("table_hand_edit", args=[busy.secret, 1]),
            reverse("table_hand_edit", args=[busy.secret, 1]),
            {**hand, "hand-version": version},
        ),
        "table_hand_remove": (
            reverse("table_hand_remove", args=[busy.secret, 2]),
            reverse("table_hand_remove", args=[busy.secret, 2]),
            {"version": version},
        ),
        "table_penalty_remove": (
            reverse("table_penalty_remove", args=[busy.secret, busy.penalties.get().pk]),
            reverse("table_penalty_remove", args=[busy.secret, busy.penalties.get().pk]),
            {"version": version},
        ),
        "table_undo": (page, reverse("table_undo", args=[busy.secret]), {"version": version}),
        "table_hand_undo": (page, reverse("table_hand_undo", args=[busy.secret]), {"version": version}),
        "table_time_call": (page, reverse("table_time_call", args=[busy.secret]), {"version": version}),
    }[name]


TABLE_CASES = [
    "table_penalty_add",
    "table_redeal",
    "table_dispute",
    "table_sign",
    "table_hand_edit",
    "table_hand_remove",
    "table_penalty_remove",
    "table_undo",
    "table_hand_undo",
    "table_time_call",
]


@pytest.mark.parametrize("name", TABLE_CASES)
def test_a_table_form_posted_twice_is_taken_once(client, field, name):  # noqa: F811
    assert "Already recorded (the form was sent twice)" in assert_taken_once(client, *table_cases(field, client, name))


def test_a_hand_posted_twice_is_stored_once(client, field):  # noqa: F811
    """The hand form has its own guard (the sheet's version it was drawn at; the queue's entry ids): the second
    post of the same hand is refused as the sheet having changed, and the hand is stored once."""
    busy = tables(field)[0]
    hand = {"hand-dealer": "S", "hand-bidder": "S", "hand-bid": "2:high", "hand-books": "8"}
    data = {**hand, "hand-version": str(busy.version), "hand-confirm": "on"}
    url = reverse("table_hand_add", args=[busy.secret])
    assert client.post(url, data).status_code == 302
    kept = state()
    second = client.post(url, data, follow=True)
    assert state() == kept and busy.hands.count() == 3
    assert "changed" in text_of(second.content.decode())


def team_cases(tournament, client, name):
    """On a team's own page: #1 plays at table 1 (still playing), #3 at table 2 (complete, not signed)."""
    busy, done = tables(tournament)
    table = done if name == "team_sign" else busy
    team = table.team_at("NS")
    if name in ("team_enter", "team_redeal"):  # blind double entry: each team enters the hands
        Tournament.objects.filter(pk=tournament.pk).update(sheet_mode=Tournament.SheetMode.DOUBLE)
    if name == "team_here":
        Team.objects.filter(pk=team.pk).update(checked_in=False)
    client.post(reverse("team_open"), {"code": team.code})
    page = reverse("team_page", args=[team.pk])
    version = str(table.version)
    return {
        "team_here": (page, reverse("team_here", args=[team.pk]), {}),
        "team_withdraw": (page, reverse("team_withdraw", args=[team.pk]), {}),
        "team_sign": (
            page,
            reverse("team_sign", args=[team.pk]),
            {"version": version, "player": str(team.members[0].player.pk)},
        ),
        "team_redeal": (
            page,
            reverse("team_redeal", args=[team.pk]),
            {"redeal-version": version, "redeal-dealer": "S", "redeal-redeal_reason": "misdeal"},
        ),
        "team_enter": (
            page,
            reverse("team_enter", args=[team.pk]),
            {
                "enter-version": version,
                "enter-dealer": "S",
                "enter-bidder": "S",
                "enter-bid": "2:high",
                "enter-books": "8",
            },
        ),
    }[name]


TEAM_CASES = ["team_here", "team_withdraw", "team_sign", "team_redeal", "team_enter"]


@pytest.mark.parametrize("name", TEAM_CASES)
def test_a_team_form_posted_twice_is_taken_once(client, field, name):  # noqa: F811
    assert "Already recorded (the form was sent twice)" in assert_taken_once(client, *team_cases(field, client, name))


def test_a_prize_paid_twice_is_paid_once(director_client, finished, sheet):  # noqa: F811
    """*Pay*'s confirmation tapped twice: one payout; the hand-over signed twice: once; the payment undone twice:
    undone once."""
    play(sheet, finished, "3P", "EW")
    page = reverse("director:payouts", args=[finished.slug])
    pay = reverse("director:payout_pay", args=[finished.slug])
    assert_taken_once(
        director_client, f"{pay}?team=1&pot=entry", f"{pay}?team=1&pot=entry", {"team": "1", "pot": "entry"}
    )
    paid = Payout.objects.get()
    confirm = reverse("director:payout_confirm", args=[finished.slug, paid.pk])
    said = assert_taken_once(director_client, page, confirm, {"signed_by": paid.team.members[0].player.name})
    assert "Already recorded (the form was sent twice)" in said
    undo = reverse("director:payout_undo", args=[finished.slug, paid.pk])
    said = assert_taken_once(director_client, page, undo, {"reason": "Paid to the wrong player"})
    assert "Already recorded (the form was sent twice)" in said
    assert not Payout.objects.exists()


def test_a_prize_confirmed_twice_by_the_team_is_confirmed_once(client, finished, sheet):  # noqa: F811
    play(sheet, finished, "3P", "EW")
    team = finished.teams.get(number=1)
    paid = payout_pay(tournament=finished, team=team)
    client.post(reverse("team_open"), {"code": team.code})
    confirm = reverse("team_payout_confirm", args=[team.pk, paid.pk])
    said = assert_taken_once(client, reverse("team_page", args=[team.pk]), confirm, {"code": team.code})
    assert "Already recorded (the form was sent twice)" in said


# Posted to, and not walked above: a setting or an edit (a second post sets the same values again), a lifted pause
# or lockout, the seeds made again from the standings (only after a corrected sheet), the team's code, the login and
# the logout (they open or close, adding nothing), a team forgetting this phone, the sheet's entries made only in
# other modes or states (accepting a hand, settling differing entries or a dispute, the first dealer, a call of time
# lifted: each carries the sheet's version too), the hand queue and the previews (entry ids; nothing stored). Their
# forms carry the token all the same (``test_every_form_carries_its_token``).
SAME_AGAIN = {
    "lockout_remove", "code_pause_lift", "event_edit", "tournament_edit", "tournament_rules", "team_edit",
    "money_settings", "person_edit", "series_edit", "playoffs_reseed", "team_open", "team_forget", "login", "logout",
    "team_accept", "table_first_dealer", "table_hand_accept", "table_entries_settle", "table_settle",
    "table_time_call_lift", "table_hand_sync", "table_hand_check", "table_hand_preview", "table_hand_edit_preview",
}  # fmt: skip
# Pages, files and fragments: nobody posts to them.
PAGES = {
    "dashboard", "lockouts", "code_pauses", "event", "tournament", "teams", "desk", "log", "checkin_slips",
    "payouts", "payouts_pdf", "payouts_export", "round", "round_live", "round_live_fragment", "round_sheets_pdf",
    "standings_pdf", "table_cards_pdf", "round_pairings_pdf", "hands_export", "bracket_pdf", "playoffs",
    "event_archive", "event_persons", "persons", "series_pdf", "home", "server_now", "favicon", "standings",
    "standings_fragment", "draw", "draw_fragment", "team", "bracket", "bracket_fragment", "projector", "statistics",
    "person", "team_page", "table", "table_history", "table_card", "service_worker", "display_choose",
    "display_stylesheet", "rules",
}  # fmt: skip


def test_every_view_that_takes_a_post_is_walked():
    """A view added to the app is taken once here, or said to add and move nothing a second post could repeat."""
    taken_once = set(DIRECTOR_CASES + ROUND_CASES + UNDOING_CASES + PLAYOFF_CASES + TABLE_CASES + TEAM_CASES) | {
        "round_close",
        "qualifying_close",
        "payout_pay",
        "payout_confirm",
        "payout_undo",
        "team_payout_confirm",
        "table_hand_add",
    }
    assert url_names() - PAGES - SAME_AGAIN - taken_once == set()
    assert not taken_once & SAME_AGAIN


def test_every_form_carries_its_token():
    """Every form that posts carries ``{% form_once %}`` beside its CSRF token, but the login, the logout, the
    team's code and the hand form (its own guard, above)."""
    bare = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        for form in re.findall(r"<form\b[^>]*method=\"post\".*?</form>", path.read_text(), flags=re.S):
            if path.name in UNTOKENED_PAGES or any(f"'{name}'" in form for name in UNTOKENED):
                continue
            if "{% form_once %}" not in form:
                bare.append(f"{path.relative_to(TEMPLATES)}: {form[:120]}")
    assert bare == []


def test_five_minutes_added_twice_by_a_double_tap_are_five(director_client, field):  # noqa: F811
    page, action, data = director_case(field, "round_clock")
    round_1 = field.rounds.get(number=1)
    ends = round_1.clock_ends_at
    token = drawn_token(director_client, page, action)
    for _ in range(2):
        director_client.post(action, {**data, "form_once": token})
    round_1.refresh_from_db()
    assert round_1.clock_ends_at - ends == timedelta(minutes=5)


def test_the_second_post_is_told_what_the_first_did(director_client, field):  # noqa: F811
    page, action, data = director_case(field, "payment_add")
    token = drawn_token(director_client, page, action)
    director_client.post(action, {**data, "form_once": token})
    second = director_client.post(action, {**data, "form_once": token}, follow=True)
    said = text_of(second.content.decode())
    assert "Already recorded (the form was sent twice): " in said and "150.00" in said
    assert Payment.objects.count() == 2, "the 50.00 paid before, and this 150.00 once"


def test_a_refused_form_can_be_corrected_and_sent_again(director_client, field):  # noqa: F811
    """A refusal keeps nothing: the same form, corrected (or sent again from the browser's history), is taken."""
    page, action, data = director_case(field, "payment_add")
    token = drawn_token(director_client, page, action)
    director_client.post(action, {**data, "amount": "-5", "form_once": token})
    assert Payment.objects.count() == 1
    director_client.post(action, {**data, "amount": "5", "form_once": token})
    assert Payment.objects.count() == 2


def test_a_token_seen_by_someone_else_proves_nothing(director_client, scorekeeper, field):  # noqa: F811
    """Another person posting a form's token is not answered with its first result: their post is refused as any
    post of theirs would be."""
    page, action, data = director_case(field, "payment_add")
    token = drawn_token(director_client, page, action)
    director_client.post(action, {**data, "form_once": token})
    other = Client()
    other.force_login(scorekeeper)
    assert other.post(action, {**data, "form_once": token}).status_code == 403
    assert Payment.objects.count() == 2


def test_tokens_are_kept_a_day(director_client, field):  # noqa: F811
    page, action, data = director_case(field, "payment_add")
    token = drawn_token(director_client, page, action)
    director_client.post(action, {**data, "form_once": token})
    FormPost.objects.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    other = drawn_token(director_client, page, action)
    director_client.post(action, {**data, "form_once": other})
    assert FormPost.objects.count() == 1, "the day-old token was let go when the next was kept"


def test_a_post_without_a_token_runs_as_before(director_client, field):  # noqa: F811
    """A script or an old page without the token: each post is taken, as it always was."""
    _, action, data = director_cases(field, "payment_add")
    for _ in range(2):
        director_client.post(action, data)
    assert Payment.objects.count() == 3 and not FormPost.objects.exists()


def test_another_button_of_the_same_drawn_form_is_another_post(director_client, field):  # noqa: F811
    """The desk's row tapped twice, *Check in* then *Fee paid*, before the page came back: both are done."""
    page, action, data = director_cases(field, "desk_action")
    token = drawn_token(director_client, page, action)
    for action_name in ("check_in", "fee_paid"):
        director_client.post(action, {**data, "action": action_name, "form_once": token})
    team = field.teams.get(number=1)
    assert team.checked_in and team.fee_paid
