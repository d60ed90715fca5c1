"""Events, tournaments and teams made to order (factory_boy), through the services as the desk makes them.

The demo weekend (``manage.py demo_build``) is played on these, and so are the tests' fixtures and the benchmarks'
large fields (``bench/fields.py`` stores those in bulk with the same names): one way to make data, in the app
because the demo is part of it. Nothing here is only for tests; helpers only a test needs live in ``tests/``.
Names come from sequences, so two teams never clash: team ``n`` is ``Player {n}a`` and ``Player {n}b`` of
``CITIES[n % 4]``."""

import datetime
from typing import Any

import factory
from factory.django import DjangoModelFactory

from tournament.models import Event, Team, Tournament
from tournament.services.events import event_create, tournament_create
from tournament.services.teams import PlayerEntry, team_register

CITIES = ["Detroit", "Chicago", "Atlanta", "Memphis"]


class EventFactory(DjangoModelFactory[Event]):
    """An event made by ``event_create`` (its free slug, its log entry); an ``actor=`` given is handed on."""

    class Meta:
        model = Event

    name = factory.Sequence(lambda n: f"Event {n + 1}")
    venue = "Hall"
    starts_on = datetime.date(2026, 5, 1)
    ends_on = factory.LazyAttribute(lambda event: event.starts_on + datetime.timedelta(days=2))

    @classmethod
    def _create(cls, model_class: type[Event], *args: Any, **kwargs: Any) -> Event:
        return event_create(**kwargs)


class TournamentFactory(DjangoModelFactory[Tournament]):
    """A tournament in set-up made by ``tournament_create`` (its preset's rules), in an event of its own unless
    ``event=`` is given."""

    class Meta:
        model = Tournament

    event = factory.SubFactory(EventFactory)
    name = "Main Event"
    qualifying_rounds = 4

    @classmethod
    def _create(cls, model_class: type[Tournament], *args: Any, **kwargs: Any) -> Tournament:
        return tournament_create(**kwargs)


class PlayerEntryFactory(factory.Factory[PlayerEntry]):
    """A player as the desk types one: ``number`` and ``side`` name them (``Player 3a``), ``label`` sets the
    word before (a benchmark's field names its players after itself); the city follows the number."""

    class Meta:
        model = PlayerEntry

    class Params:
        number = factory.Sequence(lambda n: n)
        side = "a"
        label = "Player"

    name = factory.LazyAttribute(lambda entry: f"{entry.label} {entry.number}{entry.side}")
    city = factory.LazyAttribute(lambda entry: CITIES[entry.number % len(CITIES)])


def _partner(side: str) -> factory.SubFactory:
    """One of a team's two players, named after the team's ``index``."""
    return factory.SubFactory(
        PlayerEntryFactory, number=factory.SelfAttribute("...index"), side=side, label=factory.SelfAttribute("...label")
    )


class TeamFactory(DjangoModelFactory[Team]):
    """A team of two registered by ``team_register`` (checked in unless ``checked_in=False``): the team of
    ``index`` is ``Player {index}a`` and ``Player {index}b``; ``players=`` gives them outright."""

    class Meta:
        model = Team

    class Params:
        index = factory.Sequence(lambda n: n)
        label = "Player"

    tournament = factory.SubFactory(TournamentFactory)
    players = factory.List([_partner("a"), _partner("b")])
    checked_in = True

    @classmethod
    def _create(cls, model_class: type[Team], *args: Any, **kwargs: Any) -> Team:
        return team_register(**kwargs)
