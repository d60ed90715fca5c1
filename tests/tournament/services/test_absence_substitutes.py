"""Substitutes: the director approves one for one player of a team for one round; the other player stays. The
sheet, the table page's seats, the team's page, the history, the archive and the API name the substitute for that
round only."""

import json
import re

import pytest
from django.urls import reverse

from tests.tournament.test_printing import pdf_pages
from tournament.errors import ServiceError
from tournament.models import LogEntry, Signature, Substitute
from tournament.printing import round_sheets_pdf
from tournament.services.absence import substitute_approve, substitute_remove
from tournament.services.archive import event_export, event_import
from tournament.services.draws import round_draw, round_publish
from tournament.services.sheets import ChangeContext


def text_of(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def round_1(tournament, make_teams):
    make_teams(tournament, 4)
    return round_publish(round=round_draw(tournament=tournament, method="manual"))


@pytest.fixture
def jo(tournament, round_1, staff):
    """Jo Lee plays round 1 for Player 0b (team #1, South at table 1)."""
    team = tournament.teams.get(number=1)
    return substitute_approve(
        team=team, round=round_1, replaces=team.members[1].player, name="  Jo   Lee ", reason="Flight late", actor=staff
    )


def test_the_substitute_takes_the_players_seat_for_that_round_only(client, tournament, round_1, jo, sheet):
    table = round_1.tables.get(number=1)
    said = text_of(client.get(reverse("table", args=[table.secret])))
    assert "South: Jo Lee (substitute for Player 0b)" in said and "North: Player 0a" in said
    for played in round_1.tables.all():
        sheet.play(played)
    round_2 = round_publish(round=round_draw(tournament=tournament, method="manual"))
    other = round_2.seatings.get(team__number=1).table
    assert "Jo Lee" not in text_of(client.get(reverse("table", args=[other.secret])))
    entry = LogEntry.objects.get(action=LogEntry.Action.SUBSTITUTE)
    assert entry.summary == f"{jo.team}, round 1: Jo Lee plays for Player 0b" and entry.reason == "Flight late"


def test_the_seat_buttons_name_the_substitute_not_the_player_replaced(client, round_1, jo):
    table = round_1.tables.get(number=1)
    page = client.get(reverse("table", args=[table.secret])).content.decode()
    first_dealer_buttons = page[page.index('name="first-seat"') - 200 :]
    assert "Jo Lee</small>" in first_dealer_buttons and "Player 0b</small>" not in first_dealer_buttons
    client.post(reverse("table_first_dealer", args=[table.secret]), {"first-seat": "S", "first-version": table.version})
    said = text_of(client.get(reverse("table", args=[table.secret])))
    assert "dealer: South (Jo Lee)" in said


def test_only_a_team_at_a_table_of_the_round_has_a_substitute(director_client, tournament, round_1, make_teams, staff):
    late = make_teams(tournament, 1, start=4)[0]
    with pytest.raises(ServiceError, match="has no table in round 1: a substitute plays at the team's table"):
        substitute_approve(team=late, round=round_1, replaces=late.members[0].player, name="Sam", actor=staff)
    assert Substitute.objects.count() == 0
    page = director_client.get(reverse("director:round", args=[tournament.slug, 1])).content.decode()
    assert "#1: Player 0a" in page and "Player 4a" not in page


def test_at_least_one_own_player_stays(tournament, round_1, jo, staff):
    team = jo.team
    with pytest.raises(ServiceError, match="already plays round 1 with a substitute: at least one of its own players"):
        substitute_approve(team=team, round=round_1, replaces=team.members[0].player, name="Sam", actor=staff)
    other = tournament.teams.get(number=2)
    with pytest.raises(ServiceError, match="is not a player of"):
        substitute_approve(team=other, round=round_1, replaces=team.members[0].player, name="Sam", actor=staff)
    with pytest.raises(ServiceError, match="Give the substitute's name") as refused:
        substitute_approve(team=other, round=round_1, replaces=other.members[0].player, name="  ", actor=staff)
    assert refused.value.field == "name"
    assert Substitute.objects.count() == 1


def test_no_substitute_change_on_a_signed_sheet(tournament, round_1, jo, sheet, staff):
    sheet.play(round_1.tables.get(number=1))
    with pytest.raises(ServiceError, match="signed"):
        substitute_remove(substitute=jo, actor=staff)
    team = tournament.teams.get(number=2)
    with pytest.raises(ServiceError, match="signed"):
        substitute_approve(team=team, round=round_1, replaces=team.members[0].player, name="Sam", actor=staff)


def test_the_director_approves_and_takes_back_from_the_round_page(director_client, tournament, round_1):
    player = tournament.teams.get(number=3).members[0].player
    url = reverse("director:substitute_add", args=[tournament.slug, 1])
    response = director_client.post(url, {"replaces": player.pk, "name": "Ann Roe", "reason": "Ill"}, follow=True)
    said = text_of(response)
    assert "Ann Roe plays Round 1 for Player 2a." in said and "#3: Ann Roe for Player 2a · Ill" in said
    substitute = Substitute.objects.get()
    remove = reverse("director:substitute_remove", args=[tournament.slug, 1, substitute.pk])
    assert "Player 2a plays for" in text_of(director_client.post(remove, follow=True))
    assert not Substitute.objects.exists()


def test_only_the_director_approves(client, scorekeeper, tournament, round_1):
    client.force_login(scorekeeper)
    player = tournament.teams.get(number=3).members[0].player
    url = reverse("director:substitute_add", args=[tournament.slug, 1])
    assert client.post(url, {"replaces": player.pk, "name": "Ann"}).status_code == 403
    assert not Substitute.objects.exists()


def test_the_team_page_the_api_the_sheet_and_the_archive_name_the_substitute(client, tournament, round_1, jo, sheet):
    team = jo.team
    client.post(reverse("team_open"), {"code": team.code})
    assert "South: Jo Lee (substitute for Player 0b)" in text_of(client.get(reverse("team_page", args=[team.pk])))
    rounds = client.get(f"/api/v1/tournaments/{tournament.slug}/rounds").json()
    assert rounds[0]["substitutes"] == [{"team": 1, "replaces": "Player 0b", "name": "Jo Lee"}]
    page = pdf_pages(round_sheets_pdf(round_1, blank=True, base_url="http://127.0.0.1:8000/"))[0]
    assert "South: Jo Lee (substitute for Player 0b)" in " ".join(page.split())
    exported = event_export(tournament.event)
    tournament.event.delete()
    imported = event_import(data=json.loads(json.dumps(exported)))
    assert event_export(imported) == exported
    again = Substitute.objects.get(round__tournament__event=imported)
    assert (again.name, again.replaces.name, again.team.number, again.round.number) == ("Jo Lee", "Player 0b", 1, 1)


SEATS_WITH_JO = "North: Player 0a East: Player 1a South: Jo Lee (substitute for Player 0b) West: Player 1b"


def test_the_substitute_signs_for_the_team_on_the_tables_page_and_is_recorded(client, round_1, jo, sheet):
    """The sign form offers the two who sat North–South this round: Player 0a and Jo Lee, not Player 0b; Jo
    signs and the sheet, its history and the printed sheet say Jo Lee signed."""
    table = sheet.full_round(round_1.tables.get(number=1))
    page = client.get(reverse("table", args=[table.secret])).content.decode()
    form = page[page.index('name="sign-NS-version"') : page.index('name="sign-EW-version"')]
    offered = re.findall(r'name="sign-NS-player" value="([^"]+)"', form)
    assert len(offered) == 2 and str(jo.replaces.pk) not in offered
    assert "Jo Lee (substitute for Player 0b)" in form
    jo_value = next(value for value in offered if value != str(table.team_at("NS").members[0].player.pk))
    data = {
        "sign-NS-version": table.version,
        "sign-NS-pair": "NS",
        "sign-NS-player": jo_value,
        "sign-NS-code": jo.team.code,
    }
    said = text_of(client.post(reverse("table_sign", args=[table.secret]), data, follow=True))
    assert "Signed by Jo Lee for North–South." in said
    signature = table.signatures.get()
    assert (signature.substitute, signature.player, signature.signer_name) == (jo, None, "Jo Lee")
    history = text_of(client.get(reverse("table_history", args=[table.secret])))
    assert "Jo Lee (substitute for Player 0b) signed for North–South, team #1" in history
    assert "Player 0b signed" not in history
    assert SEATS_WITH_JO in history, "the history names who sat where that round"
    sheet.sign(table, "EW", table.team_at("EW").members[0].player)
    printed = " ".join(pdf_pages(round_sheets_pdf(round_1, blank=False, base_url="http://127.0.0.1:8000/"))[0].split())
    assert "Jo Lee, " in printed and "South: Jo Lee (substitute for Player 0b)" in printed


def test_the_replaced_player_no_longer_signs(round_1, jo, sheet, staff):
    from tournament.services.sheets import sheet_sign

    table = sheet.full_round(round_1.tables.get(number=1))
    with pytest.raises(ServiceError, match="Jo Lee plays this round for Player 0b: the substitute signs") as refused:
        sheet.sign(table, "NS", jo.replaces)
    assert refused.value.field == "player" and not table.signatures.exists()
    other = substitute_approve(
        team=table.team_at("EW"), round=round_1, replaces=table.team_at("EW").members[0].player, name="Sam", actor=staff
    )
    with pytest.raises(ServiceError, match="Sam is not North–South's substitute"):
        sheet_sign(
            table=table, pair="NS", substitute=other, context=ChangeContext(version=sheet.version(table), actor=staff)
        )
    sheet_sign(table=table, pair="NS", substitute=jo, context=ChangeContext(version=sheet.version(table), actor=staff))
    assert table.signatures.get().substitute == jo
    with pytest.raises(ServiceError, match="Jo Lee has signed the sheet for #1"):
        substitute_remove(substitute=jo, actor=staff)
    assert Substitute.objects.filter(pk=jo.pk).exists()


def test_a_player_who_signed_is_not_replaced_afterwards(round_1, sheet, staff):
    table = sheet.full_round(round_1.tables.get(number=1))
    team = table.team_at("NS")
    sheet.sign(table, "NS", team.members[1].player)
    with pytest.raises(ServiceError, match="Player 0b has signed the sheet for #1"):
        substitute_approve(team=team, round=round_1, replaces=team.members[1].player, name="Jo", actor=staff)
    assert not Substitute.objects.exists()


def test_the_substitute_signs_on_the_teams_own_page(client, round_1, jo, sheet):
    team = jo.team
    table = sheet.full_round(round_1.tables.get(number=1))
    client.post(reverse("team_open"), {"code": team.code})
    page = client.get(reverse("team_page", args=[team.pk])).content.decode()
    form = page[page.index('id="sign"') :]
    offered = re.findall(r'name="player" value="([^"]+)"', form)
    assert len(offered) == 2 and str(jo.replaces.pk) not in offered
    refused = client.post(reverse("team_sign", args=[team.pk]), {"version": table.version, "player": jo.replaces.pk})
    assert refused.status_code == 400 and not table.signatures.exists()
    assert "That name does not sign for the team this round: choose one of the names shown." in text_of(refused)
    jo_value = next(value for value in offered if value != str(team.members[0].player.pk))
    said = text_of(
        client.post(reverse("team_sign", args=[team.pk]), {"version": table.version, "player": jo_value}, follow=True)
    )
    assert "Signed by Jo Lee for your team." in said
    assert table.signatures.get().substitute == jo


def test_both_team_pages_name_the_substitute_for_that_round_only(client, tournament, round_1, jo, sheet):
    for played in round_1.tables.all():
        sheet.play(played)
    round_2 = round_publish(round=round_draw(tournament=tournament, method="manual"))
    sheet.play(round_2.seatings.get(team__number=1).table)
    public = text_of(client.get(reverse("public:team", args=[tournament.slug, 1])))
    first, second = public.split("Round 2")
    assert SEATS_WITH_JO in first and "South: Player 0b" not in first
    assert "Jo Lee" not in second and "Player 0b" in second
    opponent = text_of(client.get(reverse("public:team", args=[tournament.slug, 2])))
    assert SEATS_WITH_JO in opponent, "the other team's page names who sat where too"
    client.post(reverse("team_open"), {"code": jo.team.code})
    mine = text_of(client.get(reverse("team_page", args=[jo.team.pk])))
    rounds = mine[mine.index("Your rounds") :]
    first, second = rounds.split("Round 2")
    assert SEATS_WITH_JO in first and "Jo Lee" not in second


def test_the_archive_keeps_who_signed_a_substitutes_round(tournament, round_1, jo, sheet, staff):
    from tournament.services.sheets import sheet_sign

    table = sheet.full_round(round_1.tables.get(number=1))
    sheet_sign(table=table, pair="NS", substitute=jo, context=ChangeContext(version=sheet.version(table), actor=staff))
    sheet.sign(table, "EW", table.team_at("EW").members[0].player)
    exported = event_export(tournament.event)
    signed = exported["tournaments"][0]["rounds"][0]["tables"][0]["signatures"]
    assert [(s["pair"], s["player"], s.get("substitute")) for s in signed] == [
        ("EW", signed[0]["player"], False),
        ("NS", None, True),
    ]
    tournament.event.delete()
    imported = event_import(data=json.loads(json.dumps(exported)))
    assert event_export(imported) == exported
    signature = Signature.objects.get(table__round__tournament__event=imported, pair="NS")
    assert (signature.signer_name, signature.substitute.replaces.name) == ("Jo Lee", "Player 0b")


def test_the_draw_names_the_substitute_and_finds_their_table(client, tournament, round_1, jo):
    draw = reverse("public:draw", args=[tournament.slug])
    assert "South: Jo Lee (substitute for Player 0b)" in text_of(client.get(draw))
    found = text_of(client.get(draw, {"q": "jo lee"}))
    assert "Table 1" in found and "Table 2" not in found
