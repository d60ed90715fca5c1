import datetime

import pytest
from django.db import IntegrityError

from scoring import RuleSet
from tests.conftest import round_published
from tournament.errors import ServiceError
from tournament.models import LogEntry, Tournament
from tournament.services.draws import round_draw
from tournament.services.events import (
    event_create,
    event_update,
    tournament_create,
    tournament_rules_set,
    tournament_update,
)

MAY_1, MAY_3 = datetime.date(2026, 5, 1), datetime.date(2026, 5, 3)


def test_an_event_gets_a_unique_slug(db):
    first = event_create(name="Spring Classic", starts_on=MAY_1, ends_on=MAY_3)
    second = event_create(name="Spring Classic", starts_on=MAY_1, ends_on=MAY_3)
    assert first.slug == "spring-classic"
    assert second.slug == "spring-classic-2026"


def test_an_event_cannot_end_before_it_starts(db):
    with pytest.raises(ServiceError) as refused:
        event_create(name="Backwards", starts_on=MAY_3, ends_on=MAY_1)
    assert refused.value.field == "ends_on"


def test_the_database_refuses_backwards_dates_too(event):
    event.ends_on = datetime.date(2026, 4, 1)
    with pytest.raises(IntegrityError):
        event.save()


def test_event_update(event):
    event_update(event=event, name="Spring Classic 2026", venue="Ballroom", starts_on=MAY_1, ends_on=MAY_1)
    event.refresh_from_db()
    assert (event.name, event.venue, event.ends_on) == ("Spring Classic 2026", "Ballroom", MAY_1)


def test_a_tournament_starts_from_a_preset(event):
    kitty = tournament_create(event=event, name="Kitty Side Game", preset="kitty")
    assert kitty.rules == RuleSet.preset("kitty")
    assert kitty.status == Tournament.Status.SETUP
    main = tournament_create(event=event, name="Main Event", qualifying_rounds=4)
    assert main.rules == RuleSet.preset("tournament") and main.qualifying_rounds == 4


def test_tournament_names_are_unique_within_an_event(event):
    tournament_create(event=event, name="Main Event")
    with pytest.raises(ServiceError, match="already has a tournament called Main Event") as refused:
        tournament_create(event=event, name="main event")
    assert refused.value.field == "name"


def test_the_same_tournament_name_at_another_event_gets_its_own_slug(event):
    other = event_create(name="Fall Classic", starts_on=MAY_1, ends_on=MAY_3)
    first = tournament_create(event=event, name="Main Event")
    second = tournament_create(event=other, name="Main Event")
    assert first.slug != second.slug


def test_unknown_preset_is_refused_beside_its_field(event):
    with pytest.raises(ServiceError) as refused:
        tournament_create(event=event, name="Odd", preset="bridge")
    assert refused.value.field == "preset"


def test_rules_can_be_changed_until_a_round_is_published(tournament, make_teams):
    tournament_rules_set(tournament=tournament, rules=RuleSet(min_bid=2))
    tournament.refresh_from_db()
    assert tournament.rules.min_bid == 2
    make_teams(tournament, 4)
    round_published(tournament, method="random", seed=1)
    with pytest.raises(ServiceError, match=r"cannot change once a round is published.*\(Minimum bid\)"):
        tournament_rules_set(tournament=tournament, rules=RuleSet(min_bid=3))
    tournament.refresh_from_db()
    assert tournament.rules.min_bid == 2


def test_the_time_settings_still_change_after_publication_and_are_logged(tournament, make_teams, staff):
    """The round clock, its warnings, the playoff's clock and the forfeit's wait change no score."""
    tournament_rules_set(tournament=tournament, rules=RuleSet(min_bid=2))
    make_teams(tournament, 4)
    round_published(tournament, method="random", seed=1)
    timed = tournament.rules.replace(round_minutes=50, warn_minutes=8, forfeit_minutes=10, playoff_clock=True)
    tournament_rules_set(tournament=tournament, rules=timed, actor=staff)
    tournament.refresh_from_db()
    assert tournament.rules == timed and tournament.rules.min_bid == 2
    entry = LogEntry.objects.filter(action=LogEntry.Action.RULES_CHANGED).latest("pk")
    # The log shows the action's name before the summary: the summary does not repeat it.
    assert entry.summary == (
        "Round clock (minutes), First warning (minutes left), Forfeit after (minutes), Clock in the playoff"
    )
    assert entry.before["round_minutes"] == 0 and entry.after["round_minutes"] == 50 and entry.who == "director"
    with pytest.raises(ServiceError, match=r"\(Minimum bid, Boston multiplier\). The time settings still can"):
        tournament_rules_set(
            tournament=tournament, rules=timed.replace(min_bid=3, boston_multiplier=2, round_minutes=40)
        )
    tournament.refresh_from_db()
    assert tournament.rules == timed, "nothing half-written"


def test_qualifying_rounds_cannot_drop_below_the_rounds_drawn(tournament, make_teams):
    make_teams(tournament, 4)
    round_published(tournament, method="random", seed=1)
    round_draw(tournament=tournament, method="random", seed=2, override_unsigned=True)
    with pytest.raises(ServiceError) as refused:
        tournament_update(tournament=tournament, name="Main Event", qualifying_rounds=1, paper_size="a4")
    assert refused.value.field == "qualifying_rounds"
    tournament_update(tournament=tournament, name="Main", qualifying_rounds=2, paper_size="a4")
    tournament.refresh_from_db()
    assert (tournament.name, tournament.qualifying_rounds, tournament.paper_size) == ("Main", 2, "a4")
