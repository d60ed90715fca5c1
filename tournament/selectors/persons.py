"""Persons across events: the director's linking page with its suggestions, and a person's public page."""

import re
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, F, Prefetch, Q, QuerySet, Value
from django.db.models.functions import Lower, Replace
from django.http import Http404

from scoring.rating import Rating
from scoring.statistics import Statistics
from tournament.models import HIDDEN_NAME, Event, LogEntry, Person, PersonRating, Player, TeamMember, Tournament
from tournament.selectors.outcomes import Outcome, team_outcomes
from tournament.selectors.series import person_series_points
from tournament.selectors.statistics import person_statistics
from tournament.typed import whole_number

PERSON_ACTIONS = (
    LogEntry.Action.PERSON_LINKED,
    LogEntry.Action.PERSON_UNLINKED,
    LogEntry.Action.PERSONS_MERGED,
    LogEntry.Action.PERSON_CHANGED,
    LogEntry.Action.SERIES_CHANGED,
    LogEntry.Action.RATINGS_RECOMPUTED,
)


def phone_digits(phone: str) -> str:
    return re.sub(r"\D", "", phone or "")


PHONE_PUNCTUATION = " -().+/"


def _phone_digits_sql() -> F | Replace:
    """A phone without the punctuation people type, in SQL (SQLite has no regular expression replace)."""
    expression: F | Replace = F("phone")
    for mark in PHONE_PUNCTUATION:
        expression = Replace(expression, Value(mark), Value(""))
    return expression


@dataclass
class LinkRow:
    player: Player
    suggestions: list[tuple[Person, str]] = field(default_factory=list)


def event_link_rows(event: Event) -> list[LinkRow]:
    """The event's players with their person, and for each player not linked the persons it may be:
    same name and city, or the same phone as a player linked before. A person who already plays in one of
    the player's tournaments is never suggested. Five queries whatever the number of players."""
    players = list(
        Player.objects.filter(event=event)
        .select_related("person")
        .prefetch_related(Prefetch("memberships", queryset=TeamMember.objects.only("tournament_id", "player_id")))
        .order_by(Lower("name"), "pk")
    )
    waiting = [player for player in players if player.person_id is None]
    names = {player.name.lower() for player in waiting}
    by_name: defaultdict[tuple[str, str], list[Person]] = defaultdict(list)
    for named in Person.objects.annotate(lower_name=Lower("name")).filter(lower_name__in=names):
        by_name[(named.lower_name, named.city.lower())].append(named)
    phones = {phone_digits(player.phone) for player in waiting} - {""}
    by_phone: defaultdict[str, list[Person]] = defaultdict(list)
    for other in (
        Player.objects.filter(person__isnull=False)
        .exclude(phone="")
        .annotate(digits=_phone_digits_sql())
        .filter(digits__in=phones)
        .exclude(event=event)
        .select_related("person")
    ):
        if other.person is not None:  # filtered so in the query
            by_phone[phone_digits(other.phone)].append(other.person)
    suggested = {person.pk for found in (*by_name.values(), *by_phone.values()) for person in found}
    busy: defaultdict[int, set[int]] = defaultdict(set)
    for person_id, tournament_id in TeamMember.objects.filter(player__person_id__in=suggested).values_list(
        "player__person_id", "tournament_id"
    ):
        busy[person_id].add(tournament_id)
    rows = []
    for player in players:
        row = LinkRow(player)
        if player.person_id is None:
            mine = {member.tournament_id for member in player.memberships.all()}
            candidates = [(p, "same name and city") for p in by_name[(player.name.lower(), player.city.lower())]]
            digits = phone_digits(player.phone)
            candidates += [(p, "same phone") for p in by_phone.get(digits, [])] if digits else []
            seen = set()
            for person, why in candidates:
                if person.pk not in seen and not busy[person.pk] & mine:
                    seen.add(person.pk)
                    row.suggestions.append((person, why))
        rows.append(row)
    return rows


def persons_search(query: str = "") -> QuerySet[Person]:
    """Persons by name or city (or number), with how many player records they have."""
    persons = Person.objects.annotate(records=Count("players")).select_related("rating").order_by(Lower("name"), "pk")
    query = query.replace("\x00", "").strip()[:100]
    if query:
        match = Q(name__icontains=query) | Q(city__icontains=query)
        number = whole_number(query, digits=9)
        if number is not None:
            match |= Q(pk=number)
        persons = persons.filter(match)
    return persons


def person_log() -> QuerySet[LogEntry]:
    return LogEntry.objects.filter(action__in=PERSON_ACTIONS).order_by("-created_at", "-pk")


@dataclass(frozen=True)
class PersonTournament:
    """One tournament of a person. With a partner hidden at their request, the team (its number and its page,
    which name the partner as registered for the event) is not given: nothing leads from here to them."""

    member: TeamMember
    partner: str
    partner_id: int | None
    outcome: Outcome
    team_shown: bool = True

    @property
    def tournament(self) -> Tournament:
        return self.member.team.tournament


@dataclass(frozen=True)
class PersonPage:
    person: Person
    tournaments: list[PersonTournament]
    series: list
    stats: Statistics
    rating: Rating | None


def person_public(person_id: int) -> Person:
    """A person as the public sees them: a hidden person has no page."""
    person = Person.objects.filter(pk=person_id, hidden=False).first()
    if person is None:
        raise Http404("No such player.")
    return person


def person_page(person: Person) -> PersonPage:
    """Every tournament the person played (team, partner, placing), their series points, statistics and
    rating. A hidden partner is "a player", and that tournament's team is not given. Fixed queries whatever
    the number of events in the database."""
    memberships = list(
        TeamMember.objects.filter(player__person=person)
        .select_related("team__tournament__event", "player")
        .prefetch_related(
            Prefetch("team__memberships", queryset=TeamMember.objects.select_related("player__person")),
        )
        .order_by("-team__tournament__event__starts_on", "-team__tournament__created_at", "-pk")
    )
    team_of = {member.tournament_id: member.team_id for member in memberships}
    outcomes = team_outcomes(team_of)
    rows = []
    for member in memberships:
        partner = next((m for m in member.team.memberships.all() if m.player_id != member.player_id), None)
        partner_person = partner.player.person if partner else None
        hidden = partner_person is not None and partner_person.hidden
        if partner is None:
            name, partner_id = "", None
        elif hidden:
            name, partner_id = HIDDEN_NAME, None
        else:
            name, partner_id = partner.player.name, partner_person.pk if partner_person else None
        outcome = outcomes.get(member.team_id, Outcome())
        rows.append(PersonTournament(member, name, partner_id, outcome, team_shown=not hidden))
    stored = PersonRating.objects.filter(person=person).first()
    rating = Rating(stored.rating, stored.deviation, stored.volatility, stored.rounds) if stored else None
    return PersonPage(
        person=person,
        tournaments=rows,
        series=person_series_points(team_of, outcomes=outcomes),
        stats=person_statistics(list(team_of.values())),
        rating=rating,
    )
