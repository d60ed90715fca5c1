"""Reads that build pages, each a fixed number of queries whatever the size of the field."""

from dataclasses import dataclass

from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone

from tournament.models import (
    Announcement,
    Event,
    Hand,
    Penalty,
    PlayoffMatch,
    PlayoffSeed,
    Round,
    Seating,
    SheetChange,
    Signature,
    Table,
    Team,
    TeamMember,
    Tournament,
)


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


def _members() -> Prefetch:
    return Prefetch("memberships", queryset=TeamMember.objects.select_related("player").order_by("position"))


def teams_with_players(tournament: Tournament) -> QuerySet[Team]:
    return tournament.teams.prefetch_related(_members()).order_by("number")


def teams_search(tournament: Tournament, query: str = "") -> QuerySet[Team]:
    """Teams whose name, number, city or either player's name matches the desk's search box."""
    teams = teams_with_players(tournament)
    query = query.strip()
    if query:
        match = Q(name__icontains=query) | Q(city__icontains=query) | Q(memberships__player__name__icontains=query)
        if query.isdigit():
            match |= Q(number=int(query))
        teams = teams.filter(pk__in=Team.objects.filter(match, tournament=tournament).values("pk"))
    return teams


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


def rounds_of(tournament: Tournament) -> QuerySet[Round]:
    return tournament.rounds.annotate(table_count=Count("tables")).order_by("number")


def round_get(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament__event"), tournament=tournament, number=number)


def _seatings() -> Prefetch:
    return Prefetch(
        "seatings",
        queryset=Seating.objects.select_related("team").prefetch_related(
            Prefetch("team__memberships", queryset=TeamMember.objects.select_related("player"))
        ),
    )


def round_tables(round_: Round) -> list[Table]:
    return list(round_.tables.prefetch_related(_seatings()).order_by("number"))


def round_byes(round_: Round) -> list[Seating]:
    return list(
        round_.seatings.filter(table__isnull=True)
        .select_related("team")
        .prefetch_related(Prefetch("team__memberships", queryset=TeamMember.objects.select_related("player")))
    )


def round_unplaced_teams(round_: Round) -> list[Team]:
    """Checked-in teams a draft leaves out (a late arrival), for the director to place."""
    return list(
        teams_with_players(round_.tournament).filter(checked_in=True, withdrawn=False).exclude(seatings__round=round_)
    )


def table_by_secret(secret: str) -> Table:
    """The table a private link opens: only a published or closed round's table."""
    return get_object_or_404(
        Table.objects.select_related("round__tournament__event").prefetch_related(_seatings()),
        secret=secret,
        round__status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED],
    )


@dataclass(frozen=True)
class SeatView:
    seat: str
    label: str
    player: object
    pair: str


def table_seats(table: Table) -> list[SeatView]:
    """The four seats clockwise from North with their players: each team's first player sits North or East."""
    seats = []
    for seat, label, pair, position in (
        ("N", "North", "NS", 0),
        ("E", "East", "EW", 0),
        ("S", "South", "NS", 1),
        ("W", "West", "EW", 1),
    ):
        team = table.team_at(pair)
        members = team.members if team else []
        player = members[position].player if len(members) > position else None
        seats.append(SeatView(seat=seat, label=label, player=player, pair=pair))
    return seats


def table_sheet(table: Table) -> dict:
    """A sheet's hands (with their penalties), round-level rulings and signatures, in three queries."""

    hands = list(
        Hand.objects.filter(table=table)
        .prefetch_related(Prefetch("penalties", queryset=Penalty.objects.order_by("created_at", "pk")))
        .order_by("sequence")
    )
    rulings = list(Penalty.objects.filter(table=table, hand__isnull=True).order_by("created_at", "pk"))
    signatures = {
        signature.pair: signature for signature in Signature.objects.filter(table=table).select_related("player")
    }
    return {"hands": hands, "rulings": rulings, "signatures": signatures}


def table_history(table: Table):

    return SheetChange.objects.filter(table=table).select_related("user").order_by("version", "pk")


def round_live_tables(round_: Round) -> list[Table]:
    """Each table of a round with how far its sheet has got, for the live view (fixed queries)."""

    return list(
        round_.tables.annotate(
            signature_count=Count("signatures", distinct=True),
            penalty_count=Count("penalties", distinct=True),
            last_change=Max("changes__created_at"),
        )
        .prefetch_related(_seatings())
        .order_by("number")
    )


def rounds_in_play() -> QuerySet[Round]:
    """Published rounds, newest first: where the staff watch and fix sheets."""
    return (
        Round.objects.filter(status=Round.Status.PUBLISHED)
        .select_related("tournament__event")
        .order_by("-published_at")
    )


def tournament_public(slug: str) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), slug=slug)


def announcements_active(tournament: Tournament):

    return Announcement.objects.filter(tournament=tournament).filter(
        Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now())
    )


def round_current(tournament: Tournament) -> Round | None:
    """The latest round players can see: published or closed, never a draft."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def round_is_live(round_: Round | None) -> bool:
    return (
        round_ is not None
        and round_.status == Round.Status.PUBLISHED
        and round_.tables.filter(locked_at__isnull=True).exists()
    )


def draw_matches(tables: list[Table], byes: list[Seating], query: str) -> tuple[list[Table], list[Seating]]:
    """Tables and byes whose team name, number or a player's name contains the search words."""
    words = query.casefold().split()
    if not words:
        return tables, byes

    def team_matches(team) -> bool:
        haystack = " ".join([str(team.number), team.display_name, team.player_names, team.city]).casefold()
        return all(word in haystack for word in words)

    found_tables = [table for table in tables if any(team_matches(s.team) for s in table.seatings.all())]
    found_byes = [bye for bye in byes if team_matches(bye.team)]
    return found_tables, found_byes


@dataclass(frozen=True)
class TeamRound:
    """One round of a team's page: where it sat, against whom, the hands and the result."""

    round: Round
    table: Table | None
    pair: str
    opponent: Team | None
    hands: list

    @property
    def points_for(self) -> int:
        return self.table.total(self.pair) if self.table else 0

    @property
    def points_against(self) -> int:
        if not self.table:
            return 0
        return self.table.total("EW" if self.pair == "NS" else "NS")


def team_rounds(team: Team) -> list[TeamRound]:
    """Every round a team played (drafts aside), each with its hands and penalties."""

    seatings = list(
        Seating.objects.filter(team=team)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "table")
        .order_by("round__number")
    )
    table_ids = [s.table_id for s in seatings if s.table_id]
    opponents = {
        s.table_id: s.team
        for s in Seating.objects.filter(table_id__in=table_ids)
        .exclude(team=team)
        .select_related("team")
        .prefetch_related(_members_of_team())
    }
    hands = {}
    for hand in (
        Hand.objects.filter(table_id__in=table_ids)
        .prefetch_related(Prefetch("penalties", queryset=Penalty.objects.order_by("created_at", "pk")))
        .order_by("sequence")
    ):
        hands.setdefault(hand.table_id, []).append(hand)
    return [
        TeamRound(
            round=s.round,
            table=s.table,
            pair=s.pair,
            opponent=opponents.get(s.table_id),
            hands=hands.get(s.table_id, []),
        )
        for s in seatings
    ]


def _members_of_team() -> Prefetch:
    return Prefetch("team__memberships", queryset=TeamMember.objects.select_related("player").order_by("position"))


def round_sheets(round_: Round) -> list[Table]:
    """Every table of a round with all a printed sheet shows, in a fixed number of queries."""

    return list(
        round_.tables.prefetch_related(
            _seatings(),
            Prefetch(
                "hands",
                queryset=Hand.objects.order_by("sequence").prefetch_related(
                    Prefetch("penalties", queryset=Penalty.objects.order_by("created_at", "pk"))
                ),
            ),
            Prefetch(
                "penalties",
                queryset=Penalty.objects.filter(hand__isnull=True).order_by("created_at", "pk"),
                to_attr="rulings",
            ),
            Prefetch("signatures", queryset=Signature.objects.select_related("player")),
            Prefetch(
                "changes",
                queryset=SheetChange.objects.filter(correction=True).select_related("user").order_by("version"),
                to_attr="corrections",
            ),
        ).order_by("number")
    )


@dataclass(frozen=True)
class BracketColumn:
    title: str
    matches: list


def playoff_bracket(tournament: Tournament) -> list[BracketColumn]:
    """The bracket's matches in columns (winners' rounds, then losers' rounds, then the finals)."""

    matches = list(
        PlayoffMatch.objects.filter(tournament=tournament)
        .select_related("top_team", "bottom_team", "winner", "table")
        .order_by("bracket_round", "position")
    )
    columns: list[BracketColumn] = []
    groups: dict[tuple, list] = {}
    for match in matches:
        groups.setdefault((match.bracket, match.bracket_round), []).append(match)
    order = {"winners": 0, "losers": 1, "third": 2, "final": 3}
    for (bracket, round_number), group in sorted(groups.items(), key=lambda item: (order[item[0][0]], item[0][1])):
        if bracket == "winners":
            title = group[0].label.rsplit(" ", 1)[0] if group[0].label[-1].isdigit() else group[0].label
        elif bracket == "losers":
            title = f"Losers' round {round_number}"
        else:
            title = group[0].label
        columns.append(BracketColumn(title=title, matches=group))
    return columns


def playoff_seeds(tournament: Tournament):

    return (
        PlayoffSeed.objects.filter(tournament=tournament)
        .select_related("team")
        .prefetch_related(Prefetch("team__memberships", queryset=TeamMember.objects.select_related("player")))
    )


def playoff_champion(matches: list[PlayoffMatch]) -> Team | None:
    """The winner of the final; in double elimination the reset decides when it is played."""
    finals = {m.code: m for m in matches if m.bracket == PlayoffMatch.Bracket.FINAL}
    if "GF" in finals:
        reset = finals.get("GF2")
        if reset is not None and reset.not_needed:
            return finals["GF"].winner
        return reset.winner if reset is not None else None
    final = next(iter(finals.values()), None)
    return final.winner if final else None


def tournament_champion(tournament: Tournament):
    """The champion once the final is decided, else None."""

    if tournament.status != Tournament.Status.FINISHED:
        return None
    finals = list(PlayoffMatch.objects.filter(tournament=tournament, bracket="final").select_related("winner"))
    return playoff_champion(finals)


def tournament_hands(tournament: Tournament):
    """Every hand of the tournament's published rounds, in play order, for the exports (fixed queries)."""

    return (
        Hand.objects.filter(table__round__tournament=tournament)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("table__round")
        .prefetch_related(
            Prefetch("penalties", queryset=Penalty.objects.order_by("created_at", "pk")),
            Prefetch("table__seatings", queryset=Seating.objects.select_related("team")),
        )
        .order_by("table__round__number", "table__number", "sequence")
    )
