"""Standings and the draw's inputs, aggregated in the database: a fixed number of queries."""

from collections import defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any

from django.db.models import Case, Count, F, IntegerField, Q, QuerySet, Sum, When

from scoring import Credit, Pair, bye_points
from scoring.outcome import PROVISIONAL
from scoring.pairing import Entrant
from scoring.places import Place, places
from scoring.standings import Meeting, TeamRecord, rank
from tournament.models import Round, Seating, Table, Team, TeamMember, TeamRecords, Tournament
from tournament.models.events import TeamNaming
from tournament.selectors.ratings import team_ratings

NS, EW = Pair.NORTH_SOUTH, Pair.EAST_WEST


@dataclass(frozen=True, slots=True)
class StandingTeam(TeamNaming):
    """A ranked team as the standings show it: its own fields and its players' names in seat order, read as
    plain values (building 512 model instances was a third of a standings page's rendering)."""

    pk: int
    number: int
    name: str
    city: str
    withdrawn: bool
    player_name_list: list[str]


@dataclass(frozen=True)
class StandingRow:
    place: Place
    team: StandingTeam
    record: TeamRecord
    byes: int
    # Whether its points hold a bye's or a forfeit's credit whose round is not complete yet.
    provisional: bool = False

    @property
    def won_lost_tied(self) -> str:
        return f"{self.record.wins}-{self.record.losses}-{self.record.ties}"

    @property
    def points_shown(self) -> str:
        """The points for as every standings surface shows them, marked while a credit in them is provisional."""
        points = self.record.points_for
        return f"{points}{PROVISIONAL}" if self.provisional else str(points)


def _signed_seatings(tournament: Tournament, *, forfeits: bool = False) -> QuerySet[Seating]:
    """Seatings at signed qualifying tables: played ones, or (``forfeits``) the forfeits, which are no meeting."""
    signed = Seating.objects.filter(
        round__tournament=tournament,
        round__kind=Round.Kind.QUALIFYING,
        table__isnull=False,
        table__locked_at__isnull=False,
    )
    return signed.exclude(table__forfeit="") if forfeits else signed.filter(table__forfeit="")


def _forfeit_losses(tournament: Tournament, team_ids: Collection[int] | None = None) -> dict[int, int]:
    """The rounds each team (of ``team_ids``, else every team) lost by being absent (the rules: 0 points, a lost
    round, no points against)."""
    losses: dict[int, int] = defaultdict(int)
    forfeits = _signed_seatings(tournament, forfeits=True)
    if team_ids is not None:
        forfeits = forfeits.filter(team_id__in=team_ids)
    for team_id, pair, forfeit in forfeits.values_list("team_id", "pair", "table__forfeit"):
        if forfeit in (pair, "both"):
            losses[team_id] += 1
    return losses


def _team_side(pair_field: str, ns_field: str, ew_field: str) -> Case:
    return Case(When(**{pair_field: NS}, then=F(ns_field)), default=F(ew_field), output_field=IntegerField())


def teams_in_play(tournament: Tournament) -> list[StandingTeam]:
    """The tournament's teams in play (checked in, or seated in a round), by number, each with its players'
    names in seat order: two queries of plain values."""
    seated = Seating.objects.filter(round__tournament=tournament).values("team_id")
    return teams_named(tournament, tournament.teams.filter(Q(checked_in=True) | Q(pk__in=seated)))


def teams_named(tournament: Tournament, teams: QuerySet[Team]) -> list[StandingTeam]:
    """``teams`` of ``tournament`` by number, each with its players' names in seat order: two queries of plain
    values, no model built (a list of 512 teams)."""
    names = defaultdict(list)
    members = TeamMember.objects.filter(tournament=tournament).order_by("team_id", "position")
    for team_id, name in members.values_list("team_id", "player__name"):
        names[team_id].append(name)
    return [
        StandingTeam(*values, names[values[0]])
        for values in teams.order_by("number").values_list("pk", "number", "name", "city", "withdrawn")
    ]


# A team's tally as stored (``TeamRecords.records``): its record's numbers (byes credited), then its byes, then
# how many of those byes' credits are provisional (none in records stored before there were).
TALLY = ("wins", "losses", "ties", "points_for", "points_against", "hands_won", "bostons")


def team_tallies(tournament: Tournament, team_ids: Collection[int] | None = None) -> dict[int, list[int]]:
    """Each team's tally over the signed qualifying rounds, aggregated from the sheets: the teams of
    ``team_ids`` (else all); teams with nothing to count are left out."""
    signed = _signed_seatings(tournament)
    if team_ids is not None:
        signed = signed.filter(team_id__in=team_ids)
    won = Q(pair=NS, table__ns_total__gt=F("table__ew_total")) | Q(pair=EW, table__ew_total__gt=F("table__ns_total"))
    lost = Q(pair=NS, table__ns_total__lt=F("table__ew_total")) | Q(pair=EW, table__ew_total__lt=F("table__ns_total"))
    results = {
        row["team_id"]: row
        for row in signed.values("team_id").annotate(
            wins=Count("pk", filter=won),
            losses=Count("pk", filter=lost),
            ties=Count("pk", filter=Q(table__ns_total=F("table__ew_total"))),
            points_for=Sum(_team_side("pair", "table__ns_total", "table__ew_total")),
            points_against=Sum(_team_side("pair", "table__ew_total", "table__ns_total")),
        )
    }
    hand_won = Q(table__hands__counts=True) & (
        Q(pair=NS, table__hands__ns_points__gt=F("table__hands__ew_points"))
        | Q(pair=EW, table__hands__ew_points__gt=F("table__hands__ns_points"))
    )
    boston = Q(table__hands__boston=True) & (
        Q(pair=NS, table__hands__bidder__in=["N", "S"]) | Q(pair=EW, table__hands__bidder__in=["E", "W"])
    )
    hands = {
        row["team_id"]: row
        for row in signed.values("team_id").annotate(
            hands_won=Count("table__hands", filter=hand_won), bostons=Count("table__hands", filter=boston)
        )
    }
    bye_credit = _bye_credit(tournament, team_ids)
    forfeit_losses = _forfeit_losses(tournament, team_ids)
    tallies = {}
    for team_id in set(results) | set(hands) | set(bye_credit) | set(forfeit_losses):
        row: Mapping[str, Any] = results.get(team_id, {})
        hand_row: Mapping[str, Any] = hands.get(team_id, {})
        byes = bye_credit.get(team_id, [])
        tallies[team_id] = [
            (row.get("wins") or 0) + len(byes),
            (row.get("losses") or 0) + forfeit_losses.get(team_id, 0),
            row.get("ties") or 0,
            (row.get("points_for") or 0) + sum(credit.points for credit in byes),
            row.get("points_against") or 0,
            hand_row.get("hands_won") or 0,
            hand_row.get("bostons") or 0,
            len(byes),
            sum(credit.provisional for credit in byes),
        ]
    return tallies


def team_meetings(tournament: Tournament, team_ids: Collection[int] | None = None) -> list[list]:
    """Who met whom at a signed qualifying table and who won, as ``[north-south team, east-west team, winner or
    None]``: the meetings of the teams of ``team_ids`` (else all)."""
    signed = _signed_seatings(tournament)
    if team_ids is not None:
        signed = signed.filter(table_id__in=signed.filter(team_id__in=team_ids).values("table_id"))
    sides: dict[int, dict[str, int]] = defaultdict(dict)
    totals = {}
    for row in signed.values("table_id", "team_id", "pair", "table__ns_total", "table__ew_total"):
        sides[row["table_id"]][row["pair"]] = row["team_id"]
        totals[row["table_id"]] = (row["table__ns_total"], row["table__ew_total"])
    meetings = []
    for table_id, by_pair in sorted(sides.items()):
        if len(by_pair) == 2:
            ns_total, ew_total = totals[table_id]
            winner = None if ns_total == ew_total else by_pair[NS] if ns_total > ew_total else by_pair[EW]
            meetings.append([by_pair[NS], by_pair[EW], winner])
    return meetings


def _ranked(tournament: Tournament, tallies: dict[int, list[int]], meetings: list[list]) -> list[StandingRow]:
    """The tournament's teams in play ranked on their tallies by its criteria; byes as the rules say."""
    teams = teams_in_play(tournament)
    nothing = [0] * (len(TALLY) + 2)
    records = [TeamRecord(team.pk, *tallies.get(team.pk, nothing)[: len(TALLY)]) for team in teams]
    by_key = {team.pk: team for team in teams}
    rows = []
    for placed in rank(records, tournament.criteria, [Meeting(*meeting) for meeting in meetings]):
        key = int(placed.record.key)
        tally = tallies.get(key, nothing)
        rows.append(
            StandingRow(
                place=placed.place,
                team=by_key[key],
                record=placed.record,
                byes=tally[len(TALLY)],
                provisional=any(tally[len(TALLY) + 1 :]),
            )
        )
    return ratings_break_ties(rows) if tournament.rating_breaks_ties else rows


def _stored(tournament: Tournament) -> tuple[dict[int, list[int]], list[list]] | None:
    """The tallies and meetings stored for the tournament, or None if none are stored yet."""
    stored = TeamRecords.objects.filter(tournament=tournament).values_list("records", "meetings").first()
    if stored is None:
        return None
    records, meetings = stored
    return {int(team_id): tally for team_id, tally in records.items()}, meetings


def tournaments_tallies(tournament_ids: Collection[int]) -> dict[int, list[int]]:
    """Each team's tally (``TALLY``) over the signed qualifying rounds of the tournaments, as the standings count
    it: the stored records (every change that can move them stores them), aggregated from the sheets for a
    tournament played with none stored (a database from before they were)."""
    stored = dict(TeamRecords.objects.filter(tournament_id__in=tournament_ids).values_list("tournament_id", "records"))
    tallies = {}
    unstored = Tournament.objects.filter(pk__in=tournament_ids, rounds__tables__locked_at__isnull=False)
    for tournament in unstored.exclude(pk__in=stored).distinct():
        tallies.update(team_tallies(tournament))
    for records in stored.values():
        tallies.update((int(team_id), tally) for team_id, tally in records.items())
    return tallies


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """Teams ranked over signed qualifying rounds by the tournament's criteria, from the tallies and meetings
    every change to the results stores (aggregated from the sheets while none are stored, as before an
    upgrade)."""
    stored = _stored(tournament)
    return _ranked(tournament, *stored) if stored is not None else standings_from_sheets(tournament)


def standings_from_sheets(tournament: Tournament) -> list[StandingRow]:
    """The standings aggregated from the signed sheets themselves, whatever is stored: what the stored records
    must always give."""
    return _ranked(tournament, team_tallies(tournament), team_meetings(tournament))


def qualifying_rounds_signed(**where: Any) -> QuerySet[Round]:
    """The published qualifying rounds (of the tournaments ``where`` names) whose every table is signed."""
    return (
        Round.objects.filter(kind=Round.Kind.QUALIFYING, **where)
        .exclude(status=Round.Status.DRAFT)
        .annotate(
            table_count=Count("tables", distinct=True),
            unsigned=Count("tables", filter=Q(tables__locked_at__isnull=True), distinct=True),
        )
        .filter(table_count__gt=0, unsigned=0)
    )


def _bye_credit(tournament: Tournament, team_ids: Collection[int] | None = None) -> dict[int, list[Credit]]:
    """What each bye of a published qualifying round is credited, and each team present at a forfeit (scored as a
    bye), the round's winners being those of its signed played tables; the credits of the teams of ``team_ids`` if
    given."""
    credit = defaultdict(list)
    for bye, points in _credited_byes(tournament, team_ids):
        credit[bye["team_id"]].append(points)
    return credit


def round_credits(
    tournament: Tournament, team_ids: Collection[int] | None = None, rounds: Collection[int] | None = None
) -> dict[tuple[int, int], Credit]:
    """What each bye and each forfeit won is credited (of the teams of ``team_ids`` and the rounds of ids ``rounds``
    if given), by round id and team id, provisional until every table of its round is signed: what the standings
    count (two queries)."""
    found = _credited_byes(tournament, team_ids, rounds)
    return {(bye["round_id"], bye["team_id"]): points for bye, points in found}


def forfeit_credits(tournament: Tournament) -> dict[int, Credit]:
    """What the team present at each forfeit (by table) is credited, provisional until every table of its round is
    signed: what the standings count (two queries)."""
    return {bye["table_id"]: points for bye, points in _credited_byes(tournament) if bye["table_id"] is not None}


def credits_attach(tournament: Tournament, *, tables: Collection[Table] = (), byes: Collection[Seating] = ()) -> None:
    """Give each of the tournament's ``tables`` and ``byes`` (seatings) its ``credit``: what a forfeit won there, or
    the bye, is credited (provisional until every table of its round is signed; None in a draft), as the standings
    count it. For the pages and answers that show a round's tables (``Table.side_outcomes``,
    ``Seating.bye_outcome``); two queries for any number of rounds."""
    rounds = {table.round_id for table in tables} | {bye.round_id for bye in byes}
    if not rounds:
        return
    credits = round_credits(tournament, rounds=rounds)
    for table in tables:
        present = [s.team_id for s in table.seatings.all() if table.forfeit not in ("", s.pair, "both")]
        table.credit = credits.get((table.round_id, present[0])) if present else None
    for bye in byes:
        bye.credit = credits.get((bye.round_id, bye.team_id))


def _credited_byes(
    tournament: Tournament, team_ids: Collection[int] | None = None, rounds: Collection[int] | None = None
) -> list[tuple[Mapping[str, Any], Credit]]:
    """Each bye and each team present at a forfeit, of the published qualifying rounds (of the teams of
    ``team_ids``, and of the rounds of ids ``rounds``, if given), with what it is credited: the average of the
    winners at the round's signed played tables, provisional until every table of the round is signed."""
    out = (
        Round.objects.filter(kind=Round.Kind.QUALIFYING, tournament=tournament)
        .exclude(status=Round.Status.DRAFT)
        .annotate(
            table_count=Count("tables", distinct=True),
            unsigned=Count("tables", filter=Q(tables__locked_at__isnull=True), distinct=True),
        )
    )
    if rounds is not None:
        out = out.filter(pk__in=rounds)
    if team_ids is not None:
        # Only the rounds where those teams had a bye or a forfeit: for a team with none, nothing is counted.
        bye_rounds = Seating.objects.filter(round__tournament=tournament, team_id__in=team_ids).filter(
            Q(table__isnull=True) | ~Q(table__forfeit="")
        )
        out = out.filter(pk__in=bye_rounds.values("round_id"))
    complete = {
        pk: tables > 0 and unsigned == 0 for pk, tables, unsigned in out.values_list("pk", "table_count", "unsigned")
    }
    if not complete:
        return []
    seatings = Seating.objects.filter(round_id__in=complete)
    winners = defaultdict(list)
    byes = []
    for seating in seatings.values(
        "round_id",
        "team_id",
        "table_id",
        "pair",
        "table__ns_total",
        "table__ew_total",
        "table__forfeit",
        "table__locked_at",
    ):
        if seating["table_id"] is None:
            byes.append(seating)
            continue
        if seating["table__forfeit"]:
            if seating["table__forfeit"] not in (seating["pair"], "both"):
                byes.append(seating)
            continue
        if seating["table__locked_at"] is None:
            continue
        mine = seating["table__ns_total"] if seating["pair"] == NS else seating["table__ew_total"]
        theirs = seating["table__ew_total"] if seating["pair"] == NS else seating["table__ns_total"]
        if mine > theirs:
            winners[seating["round_id"]].append(mine)
    rules = tournament.rules
    return [
        (bye, Credit(bye_points(rules, winners[bye["round_id"]]), provisional=not complete[bye["round_id"]]))
        for bye in byes
        if team_ids is None or bye["team_id"] in team_ids
    ]


@dataclass(frozen=True)
class DrawHistory:
    """What a later round's draw needs: who met whom, who had a bye, and last round's tables."""

    met: set[frozenset]
    had_bye: set[int]
    previous: list[tuple[int, int]]


def draw_history(tournament: Tournament, before_number: int) -> DrawHistory:
    seatings = Seating.objects.filter(round__tournament=tournament, round__number__lt=before_number).exclude(
        round__status=Round.Status.DRAFT
    )
    met: set[frozenset] = set()
    had_bye: set[int] = set()
    tables: dict[int, dict] = defaultdict(dict)
    last_round = before_number - 1
    last_sitting = {}
    for row in seatings.values(
        "round__number", "team_id", "table_id", "pair", "table__sitting_pair", "table__number", "table__forfeit"
    ):
        if row["table_id"] is None:
            had_bye.add(row["team_id"])
            continue
        if row["table__forfeit"]:
            continue  # a forfeit is not a meeting: the two teams may be drawn together later
        tables[row["table_id"]][row["pair"]] = row["team_id"]
        if row["round__number"] == last_round:
            last_sitting[row["table_id"]] = (row["table__number"], row["table__sitting_pair"])
    for sides in tables.values():
        if len(sides) == 2:
            met.add(frozenset(sides.values()))
    previous = []
    for table_id, (_, sitting_pair) in sorted(last_sitting.items(), key=lambda item: item[1][0]):
        sides = tables[table_id]
        moving_pair = EW if sitting_pair == NS else NS
        if sitting_pair in sides and moving_pair in sides:
            previous.append((sides[sitting_pair], sides[moving_pair]))
    return DrawHistory(met=met, had_bye=had_bye, previous=previous)


def ranked_entrants(tournament: Tournament, teams: list[Team]) -> list[Entrant]:
    """The teams to draw, in standings order (teams not yet ranked last, by number)."""
    order = {row.team.pk: index for index, row in enumerate(tournament_standings(tournament))}
    ranked = sorted(teams, key=lambda team: (order.get(team.pk, len(order)), team.number))
    return [Entrant(team.pk, team.city) for team in ranked]


def ratings_break_ties(rows: list[StandingRow]) -> list[StandingRow]:
    """Standing rows with each shared place split by team rating, highest first; teams without a rating
    come after rated ones, and teams still level (or both unrated) keep sharing the place."""
    if not any(row.place.shared for row in rows):
        return rows
    ratings = team_ratings(row.team.pk for row in rows)

    def strength(row: StandingRow) -> tuple[bool, float]:
        rating = ratings.get(row.team.pk)
        return (rating is not None, round(rating, 6) if rating is not None else 0)

    result: list[StandingRow] = []
    for place, grouped in groupby(rows, key=lambda row: row.place):
        levels = [list(level) for _, level in groupby(sorted(grouped, key=strength, reverse=True), key=strength)]
        result.extend(replace(row, place=split) for split, row in places(levels, first=place.number))
    return result
