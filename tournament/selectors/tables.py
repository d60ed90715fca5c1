"""One table: what its private link opens, its seats, its sheet and the sheet's history."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import QuerySet, prefetch_related_objects
from django.shortcuts import get_object_or_404

from scoring import Pair, Seat
from tournament.models import Hand, LogEntry, Penalty, Player, Round, Signature, Substitute, Table, Team
from tournament.selectors.prefetch import penalties, seatings
from tournament.selectors.standings import credits_attach


def table_by_secret(secret: str, *, with_players: bool = True, seated: bool = True) -> Table:
    """The table a private link opens: only a published or closed round's table.

    Without ``with_players`` the table comes with its round and tournament alone: enough for a phone's queued
    hand or a call of time, which name seats only and whose services read the table again under their lock
    (no query for the seats on every save). With ``seated=False`` its event and playoff match come in the same
    query, its teams and players later (``table_seated``): the page asks first whether the phone has it already.
    """
    tables = Table.objects.select_related("round__tournament")
    if with_players:
        tables = Table.objects.select_related("round__tournament__event", "playoff_match")
    table = get_object_or_404(tables, secret=secret, round__status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])
    return table_seated(table) if with_players and seated else table


def table_seated(table: Table) -> Table:
    """The table with its teams and their players (``prefetch.seatings``), and a forfeit's credit."""
    prefetch_related_objects([table], seatings())
    if table.forfeit:
        credits_attach(table.round.tournament, tables=[table])
    return table


@dataclass(frozen=True)
class SeatView:
    """A seat and who plays in it this round: the team's player, or the substitute approved for this round in
    their place (``player`` is then the player replaced)."""

    seat: Seat
    player: Player | None
    substitute: Substitute | None = None

    @property
    def label(self) -> str:
        return self.seat.label

    @property
    def name(self) -> str:
        return self.substitute.name if self.substitute else (self.player.name if self.player else "")

    @property
    def shown(self) -> str:
        """The name as the pages print it: "Jo Lee (substitute for Player 0a)"."""
        if self.substitute and self.player:
            return f"{self.substitute.name} (substitute for {self.player.name})"
        return self.name

    @property
    def pair(self) -> str:
        return self.seat.pair

    @property
    def signer(self) -> str:
        """The sign form's value for whoever sat here: the player's number, or "s" and the substitute's."""
        if self.substitute:
            return f"s{self.substitute.pk}"
        assert self.player is not None, "a seat is sat by its player or a substitute"
        return str(self.player.pk)


RoundSubstitutes = dict[tuple[int, int], Substitute]


def rounds_substitutes(round_ids: Iterable[int]) -> dict[int, RoundSubstitutes]:
    """The substitutes of each round, by the (team, replaced player) they play for, in one query."""
    found: dict[int, RoundSubstitutes] = {round_id: {} for round_id in round_ids}
    for substitute in Substitute.objects.filter(round_id__in=list(found)).only(
        "pk", "round_id", "team_id", "replaces_id", "name"
    ):
        found[substitute.round_id][(substitute.team_id, substitute.replaces_id)] = substitute
    return found


def round_substitutes(round_id: int) -> RoundSubstitutes:
    """The substitutes of a round: the substitute playing for each (team, replaced player), in one query."""
    return rounds_substitutes([round_id])[round_id]


def seats_of(teams: dict[str, Team | None], substitutes: RoundSubstitutes) -> list[SeatView]:
    """Who sat where in a round, the substitute included: the four seats clockwise from North, each team's first
    player North or East, a substitute approved for the round in place of the player they replace. ``teams``
    gives the team at each pair (with its members loaded). Every surface naming a round's players reads this."""
    views = []
    for seat in Seat:
        team = teams.get(seat.pair)
        players = [member.player for member in team.members] if team else []
        player = players[seat.position] if len(players) > seat.position else None
        instead = substitutes.get((team.pk, player.pk)) if team and player else None
        views.append(SeatView(seat, player, instead))
    return views


def table_seats(table: Table, substitutes: RoundSubstitutes | None = None) -> list[SeatView]:
    """A table's four seats with who sat in them (``seats_of``); ``substitutes`` from ``round_substitutes``,
    read here when not given."""
    if substitutes is None:
        substitutes = round_substitutes(table.round_id)
    return seats_of({pair: table.team_at(pair) for pair in Pair}, substitutes)


def team_signers(seats: list[SeatView], pair: str) -> list[SeatView]:
    """Who may sign for the team at ``pair``: the two who sat there this round, a substitute in place of the
    player they replaced (the rules: the substitute signs for that round)."""
    return [seat for seat in seats if seat.pair == pair and seat.player]


def bare_seats() -> list[SeatView]:
    """The four seats clockwise from North, without their players."""
    return [SeatView(seat, None) for seat in Seat]


@dataclass(frozen=True)
class SheetView:
    """A sheet's hands (each with its penalties), the round-level rulings and the signatures by team."""

    hands: list[Hand]
    rulings: list[Penalty]
    signatures: dict[str, Signature]


def table_sheet(table: Table) -> SheetView:
    """The sheet as the table page shows it, in three queries."""
    hands = list(Hand.objects.filter(table=table).prefetch_related(penalties()).order_by("sequence"))
    rulings = list(Penalty.objects.filter(table=table, hand__isnull=True).order_by("created_at", "pk"))
    signatures = {s.pair: s for s in Signature.objects.filter(table=table).select_related("player", "substitute")}
    return SheetView(hands=hands, rulings=rulings, signatures=signatures)


def table_history(table: Table) -> QuerySet[LogEntry]:
    return LogEntry.objects.filter(table=table).order_by("version", "pk")
