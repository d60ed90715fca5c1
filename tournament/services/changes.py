"""What a write changed, and which public pages that moves: the one map from a kind of change to the versions the
cached pages and API answers are kept at (``pagecache.serving.page_version``).

Every writer says, inside its transaction, what it changed (``changed``); the action log (``services.log``) only
logs. A page is kept at the version of what it shows:

- the *results* version (``Tournament.results_version``): the standings, placings, bracket, statistics, the public
  team pages and the API's answers about them;
- the *live* version (``Tournament.live_version``, with the sum of the sheets' versions): the tables page, the
  projector and the API's rounds. The projector shows the standings and the bracket too, so whatever moves the
  results moves the live version;
- a sheet's own version (``Table.version``), moved by ``sheet_write`` on every change to the sheet: the live pages
  and its two teams' pages count it, so an entry on a sheet nobody has signed moves nothing else.

A change that can move the standings also stores again the team records (``TeamRecords``) it can touch.
"""

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.db.models import F, Q

from tournament.models import Player, Round, Seating, Table, TeamMember, Tournament
from tournament.services.standings import standings_store


class Changed(StrEnum):
    """The kinds of change a writer reports, each with the record it names (``changed``'s ``subject``)."""

    SHEET = "sheet"  # a Table: hands, penalties, signatures, disputes, time called, a forfeit
    TEAM = "team"  # a Team: registered, renamed, its players, checked in, withdrawn, sitting out, a substitute
    TEAMS = "teams"  # a Tournament: teams registered in bulk (a CSV import)
    DRAW = "draw"  # a Round: published, unpublished or closed (what is out)
    DRAFT = "draft"  # a Round: a draft drawn, edited or discarded
    PLAYOFF = "playoff"  # a Tournament: the bracket seeded, its seeds swapped, published, a match opened, a champion
    RULES = "rules"  # a Tournament: its rule set (a bye's credit is counted by it)
    TOURNAMENT = "tournament"  # a Tournament: its own settings (name, rounds, standings order, ratings as tie-break)
    EVENT = "event"  # an Event: its name and dates, a tournament added, the whole event imported
    CLOCK = "clock"  # a Round: its clock or one of its tables' clocks
    PERSON = "person"  # Players: linked to or unlinked from a person, the person renamed, hidden or merged
    RATINGS = "ratings"  # None: every person's rating computed again
    SERIES = "series"  # None: a series' name, points or tournaments
    ANNOUNCEMENT = "announcement"  # a Tournament: an announcement posted or removed


@dataclass(frozen=True)
class Moves:
    """What a kind of change moves: the results version, the live version, and the team records to store again
    (``"table"``: the sheet's teams and its round's byes and forfeits; ``"all"``: the whole tournament's)."""

    results: bool = False
    live: bool = False
    records: str = ""


RESULTS_AND_LIVE = Moves(results=True, live=True)

MOVES: dict[Changed, Moves] = {
    # Only a sheet that counts: signed (before or after the change) or a playoff match (the bracket shows its
    # score as it is entered). An entry on an unsigned qualifying sheet moves its own version only.
    Changed.SHEET: Moves(results=True, live=True, records="table"),
    Changed.TEAM: RESULTS_AND_LIVE,
    Changed.TEAMS: RESULTS_AND_LIVE,
    # Which rounds are out decides the byes credited and the teams in play.
    Changed.DRAW: Moves(results=True, live=True, records="all"),
    # A draft is the director's alone: no page the players see shows it and no record counts it.
    Changed.DRAFT: Moves(live=True),
    Changed.PLAYOFF: RESULTS_AND_LIVE,
    # The rule set decides a bye's credit.
    Changed.RULES: Moves(results=True, live=True, records="all"),
    Changed.TOURNAMENT: RESULTS_AND_LIVE,
    Changed.EVENT: Moves(results=True, live=True, records="all"),
    # The clock shows on the tables page and the projector only.
    Changed.CLOCK: Moves(live=True),
    # Who a person is shows on the pages of the tournaments their players play in, and their rating ranks teams
    # where ratings break ties.
    Changed.PERSON: RESULTS_AND_LIVE,
    Changed.RATINGS: RESULTS_AND_LIVE,
    # A series is shown on its own pages, kept at the version of the series and of its tournaments' results
    # (``pagecache.serving.series_version``), and on the persons' pages, rendered afresh each time.
    Changed.SERIES: Moves(),
    # The answers that show announcements are kept per set of announcements showing.
    Changed.ANNOUNCEMENT: Moves(),
}


def sheet_counts(table: Table, *, signed_before: bool = False) -> bool:
    """Whether a change to the sheet moves the results: a sheet signed before or after the change, or a playoff
    match's."""
    return signed_before or table.locked_at is not None or table.round.kind != Round.Kind.QUALIFYING


def _where(what: Changed, subject: Any) -> Q | None:
    """The tournaments the change is in, as a filter on ``Tournament``; None when it is in none."""
    match what:
        case Changed.SHEET:
            return Q(pk=subject.round.tournament_id)
        case Changed.TEAM | Changed.DRAW | Changed.DRAFT | Changed.CLOCK:
            return Q(pk=subject.tournament_id)
        case Changed.EVENT:
            return Q(event=subject)
        case Changed.PERSON:
            players = [player.pk if isinstance(player, Player) else player for player in subject]
            return Q(pk__in=TeamMember.objects.filter(player_id__in=players).values("tournament_id"))
        case Changed.RATINGS:
            return Q(rating_breaks_ties=True)
        case Changed.SERIES:
            return None
        case _:
            return Q(pk=subject.pk)


def changed(what: Changed, subject: Any = None, *, signed_before: bool = False) -> None:
    """Say, inside the writer's transaction, that ``subject`` changed as ``what`` says: the versions it moves are
    moved and the team records it touches are stored again. For a sheet, ``signed_before`` says whether it was
    signed before the change. ``subject`` is the record ``Changed`` names for the kind: a table, a team, a round, a
    tournament, an event, the players (or their ids) of a person, or nothing."""
    moves = MOVES[what]
    if what == Changed.SHEET and not sheet_counts(subject, signed_before=signed_before):
        return
    where = _where(what, subject)
    if where is None or not (moves.results or moves.live):
        return
    bumps = {"live_version": F("live_version") + 1}
    if moves.results:
        bumps["results_version"] = F("results_version") + 1
    Tournament.objects.filter(where).update(**bumps)
    # After the bump: on PostgreSQL its row lock orders the changes of a tournament, so the records are read with
    # every earlier change committed.
    if moves.records == "table":
        standings_after_sheet(subject)
    elif moves.records == "all":
        for tournament in Tournament.objects.filter(where):
            standings_store(tournament=tournament)


def standings_after_sheet(table: Table) -> None:
    """A qualifying sheet's change touches its two teams, and the byes and forfeits of its round (credited the
    average of its signed tables' winners, which each signature can move): their records are stored again."""
    if table.round.kind != Round.Kind.QUALIFYING:
        return
    seated = Seating.objects.filter(
        Q(table=table) | Q(table__isnull=True) | ~Q(table__forfeit=""), round_id=table.round_id
    )
    touched = set(seated.values_list("team_id", flat=True))
    standings_store(tournament=table.round.tournament, team_ids=touched)
