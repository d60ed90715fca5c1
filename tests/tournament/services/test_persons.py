"""Persons across events: linking, unlinking, merging and hiding, each refused where the rules say, and logged."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import LogEntry, Person, PersonRating, Player
from tournament.services.events import event_create, tournament_create
from tournament.services.persons import person_update, persons_merge, player_link, player_unlink
from tournament.services.ratings import ratings_recompute
from tournament.services.teams import PlayerEntry, team_register


def _event(name, day):
    event = event_create(name=name, starts_on=day, ends_on=day)
    return event, tournament_create(event=event, name="Main", qualifying_rounds=2)


def _team(tournament, first, second, city="Detroit", phone=""):
    return team_register(
        tournament=tournament, players=[PlayerEntry(first, city, phone), PlayerEntry(second, city)], checked_in=True
    )


def _player(event, name):
    return Player.objects.get(event=event, name=name)


@pytest.fixture
def two_events(db):
    spring, spring_main = _event("Spring", datetime.date(2026, 4, 1))
    fall, fall_main = _event("Fall", datetime.date(2026, 10, 1))
    _team(spring_main, "Ann Lee", "Bo Diaz")
    _team(spring_main, "Cy Hart", "Di Moss")
    _team(fall_main, "Ann Lee", "Cy Hart")
    _team(fall_main, "Bo Diaz", "Di Moss")
    return spring, spring_main, fall, fall_main


def test_linking_two_events_players_to_one_person_is_logged(two_events):
    spring, _, fall, _ = two_events
    ann = player_link(player=_player(spring, "Ann Lee"))
    assert (ann.name, ann.city) == ("Ann Lee", "Detroit")
    assert player_link(player=_player(fall, "Ann Lee"), person=ann) == ann
    assert set(ann.players.values_list("event__name", flat=True)) == {"Spring", "Fall"}
    entries = LogEntry.objects.filter(action=LogEntry.Action.PERSON_LINKED)
    assert [e.summary for e in entries] == [
        f"Ann Lee (Detroit) of Spring linked to new person Ann Lee (Detroit) (#{ann.pk})",
        f"Ann Lee (Detroit) of Fall linked to Ann Lee (Detroit) (#{ann.pk})",
    ]


def test_a_person_is_one_player_of_a_tournament(two_events):
    spring, _, _, _ = two_events
    ann = player_link(player=_player(spring, "Ann Lee"))
    with pytest.raises(ServiceError, match="already plays in Spring: Main"):
        player_link(player=_player(spring, "Cy Hart"), person=ann)
    assert _player(spring, "Cy Hart").person is None


def test_a_linked_player_is_not_relinked_silently_and_unlinking_is_logged(two_events):
    spring, _, fall, _ = two_events
    ann = player_link(player=_player(spring, "Ann Lee"))
    other = player_link(player=_player(fall, "Bo Diaz"))
    with pytest.raises(ServiceError, match="already linked to Ann Lee"):
        player_link(player=_player(spring, "Ann Lee"), person=other)
    player_unlink(player=_player(spring, "Ann Lee"))
    assert not ann.players.exists()
    assert LogEntry.objects.filter(action=LogEntry.Action.PERSON_UNLINKED).count() == 1
    with pytest.raises(ServiceError, match="not linked"):
        player_unlink(player=_player(spring, "Ann Lee"))


def test_merging_moves_the_records_and_keeps_a_hidden_request(two_events):
    spring, _, fall, _ = two_events
    first = player_link(player=_player(spring, "Ann Lee"))
    second = player_link(player=_player(fall, "Ann Lee"))
    person_update(person=second, hidden=True)
    kept = persons_merge(keep=first, merge=second)
    assert kept.hidden
    assert set(kept.players.values_list("event__name", flat=True)) == {"Spring", "Fall"}
    assert not Person.objects.filter(pk=second.pk).exists()
    assert LogEntry.objects.filter(action=LogEntry.Action.PERSONS_MERGED).count() == 1


def test_merging_two_people_of_one_tournament_is_refused(two_events):
    spring, _, _, _ = two_events
    ann = player_link(player=_player(spring, "Ann Lee"))
    bo = player_link(player=_player(spring, "Bo Diaz"))
    with pytest.raises(ServiceError, match="both play in Spring: Main"):
        persons_merge(keep=ann, merge=bo)
    with pytest.raises(ServiceError, match="two different"):
        persons_merge(keep=ann, merge=ann)
    assert Person.objects.count() == 2


def test_merging_two_people_who_played_each_other_is_refused(two_events):
    spring, spring_main, _, _ = two_events
    round_published(spring_main)
    ann = player_link(player=_player(spring, "Ann Lee"))
    cy = player_link(player=_player(spring, "Cy Hart"))
    with pytest.raises(ServiceError, match=r"played each other .*round 1, table 1"):
        persons_merge(keep=ann, merge=cy)
    assert _player(spring, "Cy Hart").person == cy


def test_hiding_and_renaming_a_person(two_events):
    spring, _, _, _ = two_events
    ann = player_link(player=_player(spring, "Ann Lee"))
    person_update(person=ann, hidden=True, name="  Ann   Lee-Smith ")
    ann.refresh_from_db()
    assert (ann.name, ann.hidden, ann.public_name) == ("Ann Lee-Smith", True, "a player")
    with pytest.raises(ServiceError, match="needs a name"):
        person_update(person=ann, name="  ")


def _played(sheet, tournament, winner="NS"):
    round_ = round_published(tournament)
    for table in round_.tables.all():
        sheet.play(table, winner)


def test_ratings_come_from_signed_rounds_and_a_recompute_gives_the_same_numbers(two_events, sheet):
    spring, spring_main, fall, fall_main = two_events
    for event in (spring, fall):
        for player in Player.objects.filter(event=event):
            existing = Person.objects.filter(name=player.name).first()
            player_link(player=player, person=existing)
    _played(sheet, spring_main, "NS")
    _played(sheet, fall_main, "EW")
    loner = Person.objects.create(name="Never Played")

    assert ratings_recompute() == 4
    first = {r.person.name: (r.rating, r.deviation, r.rounds) for r in PersonRating.objects.select_related("person")}
    output = io.StringIO()
    call_command("ratings_recompute", stdout=output)
    assert output.getvalue() == "Ratings recomputed from every signed round: 4 person(s) rated.\n"
    again = {r.person.name: (r.rating, r.deviation, r.rounds) for r in PersonRating.objects.select_related("person")}
    assert first == again
    assert not PersonRating.objects.filter(person=loner).exists()
    assert all(rounds == 2 for _, _, rounds in first.values())
    # Ann won in spring (NS) and lost in fall (NS again, EW won); Bo won in spring and won in fall.
    assert first["Bo Diaz"][0] > first["Ann Lee"][0]
    assert all(deviation < 350 for _, deviation, _ in first.values())


def test_no_rating_without_a_signed_round(director_client, two_events, sheet):
    """Linked persons whose tables are not signed: the recompute says nobody is rated and stores nothing;
    the database refuses a rating made of no round."""
    spring, spring_main, _, _ = two_events
    for player in Player.objects.filter(event=spring):
        player_link(player=player)
    round_ = round_published(spring_main)
    sheet.full_round(round_.tables.get(number=1))
    output = io.StringIO()
    call_command("ratings_recompute", stdout=output)
    assert output.getvalue().startswith("No person has played a signed round yet: nobody is rated")
    response = director_client.post(reverse("director:ratings_recompute"), follow=True)
    assert "nobody is rated (a rating comes only from signed rounds)" in response.content.decode()
    assert not PersonRating.objects.exists()
    person = Person.objects.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        PersonRating.objects.create(person=person, rounds=0, computed_at=timezone.now())


def _ratings_stored() -> dict:
    return {
        rating.person_id: (rating.rating, rating.deviation, rating.volatility, rating.rounds)
        for rating in PersonRating.objects.all()
    }


def _as_a_recompute_leaves_them():
    """The stored ratings, checked equal to what a full recompute stores; the recompute is then undone."""
    stored = _ratings_stored()
    with transaction.atomic():
        ratings_recompute()
        recomputed = _ratings_stored()
        transaction.set_rollback(True)
    assert stored == recomputed
    return stored


def test_ratings_move_with_every_link_unlink_and_merge_as_a_recompute_gives_them(two_events, sheet):
    """Spring: Ann & Bo beat Cy & Di; fall: Bo & Di beat Ann & Cy. After each link, unlink and merge, every
    person's stored rating is the one a full recompute gives; a person whose records are all unlinked has none."""
    spring, spring_main, fall, fall_main = two_events
    _played(sheet, spring_main, "NS")
    _played(sheet, fall_main, "EW")
    assert _as_a_recompute_leaves_them() == {}

    ann = player_link(player=_player(spring, "Ann Lee"))
    assert _as_a_recompute_leaves_them()[ann.pk][3] == 1, "Ann's spring round, won"
    player_link(player=_player(fall, "Ann Lee"), person=ann)
    assert _as_a_recompute_leaves_them()[ann.pk][3] == 2
    bo = player_link(player=_player(spring, "Bo Diaz"))
    player_link(player=_player(fall, "Bo Diaz"), person=bo)
    cy_spring = player_link(player=_player(spring, "Cy Hart"))
    cy_fall = player_link(player=_player(fall, "Cy Hart"))
    before_merge = _as_a_recompute_leaves_them()
    assert before_merge[cy_spring.pk][3] == before_merge[cy_fall.pk][3] == 1
    cy = persons_merge(keep=cy_spring, merge=cy_fall)
    assert _as_a_recompute_leaves_them()[cy.pk][3] == 2, "the merged person is rated at once"

    player_unlink(player=_player(spring, "Ann Lee"))
    assert _as_a_recompute_leaves_them()[ann.pk][3] == 1, "only the fall round is Ann's now"
    player_unlink(player=_player(fall, "Ann Lee"))
    assert ann.pk not in _as_a_recompute_leaves_them(), "no record of Ann's is linked: no rating"
    assert "ratings recomputed" in LogEntry.objects.filter(action=LogEntry.Action.PERSON_UNLINKED).last().summary


def test_linking_a_player_who_has_not_played_keeps_the_ratings(two_events, sheet):
    spring, spring_main, fall, _ = two_events
    _played(sheet, spring_main, "NS")
    ann = player_link(player=_player(spring, "Ann Lee"))
    rated = _ratings_stored()
    player_link(player=_player(fall, "Ann Lee"), person=ann)
    assert _ratings_stored() == rated == _as_a_recompute_leaves_them()
    assert "ratings" not in LogEntry.objects.filter(action=LogEntry.Action.PERSON_LINKED).last().summary
