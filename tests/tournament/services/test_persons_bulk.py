"""Linking a whole event's players at once: every single suggestion accepted, or every unmatched player made a
new person, each link logged as one link is; what needs the director's choice is left alone."""

import datetime

import pytest

from tests.conftest import round_published
from tests.tournament.services.test_persons import _event, _player, _team
from tournament.errors import ServiceError
from tournament.models import LogEntry, Person, PersonRating
from tournament.services.persons import event_players_link_new, event_players_link_suggested, player_link


@pytest.fixture
def returning(db):
    """Spring's four players linked; Fall: Ann and Bo return, Cy has two namesakes, Eve and Fay are new."""
    spring, spring_main = _event("Spring", datetime.date(2026, 4, 1))
    fall, fall_main = _event("Fall", datetime.date(2026, 10, 1))
    _team(spring_main, "Ann Lee", "Bo Diaz")
    _team(spring_main, "Cy Hart", "Di Moss")
    for name in ("Ann Lee", "Bo Diaz", "Cy Hart", "Di Moss"):
        player_link(player=_player(spring, name))
    Person.objects.create(name="Cy Hart", city="Detroit")
    _team(fall_main, "Ann Lee", "Bo Diaz")
    _team(fall_main, "Cy Hart", "Eve Park")
    _team(fall_main, "Fay Wu", "Gus Kim", city="Chicago")
    return spring, fall


def test_every_single_suggestion_is_accepted_each_logged(returning, staff):
    spring, fall = returning
    done = event_players_link_suggested(event=fall, actor=staff)
    assert sorted(player.name for player in done.linked) == ["Ann Lee", "Bo Diaz"]
    assert done.left == 4, "Cy Hart has two namesakes: the director chooses; Eve, Fay and Gus are new"
    assert _player(fall, "Ann Lee").person == _player(spring, "Ann Lee").person
    assert _player(fall, "Cy Hart").person is None and _player(fall, "Eve Park").person is None
    logged = LogEntry.objects.filter(action=LogEntry.Action.PERSON_LINKED, actor_name="director")
    assert sorted(entry.summary.split(" of ")[0] for entry in logged) == ["Ann Lee (Detroit)", "Bo Diaz (Detroit)"]
    with pytest.raises(ServiceError, match="No player waiting has one suggested person"):
        event_players_link_suggested(event=fall, actor=staff)


def test_every_unmatched_player_becomes_a_new_person_and_the_suggested_wait(returning, staff):
    _, fall = returning
    persons = Person.objects.count()
    done = event_players_link_new(event=fall, actor=staff)
    assert sorted(player.name for player in done.linked) == ["Eve Park", "Fay Wu", "Gus Kim"]
    assert done.left == 3 and Person.objects.count() == persons + 3
    assert _player(fall, "Fay Wu").person.city == "Chicago"
    assert _player(fall, "Ann Lee").person is None, "a player with a suggestion may be someone known"
    linked = LogEntry.objects.filter(action=LogEntry.Action.PERSON_LINKED, actor_name="director")
    assert linked.filter(summary__contains="linked to new person").count() == 3
    with pytest.raises(ServiceError, match="Every player waiting has a suggested person"):
        event_players_link_new(event=fall, actor=staff)


def test_the_ratings_follow_once_after_the_last_link(tournament, make_teams, sheet, staff):
    make_teams(tournament, 2)
    sheet.play(round_published(tournament).tables.get())
    done = event_players_link_new(event=tournament.event, actor=staff)
    assert len(done.linked) == 4 and done.left == 0
    assert PersonRating.objects.count() == 4, "every new person rated from the signed round"
    recomputed = LogEntry.objects.filter(action=LogEntry.Action.RATINGS_RECOMPUTED)
    assert [entry.summary for entry in recomputed] == [
        "Ratings recomputed from every signed round after 4 player(s) were linked"
    ]
