"""Events, tournaments, the desk's counts and the director's announcements."""

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from scoring.money import SidePotRule
from scoring.rulebook import Money, Section, rules_in_words
from tournament.models import Announcement, Event, Tournament


def events_list() -> QuerySet[Event]:
    return Event.objects.annotate(tournament_count=Count("tournaments"))


def event_get(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


def event_tournaments(event: Event) -> QuerySet[Tournament]:
    return event.tournaments.annotate(
        team_count=Count("teams", distinct=True),
        checked_in_count=Count("teams", filter=Q(teams__checked_in=True, teams__withdrawn=False), distinct=True),
    )


def tournament_get(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), slug=slug)


def tournament_rules_words(tournament: Tournament) -> list[Section]:
    """The tournament's rules in sentences, from its rule set, standings order and money settings (no query)."""
    money = Money(
        entry_fee=tournament.entry_fee,
        side_pot_fee=tournament.side_pot_fee,
        house_percent=tournament.house_percent,
        payout_percents=tournament.percents,
        side_pot_rule=SidePotRule(tournament.side_pot_rule),
    )
    return rules_in_words(
        tournament.rules,
        criteria=tournament.criteria,
        rating_breaks_ties=tournament.rating_breaks_ties,
        qualifying_rounds=tournament.qualifying_rounds,
        money=money,
    )


def announcements_active(tournament: Tournament) -> QuerySet[Announcement]:
    return Announcement.objects.filter(tournament=tournament).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())
    )


@dataclass(frozen=True)
class DeskCounts:
    teams: int
    checked_in: int
    fee_paid: int
    side_pot: int
    withdrawn: int


def desk_counts(tournament: Tournament) -> DeskCounts:
    counts = tournament.teams.aggregate(
        teams=Count("pk"),
        checked_in=Count("pk", filter=Q(checked_in=True, withdrawn=False)),
        fee_paid=Count("pk", filter=Q(fee_paid=True)),
        side_pot=Count("pk", filter=Q(side_pot=True)),
        withdrawn=Count("pk", filter=Q(withdrawn=True)),
    )
    return DeskCounts(**counts)
