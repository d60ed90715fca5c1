"""Persons across events: linking each event's player records to a person, unlinking, merging and hiding.

Nothing is linked or merged without a director asking: suggestions come from the selectors.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from tournament.errors import ServiceError
from tournament.models import Event, LogEntry, Person, Player, Seating, Table, TeamMember
from tournament.selectors.persons import event_link_rows
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, actor_of, log_write
from tournament.services.ratings import RATINGS_FOLLOWED, ratings_follow_players
from tournament.typed import text_checked


def _player_locked(player: Player) -> Player:
    return Player.objects.select_for_update(of=("self",)).select_related("event", "person").get(pk=player.pk)


def _person_locked(person: Person) -> Person:
    try:
        return Person.objects.select_for_update().get(pk=person.pk)
    except Person.DoesNotExist:
        raise ServiceError("That person no longer exists (merged away?): reload the page.", field="person") from None


def _shared_tournament(person: Person, players: list[Player]) -> str | None:
    """The name of a tournament where the person already has a player other than ``players``."""
    tournaments = TeamMember.objects.filter(player__in=players).values("tournament_id")
    clash = (
        TeamMember.objects.filter(player__person=person, tournament_id__in=tournaments)
        .exclude(player__in=players)
        .select_related("tournament__event")
        .first()
    )
    return str(clash.tournament) if clash else None


def _player_person_set(
    player: Player,
    person: Person | None,
    actor: Actor | None,
    action: str,
    summary: str,
    follow: bool = True,
    **change: Any,
) -> None:
    """Link the player to ``person`` (or unlink it, with None) and log ``action`` with its ``before``/``after``.
    The ratings move with the link: a player who played a signed round has every rating made again (unless
    ``follow`` is false: a link in bulk, whose ratings follow once, after the last)."""
    player.person = person
    player.save(update_fields=["person"])
    if follow and ratings_follow_players(players=[player]):
        summary += RATINGS_FOLLOWED
    log_write(actor=actor_of(actor), action=action, summary=summary, **change)
    changed(Changed.PERSON, [player])


@transaction.atomic
def player_link(*, player: Player, person: Person | None = None, actor: Actor | None = None) -> Person:
    """Link the player to the person, or to a new person made from the player's name and city.

    Refused when the player is already linked, or the person already plays in one of the player's
    tournaments (a person is at most one player of a tournament)."""
    return _player_link(player, person, actor)


def _player_link(player: Player, person: Person | None, actor: Actor | None, *, follow: bool = True) -> Person:
    player = _player_locked(player)
    if player.person_id is not None:
        raise ServiceError(f"{player} is already linked to {player.person}: unlink first.", field="person")
    if person is None:
        person = Person.objects.create(name=player.name, city=player.city)
        created = True
    else:
        person = _person_locked(person)
        created = False
        clash = _shared_tournament(person, [player])
        if clash:
            raise ServiceError(
                f"{person} already plays in {clash}: a person is one player of a tournament.", field="person"
            )
    summary = f"{player} of {player.event} linked to {'new person ' if created else ''}{person} (#{person.pk})"
    after = {"player": player.pk, "person": person.pk, "created": created}
    _player_person_set(player, person, actor, LogEntry.Action.PERSON_LINKED, summary, follow, after=after)
    return person


@dataclass(frozen=True)
class BulkLinks:
    """What a link in bulk did: the players linked (each logged as one link is), and how many of the event's are
    still not linked."""

    linked: list[Player]
    left: int


@transaction.atomic
def event_players_link_suggested(*, event: Event, actor: Actor | None = None) -> BulkLinks:
    """Link every player of the event not linked yet whose one suggestion is a person (``event_link_rows``), as
    the director would one by one. A player with several suggestions, or whose link is refused (a clash, linked
    meanwhile), is left for the director to choose."""
    rows = [row for row in event_link_rows(event) if row.player.person_id is None]
    chosen = [(row.player, row.suggestions[0][0]) for row in rows if len(row.suggestions) == 1]
    if not chosen:
        raise ServiceError("No player waiting has one suggested person: choose among the suggestions below.")
    return _players_link(chosen, actor, waiting=len(rows))


@transaction.atomic
def event_players_link_new(*, event: Event, actor: Actor | None = None) -> BulkLinks:
    """Make every player of the event with no person and no suggestion a new person of their own (as *Link* with
    a blank number does); players with a suggestion are left for the director, who may know them."""
    rows = [row for row in event_link_rows(event) if row.player.person_id is None]
    unmatched = [(row.player, None) for row in rows if not row.suggestions]
    if not unmatched:
        raise ServiceError("Every player waiting has a suggested person: choose among the suggestions below.")
    return _players_link(unmatched, actor, waiting=len(rows))


def _players_link(pairs: Sequence[tuple[Player, Person | None]], actor: Actor | None, *, waiting: int) -> BulkLinks:
    """Each (player, person) linked as ``player_link`` links it, a refused one skipped (its own savepoint); the
    ratings follow once, after the last."""
    linked = []
    for player, person in pairs:
        try:
            with transaction.atomic():
                _player_link(player, person, actor, follow=False)
        except ServiceError:
            continue
        linked.append(player)
    if linked and ratings_follow_players(players=linked):
        log_write(
            actor=actor_of(actor),
            action=LogEntry.Action.RATINGS_RECOMPUTED,
            summary=f"Ratings recomputed from every signed round after {len(linked)} player(s) were linked",
        )
    return BulkLinks(linked, waiting - len(linked))


@transaction.atomic
def player_unlink(*, player: Player, actor: Actor | None = None) -> Player:
    player = _player_locked(player)
    person = player.person
    if person is None:
        raise ServiceError(f"{player} is not linked to a person.", field="person")
    summary = f"{player} of {player.event} unlinked from {person} (#{person.pk})"
    _player_person_set(
        player, None, actor, LogEntry.Action.PERSON_UNLINKED, summary, before={"player": player.pk, "person": person.pk}
    )
    return player


def _opponents_met(first: Person, second: Person) -> Table | None:
    """A table where the two persons sat on opposite sides, if any."""
    sides = {}
    for person in (first, second):
        rows = Seating.objects.filter(table__isnull=False, team__memberships__player__person=person)
        sides[person.pk] = dict(rows.values_list("table_id", "pair"))
    met = sorted(table_id for table_id, pair in sides[first.pk].items() if sides[second.pk].get(table_id, pair) != pair)
    if not met:
        return None
    return Table.objects.select_related("round__tournament__event").get(pk=met[0])


@transaction.atomic
def persons_merge(*, keep: Person, merge: Person, actor: Actor | None = None) -> Person:
    """Move every player record of ``merge`` to ``keep`` and remove ``merge`` (one human entered twice).

    Refused when they played each other, or would be two players of one tournament. The kept person is
    hidden if either was: a request to stay off the public pages is never lost. The ratings follow the moved
    records."""
    if keep.pk == merge.pk:
        raise ServiceError("Choose two different persons to merge.", field="merge")
    locked = {person.pk: _person_locked(person) for person in sorted([keep, merge], key=lambda person: person.pk)}
    keep, merge = locked[keep.pk], locked[merge.pk]
    met = _opponents_met(keep, merge)
    if met is not None:
        raise ServiceError(
            f"{keep} and {merge} played each other ({met.round.tournament}, round {met.round.number}, "
            f"table {met.number}): they are two people.",
            field="merge",
        )
    players = list(merge.players.all())
    clash = _shared_tournament(keep, players)
    if clash:
        raise ServiceError(f"{keep} and {merge} both play in {clash}: they are two people.", field="merge")
    before = {"keep": keep.pk, "merge": merge.pk, "players": [player.pk for player in players]}
    Player.objects.filter(person=merge).update(person=keep)
    if merge.hidden and not keep.hidden:
        keep.hidden = True
        keep.save(update_fields=["hidden"])
    summary = f"{merge} (#{merge.pk}) merged into {keep} (#{keep.pk}): {len(players)} player record(s) moved"
    if ratings_follow_players(players=players):
        summary += RATINGS_FOLLOWED
    merge.delete()
    log_write(actor=actor_of(actor), action=LogEntry.Action.PERSONS_MERGED, summary=summary, before=before)
    changed(Changed.PERSON, keep.players.all())
    return keep


@transaction.atomic
def person_update(
    *,
    person: Person,
    name: str | None = None,
    city: str | None = None,
    hidden: bool | None = None,
    actor: Actor | None = None,
) -> Person:
    """Correct a person's name or city, or hide them from the public pages at their request (or show them)."""
    person = _person_locked(person)
    before = {"name": person.name, "city": person.city, "hidden": person.hidden}
    if name is not None:
        name = text_checked(name, what="The name", limit=120, field="name")
        if not name:
            raise ServiceError("A person needs a name.", field="name")
        person.name = name
    if city is not None:
        person.city = text_checked(city, what="The city", limit=120, field="city")
    if hidden is not None:
        person.hidden = hidden
    after = {"name": person.name, "city": person.city, "hidden": person.hidden}
    if after == before:
        return person
    person.save(update_fields=["name", "city", "hidden"])
    changes = [f"{key} {after[key]!r}" for key in after if after[key] != before[key]]
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.PERSON_CHANGED,
        summary=f"Person #{person.pk} {before['name']}: " + ", ".join(changes),
        before=before,
        after=after,
    )
    changed(Changed.PERSON, person.players.all())
    return person
