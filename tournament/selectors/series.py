"""A series' standings: each person's points over the series' tournaments, whoever their partner was."""

import math
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from scoring.places import Place
from scoring.series import points_text, series_standings, tournament_points
from tournament.models import HIDDEN_NAME, Series, SeriesTournament, TeamMember
from tournament.selectors.outcomes import Outcome, team_outcomes


def series_list() -> QuerySet[Series]:
    return Series.objects.order_by("name")


def series_get(slug: str) -> Series:
    entries = SeriesTournament.objects.select_related("tournament__event")
    return get_object_or_404(Series.objects.prefetch_related(Prefetch("entries", queryset=entries)), slug=slug)


# A row's place before the series is ranked (``series_standings_of`` places every row it returns).
UNRANKED = Place(0)


@dataclass
class SeriesRow:
    """One person (or a player not yet linked to a person) with their points per tournament.

    A person hidden at their request keeps their place and total as "a player", but not their points per
    tournament: those name the teams they played on, and the event's pages name each team's players."""

    key: tuple
    name: str
    city: str
    person_id: int | None
    linked: bool
    hidden: bool = False
    points: dict[int, Fraction] = field(default_factory=dict)
    place: Place = UNRANKED
    total: Fraction = Fraction(0)

    @property
    def total_text(self) -> str:
        return points_text(self.total)

    @property
    def points_shown(self) -> dict[int, Fraction]:
        """The points per tournament the public may see: none for a hidden person."""
        return {} if self.hidden else self.points

    def cells(self, tournament_ids: list[int]) -> list[str]:
        """The points shown in each of these tournaments ("" where none: not played, or hidden)."""
        shown = self.points_shown
        return [points_text(shown[pk]) if pk in shown else "" for pk in tournament_ids]


@dataclass(frozen=True)
class SeriesStandings:
    series: Series
    tournaments: list
    rows: list[SeriesRow]

    @property
    def hidden_rows(self) -> bool:
        return any(row.hidden for row in self.rows)


MEMBER_FIELDS = (
    "tournament_id",
    "team_id",
    "player_id",
    "player__name",
    "player__city",
    "player__person_id",
    "player__person__name",
    "player__person__city",
    "player__person__hidden",
)


def _row_for(
    player_id: int,
    name: str,
    city: str,
    person_id: int | None,
    person_name: str | None,
    person_city: str | None,
    hidden: bool | None,
) -> SeriesRow:
    if person_id is None:
        return SeriesRow(("player", player_id), name, city, None, False)
    if hidden:
        return SeriesRow(("person", person_id), HIDDEN_NAME, "", None, True, hidden=True)
    return SeriesRow(("person", person_id), person_name or "", person_city or "", person_id, True)


def series_standings_of(series: Series) -> SeriesStandings:
    """Every team's own two players get the team's points from each tournament (finish, not added up, and
    each qualifying round won); a person's total is the sum. Equal totals share the place. Players not yet
    linked to a person are listed on their own, so no points go missing while the director links them.
    Members are read as plain values, each finish's points worked out once and the totals summed as whole
    numbers over the points' common denominator: 50 tournaments of 512 teams are 51,200 members."""
    table = series.points
    tournaments = [entry.tournament for entry in series.entries.all()]
    ids = [tournament.pk for tournament in tournaments]
    finishes: dict[tuple, Fraction] = {}
    team_points = {}
    for team_id, outcome in team_outcomes(ids).items():
        finish = (outcome.finish, outcome.qualifying_wins)
        if finish not in finishes:
            finishes[finish] = tournament_points(table, finish=outcome.finish, qualifying_wins=outcome.qualifying_wins)
        team_points[team_id] = finishes[finish]
    denominator = math.lcm(1, *(points.denominator for points in finishes.values()))
    scaled = {points: points.numerator * (denominator // points.denominator) for points in finishes.values()}
    rows: dict[tuple, SeriesRow] = {}
    sums: dict[tuple, int] = {}
    members = TeamMember.objects.filter(tournament_id__in=ids).order_by("tournament_id", "team_id", "position")
    for tournament_id, team_id, *who in members.values_list(*MEMBER_FIELDS):
        row = _row_for(*who)
        row = rows.setdefault(row.key, row)
        points = team_points.get(team_id)
        if points is not None:
            row.points[tournament_id] = points
            sums[row.key] = sums.get(row.key, 0) + scaled[points]
    for key, row in rows.items():
        row.total = Fraction(sums.get(key, 0), denominator)
    totals = {key: row.total for key, row in rows.items()}
    ordered = series_standings(totals, order_key=lambda key: (rows[key].name.lower(), key))
    for entry in ordered:
        rows[entry.key].place = entry.place
    return SeriesStandings(series, tournaments, [rows[entry.key] for entry in ordered])


# A page of a series' standings: a phone's worth of rows, with the latest tournaments' points in columns.
SERIES_PAGE_ROWS = 100
SERIES_RECENT = 10


def series_rows_count(series: Series) -> int:
    """How many rows the series' standings have (a person, or a player not yet linked to one), counted without
    working out any points: the page asked for is known before anything is rendered."""
    members = TeamMember.objects.filter(tournament__series_entries__series=series)
    persons = members.filter(player__person__isnull=False).values("player__person").distinct().count()
    return persons + members.filter(player__person__isnull=True).values("player").distinct().count()


@dataclass(frozen=True)
class SeriesPageRow:
    row: SeriesRow
    earlier: str
    cells: list[str]


@dataclass(frozen=True)
class SeriesPage:
    """Page ``number`` of ``pages`` of the standings: its ``SERIES_PAGE_ROWS`` rows, each with its points in
    the ``SERIES_RECENT`` latest tournaments (``recent``) and the sum of its points in the earlier ones."""

    standings: SeriesStandings
    number: int
    pages: int

    @property
    def recent(self) -> list:
        return self.standings.tournaments[-SERIES_RECENT:]

    @property
    def earlier(self) -> list:
        return self.standings.tournaments[:-SERIES_RECENT]

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None

    @property
    def first_row(self) -> int:
        """The row the page starts at, counted from 1 (rows, not places, which are shared)."""
        return (self.number - 1) * SERIES_PAGE_ROWS + 1

    @property
    def last_row(self) -> int:
        return min(self.number * SERIES_PAGE_ROWS, len(self.standings.rows))

    @property
    def rows(self) -> list[SeriesPageRow]:
        start = self.first_row - 1
        earlier = [tournament.pk for tournament in self.earlier]
        return [
            SeriesPageRow(
                row,
                points_text(sum((row.points_shown.get(pk, Fraction(0)) for pk in earlier), Fraction(0)))
                if earlier and not row.hidden
                else "",
                row.cells([tournament.pk for tournament in self.recent]),
            )
            for row in self.standings.rows[start : start + SERIES_PAGE_ROWS]
        ]


def series_page(series: Series, number: int, pages: int) -> SeriesPage:
    """Page ``number`` of the ``pages`` of the series' standings."""
    return SeriesPage(series_standings_of(series), number, pages)


@dataclass
class SeriesTotal:
    series: Series
    points: Fraction = Fraction(0)
    tournaments: int = 0

    @property
    def points_text(self) -> str:
        return points_text(self.points)


def person_series_points(
    person_teams: dict[int, int], *, outcomes: dict[int, Outcome] | None = None
) -> list[SeriesTotal]:
    """The person's total in every series holding one of their tournaments; ``person_teams`` maps each
    tournament id the person played to their team id; ``outcomes``: those tournaments' (``team_outcomes``),
    when the caller has them."""
    entries = SeriesTournament.objects.filter(tournament_id__in=list(person_teams)).select_related("series")
    if outcomes is None:
        outcomes = team_outcomes(person_teams)
    totals: dict[int, SeriesTotal] = {}
    for entry in entries.order_by("series__name", "tournament_id"):
        total = totals.setdefault(entry.series_id, SeriesTotal(entry.series))
        total.tournaments += 1
        outcome = outcomes.get(person_teams[entry.tournament_id])
        if outcome is not None:
            total.points += tournament_points(
                entry.series.points, finish=outcome.finish, qualifying_wins=outcome.qualifying_wins
            )
    return list(totals.values())
