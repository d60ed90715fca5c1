"""The director's day: rounds in order (or a logged override), a round taken back before play, warnings
while editing a draft, and the next sensible step offered on the tournament's page."""

import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.conftest import round_published, text_of
from tournament.errors import ServiceError
from tournament.models import LogEntry, Round
from tournament.services.draws import (
    draw_team_move,
    draw_teams_swap,
    draw_warnings,
    round_close,
    round_draw,
    round_publish,
    round_unpublish,
)
from tournament.services.sheets import ChangeContext


@pytest.fixture
def first_round(tournament, make_teams):
    make_teams(tournament, 8)
    return round_published(tournament)


def test_the_next_round_waits_for_every_sheet_of_the_last(tournament, first_round, sheet):
    tables = list(first_round.tables.order_by("number"))
    sheet.play(tables[0])
    with pytest.raises(ServiceError) as refused:
        round_draw(tournament=tournament, method="swiss")
    assert "Round 2 cannot be drawn yet: round 1 tables 2, 3 and 4 have not signed" in refused.value.message
    assert refused.value.field == "override_unsigned"
    assert not tournament.rounds.filter(number=2).exists()
    for table in tables[1:]:
        sheet.play(table)
    assert round_draw(tournament=tournament, method="swiss").number == 2


def test_an_override_is_explicit_and_logged(tournament, first_round, sheet):
    for table in first_round.tables.order_by("number")[:3]:
        sheet.play(table)
    draft = round_draw(tournament=tournament, method="swiss", override_unsigned=True)
    drawn = LogEntry.objects.get(action=LogEntry.Action.ROUND_DRAWN, round_number=2)
    assert "drawn while round 1 table 4 has not signed (director's override)" in drawn.summary
    with pytest.raises(ServiceError, match="Round 2 cannot be published yet: round 1 table 4 has not signed"):
        round_publish(round=draft)
    round_publish(round=draft, override_unsigned=True)
    published = LogEntry.objects.get(action=LogEntry.Action.ROUND_PUBLISHED, round_number=2)
    assert "director's override" in published.summary


def test_the_draw_page_refuses_beside_the_override_and_takes_it(director_client, tournament, first_round):
    address = reverse("director:round_new", args=[tournament.slug])
    response = director_client.post(address, {"method": "random", "seed": "3"})
    assert response.status_code == 200 and 'id="id_override_unsigned_error"' in response.content.decode()
    assert "round 1 tables 1, 2, 3 and 4 have not signed" in text_of(response)
    response = director_client.post(address, {"method": "random", "seed": "3", "override_unsigned": "on"})
    assert response.status_code == 302 and tournament.rounds.filter(number=2).exists()
    page = text_of(director_client.get(reverse("director:round", args=[tournament.slug, 2])))
    assert "Still playing: round 1 tables 1, 2, 3 and 4" in page and "Publish anyway" in page


def test_the_draw_command_needs_its_override(tournament, first_round):
    with pytest.raises(CommandError, match="--override-unsigned"):
        call_command("draw", tournament.slug, "--round", "2", "--method", "random", "--seed", "1")
    call_command(
        "draw", tournament.slug, "--round", "2", "--method", "random", "--seed", "1", "--override-unsigned", "--publish"
    )
    assert tournament.rounds.get(number=2).status == Round.Status.PUBLISHED


def test_a_round_without_hands_can_be_unpublished_and_its_links_stop(client, tournament, first_round, sheet):
    table = first_round.tables.get(number=1)
    assert client.get(reverse("table", args=[table.secret])).status_code == 200
    round_unpublish(round=first_round)
    first_round.refresh_from_db()
    assert first_round.status == Round.Status.DRAFT and first_round.published_at is None
    assert client.get(reverse("table", args=[table.secret])).status_code == 404
    assert LogEntry.objects.filter(action=LogEntry.Action.ROUND_UNPUBLISHED, round_number=1).exists()
    round_publish(round=first_round)
    sheet.hand(table, "N", "N", 3, "high", 9)
    with pytest.raises(ServiceError, match="table 1 has entered hands"):
        round_unpublish(round=first_round)


def test_unpublishing_through_the_round_page(director_client, tournament, first_round):
    page = text_of(director_client.get(reverse("director:round", args=[tournament.slug, 1])))
    assert "Unpublish round 1" in page
    response = director_client.post(reverse("director:round_unpublish", args=[tournament.slug, 1]), follow=True)
    assert "Round 1 is a draft again: its table links no longer open." in text_of(response)


def test_closing_says_which_tables_have_not_signed(first_round, sheet):
    sheet.play(first_round.tables.get(number=2))
    with pytest.raises(ServiceError) as refused:
        round_close(round=first_round)
    assert refused.value.message == "Round 1 cannot close: tables 1, 3 and 4 have not signed."


def test_editing_a_draft_warns_of_a_rematch_and_of_one_city(tournament, first_round, sheet):
    for table in first_round.tables.all():
        sheet.play(table)
    draft = round_draw(tournament=tournament, method="manual", pairs="1 3\n2 4\n5 7\n6 8")
    teams = {team.number: team for team in tournament.teams.all()}
    assert draw_warnings(draft) == []
    warnings = draw_teams_swap(round=draft, team_a=teams[3], team_b=teams[2])
    assert warnings == [
        "Table 1: #1 and #2 have met already (a rematch).",
        "Table 2: #3 and #4 have met already (a rematch).",
    ]
    tournament.avoid_same_city_rounds = 2
    tournament.save()
    teams[5].city = teams[8].city = "Atlanta"
    teams[5].save()
    teams[8].save()
    draft.refresh_from_db()
    moved = draw_team_move(round=draft, team=teams[7], table_number=9)
    assert moved == []
    moved = draw_team_move(round=draft, team=teams[8], table_number=3)
    assert moved == ["Table 3: #5 and #8 are both from Atlanta, in a round where teams of one city are kept apart."]


def next_step(client, tournament):
    page = client.get(reverse("director:tournament", args=[tournament.slug])).content.decode()
    return re.search(r"<p><strong>Next:</strong> (.*?)</p>", page).group(1)


def test_the_tournament_page_offers_the_next_step(director_client, tournament, make_teams, sheet):
    tournament.qualifying_rounds = 2
    tournament.save()
    assert next_step(director_client, tournament).startswith("Check the teams in")
    make_teams(tournament, 4)
    assert next_step(director_client, tournament) == "Draw round 1."
    draft = round_draw(tournament=tournament, method="manual")
    assert next_step(director_client, tournament) == "Round 1 is a draft: check the tables, then publish it."
    round_publish(round=draft)
    sheet.play(draft.tables.get(number=1))
    assert next_step(director_client, tournament) == (
        "Round 1 is being played: 1 of 2 sheets signed. Not signed yet: round 1 table 2."
    )
    sheet.play(draft.tables.get(number=2))
    assert next_step(director_client, tournament) == "Round 1 is complete. Draw round 2 of 2."
    second = round_published(tournament, method="swiss")
    for table in second.tables.all():
        sheet.play(table)
    assert next_step(director_client, tournament) == (
        "Every qualifying sheet is signed: close rounds 1 and 2 so that only staff corrections change them."
    )
    page = director_client.get(reverse("director:tournament", args=[tournament.slug])).content.decode()
    close = reverse("director:qualifying_close", args=[tournament.slug])
    assert f'<form method="post" action="{close}">' in page and "Close rounds 1 and 2</button>" in page
    response = director_client.post(close, follow=True)
    assert "Rounds 1 and 2 closed: the qualifying sheets change only by staff correction." in text_of(response)
    assert next_step(director_client, tournament) == "Qualifying is over: seed the playoff from the standings."


def test_the_live_view_flags_quiet_tables_and_shows_disputes(director_client, tournament, first_round, sheet):
    from django.utils import timezone

    from tournament.services.sheets import sheet_dispute

    Round.objects.filter(pk=first_round.pk).update(published_at=timezone.now() - timezone.timedelta(minutes=40))
    busy = first_round.tables.get(number=1)
    sheet.hand(busy, "N", "N", 3, "high", 9)
    disputed = first_round.tables.get(number=2)
    sheet_dispute(table=disputed, pair="EW", note="Renege not counted", context=ChangeContext(version=0))
    address = reverse("director:round_live_fragment", args=[tournament.slug, 1])
    live = text_of(director_client.get(address, {"quiet": "30"}))
    assert "No entry for 30 minutes or more: table 3 (40 min), table 4 (40 min)." in live
    assert "Director called at table 2" in live and "Renege not counted" in live
    assert "1 hand entered" in live and "is-disputed" in director_client.get(address).content.decode()
    assert "No entry for" not in text_of(director_client.get(address, {"quiet": "60"}))


def test_desk_messages_read_as_sentences(director_client, tournament, make_teams):
    make_teams(tournament, 2)
    address = reverse("director:desk_action", args=[tournament.slug, 2])
    response = director_client.post(address, {"action": "withdraw"}, follow=True)
    assert "Team #2 withdrawn." in text_of(response)
