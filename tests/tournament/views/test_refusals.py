"""Every POST of every view, given an input its service refuses: the reason is on the page the person lands on,
where that page opens (at the anchor it is sent to, or at the focused field of a form drawn again), never
kept for a form the page does not draw, and never beside an earlier success as if it were this one's."""

import html
import json
import re
from urllib.parse import urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from scoring.series import SERIES_POINTS_DEFAULT
from tests.tournament.test_hostile_input import field_played  # noqa: F401 (a fixture: the same played field)
from tournament.errors import ServiceError
from tournament.models import Payment, Payout, Pot, Substitute, Table, Team, Tournament
from tournament.services import persons, sheets
from tournament.services import series as series_services
from tournament.services.events import tournament_create
from tournament.services.sheets import ChangeContext

# Views a person never posts to (pages, files, fragments) or that no service can refuse.
NOT_REFUSED = {
    "dashboard", "lockouts", "event", "tournament", "teams", "desk", "log", "checkin_slips", "round", "round_live",
    "round_sheets_pdf", "standings_pdf", "table_cards_pdf", "hands_export", "bracket_pdf", "playoffs",
    "round_live_fragment", "event_archive", "home", "standings", "standings_fragment", "draw", "draw_fragment",
    "team", "bracket", "bracket_fragment", "projector", "team_page", "team_forget", "table", "table_hand_check",
    "table_history", "table_card", "service_worker", "login", "logout", "team_code_new", "announcement_remove",
    "code_pauses", "payouts", "payouts_pdf", "payouts_export", "event_persons", "persons", "series_pdf", "statistics",
    "person", "ratings_recompute", "tournament_ratings", "server_now", "favicon", "rules",
    "display_choose", "display_stylesheet", "round_pairings_pdf",
}  # fmt: skip


def text_of(content: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", content)))


@pytest.fixture
def field(field_played, db):  # noqa: F811
    return Tournament.objects.get(pk=field_played)


@pytest.fixture
def refusals(monkeypatch):
    """The reasons services give while a request runs, as they are raised."""
    said = []
    init = ServiceError.__init__

    def record(self, message, **kwargs):
        said.append(message)
        init(self, message, **kwargs)

    monkeypatch.setattr(ServiceError, "__init__", record)
    return said


def tables(tournament):
    return list(Table.objects.filter(round__tournament=tournament).order_by("number"))


def version(table):
    table.refresh_from_db()
    return table.version


def table_cases(tournament, *, staff=False):
    busy, done = tables(tournament)
    ns = done.team_at("NS")
    hand = {"hand-dealer": "N", "hand-bidder": "S", "hand-bid": "2:high", "hand-books": "8"}
    return {
        "table_first_dealer": (
            reverse("table_first_dealer", args=[done.secret]),
            {"first-version": "0", "first-seat": "E"},
        ),
        "table_hand_add": (
            reverse("table_hand_add", args=[busy.secret]),
            {**hand, "hand-version": version(busy), "hand-confirm": "on"},
        ),
        "table_hand_add (check)": (reverse("table_hand_add", args=[busy.secret]), {**hand, "hand-version": 0}),
        "table_hand_edit": (
            reverse("table_hand_edit", args=[busy.secret, 2]),
            {**hand, "hand-version": version(busy)},
        ),
        "table_hand_remove": (reverse("table_hand_remove", args=[busy.secret, 2]), {"version": "0"}),
        "table_undo": (
            reverse("table_undo", args=[busy.secret]),
            {"version": version(busy)},
            "There is nothing to undo: the sheet changed since, or the removal was undone.",
        ),
        "table_hand_undo": (
            reverse("table_hand_undo", args=[busy.secret]),
            {"version": version(busy)},
            "There is nothing to undo: the sheet changed since, or the hand was undone already.",
        ),
        "table_penalty_remove": (
            reverse("table_penalty_remove", args=[busy.secret, busy.penalties.get().pk]),
            {"version": "0"},
        ),
        "table_redeal": (
            reverse("table_redeal", args=[done.secret]),
            {"redeal-version": version(done), "redeal-dealer": "N", "redeal-reason": "misdeal"},
        ),
        "table_penalty_add": (
            reverse("table_penalty_add", args=[busy.secret]),
            {"penalty-version": "0", "penalty-kind": "exposed_card", "penalty-team": "NS", "penalty-hand": "1"},
        ),
        "table_sign": (
            reverse("table_sign", args=[busy.secret]),
            {
                "sign-NS-version": version(busy),
                "sign-NS-pair": "NS",
                "sign-NS-player": str(busy.team_at("NS").members[0].player.pk),
                "sign-NS-code": busy.team_at("NS").code,
            },
        ),
        "table_sign (wrong code)": (
            reverse("table_sign", args=[done.secret]),
            {
                "sign-NS-version": version(done) - (1 if staff else 0),
                "sign-NS-pair": "NS",
                "sign-NS-player": str(ns.members[0].player.pk),
                "sign-NS-code": "WRONG1",
            },
        ),
        "table_hand_accept": (reverse("table_hand_accept", args=[busy.secret, 1]), {"version": "1", "code": "X"}),
        "table_entries_settle": (
            reverse("table_entries_settle", args=[busy.secret]),
            {"entries-version": version(busy), "entries-keep": "NS", "entries-reason": "r"},
        ),
        "table_dispute": (
            reverse("table_dispute", args=[busy.secret]),
            {"dispute-version": "0", "dispute-pair": "EW", "dispute-note": "Hand 2"},
        ),
        "table_settle": (
            reverse("table_settle", args=[busy.secret]),
            {"settle-version": version(busy), "settle-reason": "ok"},
        ),
        "table_time_call": (reverse("table_time_call", args=[done.secret]), {"version": version(done)}),
        "table_time_call_lift": (reverse("table_time_call_lift", args=[busy.secret]), {"version": version(busy)}),
    }


def landing(client, url, data):
    """Post, follow the redirect (if any); the page, and where it opens."""
    response = client.post(url, data, follow=True)
    assert response.status_code < 500
    last = response.redirect_chain[-1][0] if response.redirect_chain else url
    return response.content.decode(), urlsplit(last).fragment


def assert_in_view(page: str, anchor: str, reason: str):
    """The reason is where the page opens: inside the element the anchor names (the table page's entry area or
    a form opened at its field), or, with no anchor, in the messages atop the page or beside a focused field."""
    reason = text_of(reason)
    if anchor:
        start = page.find(f'id="{anchor}"')
        assert start >= 0, f"the page has nothing at #{anchor}: the refusal would be out of sight"
        assert reason in text_of(page[start : start + 8000]), f"{reason!r} is not at #{anchor}"
        return
    top = page.find('class="messages"')
    in_messages = top >= 0 and reason in text_of(page[top : page.find("</ul>", top)])
    focused = re.search(r"<[^>]*\bautofocus\b", page)
    at_focus = focused is not None and reason in text_of(page[max(focused.start() - 1500, 0) : focused.start() + 3000])
    assert in_messages or at_focus, f"{reason!r} is neither atop the page nor at its focused field"


def team_cases(tournament, client):
    """Team #1's page opened on this phone (its table is still playing: nothing to sign yet)."""
    busy = tables(tournament)[0]
    team = busy.team_at("NS")
    client.post(reverse("team_open"), {"code": team.code})
    Team.objects.filter(pk=team.pk).update(withdraw_requested_at=timezone.now())
    page = reverse("team_page", args=[team.pk])
    player = str(team.members[0].player.pk)
    enter = {"enter-dealer": "S", "enter-bidder": "S", "enter-bid": "2:high", "enter-books": "8"}
    return {
        "team_open": (reverse("team_open"), {"code": "ZZZZZZ"}),
        "team_sign": (page + "sign/", {"version": version(busy), "player": player}),
        "team_accept": (page + "accept/1/", {"version": version(busy)}),
        "team_enter": (page + "enter/", {"enter-version": version(busy), **enter}),
        "team_redeal": (
            page + "redeal/",
            {"redeal-version": version(busy), "redeal-dealer": "S", "redeal-redeal_reason": "misdeal"},
        ),
        "team_payout_confirm": (
            reverse("team_payout_confirm", args=[team.pk, prize(team).pk]),
            {"code": busy.team_at("EW").code},
        ),
        "team_here": (page + "here/", {}),  # the team is checked in already
        "team_withdraw": (page + "withdraw/", {}),  # the team asked already (below)
    }


def substitute_on_a_signed_sheet(tournament):
    """A substitute approved for a team of table 2, whose sheet is then signed (locked)."""
    done = tables(tournament)[1]
    team = done.team_at("NS")
    substitute = Substitute.objects.create(round=done.round, team=team, replaces=team.members[1].player, name="Jo")
    Table.objects.filter(pk=done.pk).update(locked_at=timezone.now())
    return substitute


def prize(team):
    """A prize handed to ``team`` (as the payout sheet would have it), not yet confirmed."""
    return Payout.objects.create(tournament=team.tournament, team=team, pot=Pot.ENTRY, place_number=1, amount="10.00")


def received(team):
    """A payment received from ``team``."""
    return Payment.objects.create(tournament=team.tournament, team=team, pot=Pot.ENTRY, amount="10.00")


def director_cases(tournament, client):
    slug, event = tournament.slug, tournament.event.slug
    shown = client.get(reverse("director:tournament_rules", args=[slug])).context["form"]
    # Unticked boxes are not posted; a setting of 0 (no round clock) is.
    rules = {name: value for name in shown.fields if (value := shown[name].value()) is not None and value is not False}
    team = tournament.teams.get(number=1)
    other = tournament_create(event=tournament.event, name="Side Event", qualifying_rounds=2)
    return {
        "lockout_remove": (reverse("director:lockout_remove"), {"ip_address": "", "username": ""}),
        "event_create": (
            reverse("director:event_create"),
            {"name": "Fall", "starts_on": "2026-10-02", "ends_on": "2026-10-01"},
        ),
        "event_edit": (
            reverse("director:event_edit", args=[event]),
            {"name": "Spring", "venue": "Hall", "starts_on": "2026-05-03", "ends_on": "2026-05-01"},
        ),
        "tournament_create": (
            reverse("director:tournament_create", args=[event]),
            {
                "name": "Main Event",
                "preset": "tournament",
                "qualifying_rounds": "3",
                "paper_size": "letter",
                "standings_order": tournament.standings_order,
                "sheet_mode": "sign",
                "avoid_same_city_rounds": "2",
            },
        ),
        "tournament_edit": (
            reverse("director:tournament_edit", args=[other.slug]),
            {
                "name": "Main Event",
                "qualifying_rounds": "2",
                "paper_size": "letter",
                "standings_order": other.standings_order,
                "sheet_mode": "sign",
                "avoid_same_city_rounds": "0",
            },
        ),
        "tournament_rules": (reverse("director:tournament_rules", args=[slug]), {**rules, "deal": "kitty"}),
        "team_create": (
            reverse("director:team_create", args=[slug]),
            {"player1_name": "Ann", "player2_name": "Bo", "number": "1", "city": "Reno"},
        ),
        "team_edit": (
            reverse("director:team_edit", args=[slug, team.number]),
            {"player1_name": "Player 0a", "player2_name": "Player 0b", "number": "2"},
        ),
        "team_import": (
            reverse("director:team_import", args=[slug]),
            {"file": SimpleUploadedFile("teams.csv", b"player1_name,player2_name,number\nAnn,Bo,1\n")},
        ),
        "desk_action": (
            reverse("director:desk_action", args=[slug, team.number]),
            {"action": "erase"},
            "That is not a desk action.",
        ),
        "desk_check_in": (
            reverse("director:desk_check_in", args=[slug]),
            {"teams": ["99"], "q": "Player"},
            "Team #99 is not here.",
        ),
        "round_new": (reverse("director:round_new", args=[slug]), {"method": "swiss"}),
        "round_swap": (
            reverse("director:round_swap", args=[slug, 1]),
            {"team_a": str(team.number), "team_b": "2"},
        ),
        "round_move": (reverse("director:round_move", args=[slug, 1]), {"team": str(team.number), "table_number": "2"}),
        "round_sitting": (reverse("director:round_sitting", args=[slug, 1, 1]), {}),
        "round_publish": (reverse("director:round_publish", args=[slug, 1]), {}),
        "round_discard": (reverse("director:round_discard", args=[slug, 1]), {}),
        "round_unpublish": (reverse("director:round_unpublish", args=[slug, 1]), {}),
        "round_close": (reverse("director:round_close", args=[slug, 1]), {}),
        "qualifying_close": (reverse("director:qualifying_close", args=[slug]), {}),
        "round_clock": (reverse("director:round_clock", args=[slug, 1]), {"action": "start"}),
        "table_forfeit": (reverse("director:table_forfeit", args=[slug, 1, 1]), {"absent": "EW"}),
        "sit_out": (reverse("director:sit_out", args=[slug]), {"team": "1", "plays": "1"}),
        "substitute_add": (
            reverse("director:substitute_add", args=[slug, 1]),
            {"replaces": str(team.members[0].player.pk), "name": " "},
        ),
        "substitute_remove": (
            reverse("director:substitute_remove", args=[slug, 1, substitute_on_a_signed_sheet(tournament).pk]),
            {},
        ),
        "table_clock": (reverse("director:table_clock", args=[slug, 1, 1]), {"action": "add", "minutes": "3"}),
        "announcements": (
            reverse("director:announcements", args=[slug]),
            {"text": " ", "hours": "2"},
            "This field is required.",
        ),
        "playoffs_seed": (reverse("director:playoffs_seed", args=[slug]), {"teams": "4"}),
        "playoffs_swap": (reverse("director:playoffs_swap", args=[slug]), {"seed_a": "1", "seed_b": "2"}),
        "playoffs_publish": (reverse("director:playoffs_publish", args=[slug]), {}),
        "playoffs_reseed": (reverse("director:playoffs_reseed", args=[slug]), {}),
        "code_pause_lift": (reverse("director:code_pause_lift"), {"pause": "999999"}),
        "money_settings": (
            reverse("director:money_settings", args=[slug]),
            {
                "entry_fee": "100",
                "side_pot_fee": "0",
                "house_percent": "0",
                "payout_percents": "50, 30",
                "side_pot_rule": "placing",
            },
        ),
        "payment_add": (
            reverse("director:payment_add", args=[slug, team.number]),
            {"amount": "-5", "method": "cash", "pot": "entry"},
        ),
        "refund_add": (
            reverse("director:refund_add", args=[slug, team.number]),
            {"amount": "50", "pot": "entry", "method": "cash", "reason": "Left early"},
        ),
        "payout_pay": (reverse("director:payout_pay", args=[slug]), {"team": "1", "pot": "entry"}),
        "payout_confirm": (
            reverse("director:payout_confirm", args=[slug, prize(team).pk]),
            {"signed_by": "Player 1a"},  # #2's player signing for #1's prize
        ),
        "payout_undo": (
            reverse("director:payout_undo", args=[slug, prize(tournament.teams.get(number=2)).pk]),
            {"reason": "wrong\u202eteam"},
        ),
        "payment_void": (
            reverse("director:payment_void", args=[slug, team.number, received(team).pk]),
            {"reason": "wrong\u202eteam"},
        ),
        "payment_move": (
            reverse("director:payment_move", args=[slug, team.number, received(team).pk]),
            {"team": "99", "pot": "entry", "reason": "It was another team's"},
        ),
        **across_events_cases(tournament, team, other),
    }


def across_events_cases(tournament, team, other):
    """Persons and series: a link given twice, an unlinked player unlinked, a person merged into itself, a
    series named twice or left unnamed, a tournament added twice or removed when it is not in the series."""
    linked, unlinked = (member.player for member in team.members)
    person = persons.player_link(player=linked)
    spring = series_services.series_create(name="Spring")
    series_services.series_tournament_add(series=spring, tournament=other)
    points = {key: str(value) for key, value in SERIES_POINTS_DEFAULT.items()}
    event = tournament.event.slug
    return {
        "event_person_link": (
            reverse("director:event_person_link", args=[event]),
            {"player": linked.pk, "person": person.pk},
        ),
        "event_person_unlink": (reverse("director:event_person_unlink", args=[event]), {"player": unlinked.pk}),
        "event_persons_link_all": (
            reverse("director:event_persons_link_all", args=[event]),
            {"which": "suggested"},
        ),
        "person_merge": (reverse("director:person_merge"), {"keep": person.pk, "merge": person.pk}),
        "person_edit": (reverse("director:person_edit", args=[person.pk]), {"name": " "}, "This field is required."),
        "series": (reverse("director:series"), {"name": "Spring", **points}),
        "series_edit": (
            reverse("director:series_edit", args=[spring.slug]),
            {"name": "", **points},
            "This field is required.",
        ),
        "series_tournament_add": (
            reverse("director:series_tournament_add", args=[spring.slug]),
            {"tournament": other.pk},
        ),
        "series_tournament_remove": (
            reverse("director:series_tournament_remove", args=[spring.slug, tournament.pk]),
            {},
        ),
    }


TABLE_CASES = [
    "table_first_dealer",
    "table_hand_add",
    "table_hand_add (check)",
    "table_hand_edit",
    "table_hand_remove",
    "table_penalty_remove",
    "table_undo",
    "table_hand_undo",
    "table_redeal",
    "table_penalty_add",
    "table_sign",
    "table_sign (wrong code)",
    "table_hand_accept",
    "table_entries_settle",
    "table_dispute",
    "table_settle",
    "table_time_call",
    "table_time_call_lift",
]
TEAM_CASES = [
    "team_open",
    "team_sign",
    "team_accept",
    "team_enter",
    "team_redeal",
    "team_payout_confirm",
    "team_here",
    "team_withdraw",
]
DIRECTOR_CASES = [
    "lockout_remove",
    "event_create",
    "event_edit",
    "tournament_create",
    "tournament_edit",
    "tournament_rules",
    "team_create",
    "team_edit",
    "team_import",
    "desk_action",
    "desk_check_in",
    "round_new",
    "round_swap",
    "round_move",
    "round_sitting",
    "round_publish",
    "round_discard",
    "round_unpublish",
    "round_close",
    "qualifying_close",
    "round_clock",
    "table_clock",
    "table_forfeit",
    "sit_out",
    "substitute_add",
    "substitute_remove",
    "announcements",
    "playoffs_seed",
    "playoffs_swap",
    "playoffs_publish",
    "playoffs_reseed",
    "code_pause_lift",
    "money_settings",
    "payment_add",
    "refund_add",
    "payout_pay",
    "payout_confirm",
    "payout_undo",
    "payment_void",
    "payment_move",
    "event_person_link",
    "event_person_unlink",
    "event_persons_link_all",
    "person_merge",
    "person_edit",
    "series",
    "series_edit",
    "series_tournament_add",
    "series_tournament_remove",
]


def url_names(patterns=None, namespace="") -> set[str]:
    names = set()
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace in {"director", "public"}:
                names |= url_names(pattern.url_patterns, pattern.namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            names.add(pattern.name)
    return names


def test_every_view_that_takes_a_post_is_walked():
    """A view added to the app is walked here, or said to be one nobody's refusal can come from."""
    walked = {name.split(" ")[0] for name in TABLE_CASES + TEAM_CASES + DIRECTOR_CASES}
    walked |= {"table_hand_sync", "table_hand_preview", "table_hand_edit_preview", "table_penalty_remove"}
    assert url_names() - NOT_REFUSED - walked == set()


def assert_refused_in_view(client, case, refusals):
    """``case``: the address, what is posted, and the reason when the view itself refuses (not a service)."""
    url, data, *said = case
    page, anchor = landing(client, url, data)
    assert refusals or said, "the service refused nothing: the case does not test a refusal"
    assert_in_view(page, anchor, refusals[-1] if refusals else said[0])


@pytest.mark.parametrize("name", TABLE_CASES)
@pytest.mark.parametrize("who", ["table link", "scorekeeper"])
def test_a_table_refusal_is_in_view_where_the_phone_lands(client, scorekeeper, field, refusals, name, who):
    if who == "scorekeeper":
        client.force_login(scorekeeper)
    assert_refused_in_view(client, table_cases(field, staff=who == "scorekeeper")[name], refusals)


@pytest.mark.parametrize("name", TEAM_CASES)
def test_a_team_page_refusal_is_in_view(client, field, refusals, name):
    assert_refused_in_view(client, team_cases(field, client)[name], refusals)


@pytest.mark.parametrize("name", DIRECTOR_CASES)
def test_a_director_refusal_is_in_view(director_client, field, refusals, name):
    assert_refused_in_view(director_client, director_cases(field, director_client)[name], refusals)


def test_the_queue_and_the_preview_are_told_the_reason(client, field, refusals):
    busy = tables(field)[0]
    hand = {"hand-dealer": "N", "hand-bidder": "S", "hand-bid": "2:high", "hand-books": "8"}
    hand["hand-version"] = version(busy)
    answer = json.loads(client.post(reverse("table_hand_sync", args=[busy.secret]), {**hand, "entry_id": "e1"}).content)
    assert answer["status"] == "refused" and answer["message"] == refusals[-1]
    fragment = client.post(reverse("table_hand_preview", args=[busy.secret]), hand).content.decode()
    assert text_of(refusals[-1]) in text_of(fragment)
    edit = {"hand-version": version(busy), "hand-dealer": "N", "hand-bidder": "N", "hand-bid": "3:high"}
    changed = client.post(reverse("table_hand_edit_preview", args=[busy.secret, 1]), {**edit, "hand-books": "12"})
    assert "This hand: North–South 6, East–West 0 (made)" in text_of(changed.content.decode())


def test_a_refusal_for_a_form_the_sheet_does_not_draw_is_said_above_the_entry(client, field, sheet):
    """Re-dealing a complete sheet, signing one not complete, signing one disputed: said where the sheet opens."""
    done = tables(field)[1]
    sheets.sheet_dispute(table=done, pair="EW", note="Hand 3 books", context=ChangeContext(version=version(done)))
    ns = done.team_at("NS")
    sign = {
        "sign-NS-version": version(done),
        "sign-NS-pair": "NS",
        "sign-NS-player": str(ns.members[0].player.pk),
        "sign-NS-code": ns.code,
    }
    page, anchor = landing(client, reverse("table_sign", args=[done.secret]), sign)
    assert anchor == "entry" and 'id="sign-NS"' not in page
    start = page.find('id="entry"')
    assert "dispute" in text_of(page[start : start + 3000]).lower()
    assert not done.signatures.exists()


def test_a_team_entry_refused_beside_its_field_opens_there(client, field, refusals):
    """Blind double entry: the team's page draws its entry form, so the refusal goes beside the dealer."""
    Tournament.objects.filter(pk=field.pk).update(sheet_mode=Tournament.SheetMode.DOUBLE)
    url, data = team_cases(field, client)["team_enter"]
    response = client.post(url, {**data, "enter-dealer": "W"})
    page = response.content.decode()
    assert response.status_code == 400 and refusals and refusals[-1].startswith("Hand 3 is dealt by South")
    assert_in_view(page, "", refusals[-1])
    dealer = page[page.find('id="id_enter-dealer_group"') : page.find('id="id_enter-bidder_group"')]
    assert "autofocus" in dealer and "dealt by South" in text_of(dealer), "the page opens at the dealer"
