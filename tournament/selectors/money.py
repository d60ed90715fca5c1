"""Money for the desk and the prize-giving: each team's account, the totals, and the payout sheet.

The one bridge between the records and the money engine (``scoring.money``): staff pages, the PDF, the
exports and the payout services all read the sheet from here.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import QuerySet

from scoring import Seat
from scoring.money import Placed, house_share, placing_payouts, side_pot_payouts
from scoring.places import Place
from tournament.models import Hand, Payment, Payout, Pot, Team, Tournament
from tournament.models.money import PRIZE_FROM
from tournament.selectors.placings import tournament_placings
from tournament.selectors.standings import StandingTeam, tournament_standings
from tournament.selectors.teams import teams_with_players

ZERO = Decimal("0.00")


@dataclass
class TeamAccount:
    """What one team paid and was refunded, per pot, and what it still owes."""

    team: Team
    expected_entry: Decimal
    expected_side: Decimal
    entry_in: Decimal = ZERO
    side_in: Decimal = ZERO
    entry_refunded: Decimal = ZERO
    side_refunded: Decimal = ZERO
    methods: set = field(default_factory=set)
    history: list[Payment] = field(default_factory=list)  # every payment and refund, the voided ones included

    @property
    def entry_net(self) -> Decimal:
        return self.entry_in - self.entry_refunded

    @property
    def side_net(self) -> Decimal:
        return self.side_in - self.side_refunded

    @property
    def received(self) -> Decimal:
        return self.entry_in + self.side_in

    @property
    def refunded(self) -> Decimal:
        return self.entry_refunded + self.side_refunded

    @property
    def entry_owed(self) -> Decimal:
        return max(ZERO, self.expected_entry - self.entry_net)

    @property
    def side_owed(self) -> Decimal:
        return max(ZERO, self.expected_side - self.side_net)

    @property
    def outstanding(self) -> Decimal:
        return self.entry_owed + self.side_owed

    @property
    def owed_booked(self) -> str:
        """Where paying what the team owes is booked, for the desk's form to say before it is saved."""
        return split_said(self.split(self.outstanding))

    def split(self, amount: Decimal) -> list[tuple[str, Decimal]]:
        """Where ``amount`` is booked when it pays what is owed: the entry fee first, then the side pot; what is
        beyond both goes to the entry fee (the desk refunds it if it was a mistake)."""
        side = min(self.side_owed, max(ZERO, amount - self.entry_owed))
        parts = [(Pot.ENTRY, amount - side), (Pot.SIDE_POT, side)]
        return [(pot, part) for pot, part in parts if part > 0]


def split_said(parts: list[tuple[str, Decimal]]) -> str:
    """ "100.00 to the entry fee and 20.00 to the side pot": where a payment is (or would be) booked."""
    return " and ".join(f"{amount} to the {Pot(pot).label.lower()}" for pot, amount in parts)


@dataclass(frozen=True)
class DeskMoney:
    """The desk's totals as it goes: received, expected, outstanding, refunded, side-pot entrants."""

    accounts: dict[int, TeamAccount]
    received: Decimal
    refunded: Decimal
    expected: Decimal
    outstanding: Decimal
    side_pot_entrants: int


def _expected(tournament: Tournament, team: Team, entry_net: Decimal, side_net: Decimal) -> tuple[Decimal, Decimal]:
    """A withdrawn team owes nothing more; what it paid is kept unless refunded (the rules, Money)."""
    if team.withdrawn:
        return entry_net, side_net if team.side_pot else ZERO
    return tournament.entry_fee, tournament.side_pot_fee if team.side_pot else ZERO


def desk_money(tournament: Tournament, teams: list[Team] | None = None) -> DeskMoney:
    """Every team's account in two queries (one if ``teams`` are given)."""
    teams = list(teams_with_players(tournament)) if teams is None else teams
    sums: defaultdict[int, defaultdict[tuple[str, str], Decimal]] = defaultdict(lambda: defaultdict(lambda: ZERO))
    methods: defaultdict[int, set[str]] = defaultdict(set)
    history: defaultdict[int, list[Payment]] = defaultdict(list)
    for payment in Payment.objects.filter(tournament=tournament):
        history[payment.team_id].append(payment)
        if payment.voided_at is not None:
            continue
        sums[payment.team_id][payment.kind, payment.pot] += payment.amount
        if payment.kind == Payment.Kind.RECEIVED:
            methods[payment.team_id].add(payment.get_method_display())
    accounts = {}
    for team in teams:
        paid = sums[team.pk]
        entry_in, side_in = paid[Payment.Kind.RECEIVED, Pot.ENTRY], paid[Payment.Kind.RECEIVED, Pot.SIDE_POT]
        entry_back, side_back = paid[Payment.Kind.REFUND, Pot.ENTRY], paid[Payment.Kind.REFUND, Pot.SIDE_POT]
        expected_entry, expected_side = _expected(tournament, team, entry_in - entry_back, side_in - side_back)
        accounts[team.pk] = TeamAccount(
            team,
            expected_entry,
            expected_side,
            entry_in,
            side_in,
            entry_back,
            side_back,
            methods[team.pk],
            history[team.pk],
        )
    rows = accounts.values()
    return DeskMoney(
        accounts=accounts,
        received=sum((a.received for a in rows), ZERO),
        refunded=sum((a.refunded for a in rows), ZERO),
        expected=sum((a.expected_entry + a.expected_side for a in rows), ZERO),
        outstanding=sum((a.outstanding for a in rows), ZERO),
        side_pot_entrants=sum(1 for team in teams if team.side_pot and not team.withdrawn),
    )


def money_placings(tournament: Tournament) -> tuple[list[tuple[Team | StandingTeam, int]], bool]:
    """The placings (team, place) the money is paid by, and whether they are final: the final placings once the
    tournament is over (``tournament_placings``: the playoff decided, or without a playoff every qualifying round
    signed); else the standings so far, for a preview."""
    placings = tournament_placings(tournament)
    if placings is not None:
        return [(p.team, p.place.number) for p in placings], True
    return [(row.team, row.place.number) for row in tournament_standings(tournament)], False


def bostons_made(tournament: Tournament) -> dict[int, int]:
    """Bostons each team made on signed sheets, qualifying rounds and playoff alike (one query)."""
    made: defaultdict[int, int] = defaultdict(int)
    hands = Hand.objects.filter(
        table__round__tournament=tournament, table__locked_at__isnull=False, boston=True, counts=True
    ).values_list("bidder", "table__seatings__team_id", "table__seatings__pair")
    for bidder, team_id, pair in hands:
        if team_id is not None and Seat(bidder).pair == pair:
            made[team_id] += 1
    return dict(made)


@dataclass(frozen=True)
class SheetLine:
    """One team's prize from one pot; ``paid`` is the payout record once the prize was handed over."""

    pot: str
    team: Team
    place: Place
    amount: Decimal
    paid: Payout | None
    bostons: int | None = None

    @property
    def pot_name(self) -> str:
        return PRIZE_FROM[self.pot]

    @property
    def differs(self) -> bool:
        return self.paid is not None and self.paid.amount != self.amount


@dataclass(frozen=True)
class PayoutSheet:
    final: bool
    desk: DeskMoney
    entry_net: Decimal
    side_pot: Decimal
    house: Decimal
    pool: Decimal
    percents: tuple
    side_pot_rule: str
    prizes: list[SheetLine]
    side_prizes: list[SheetLine]
    payouts: list[Payout]
    unpaid_side_pot_teams: list[Team]

    @property
    def lines(self) -> list[SheetLine]:
        return self.prizes + self.side_prizes

    @property
    def paid_out(self) -> Decimal:
        return sum((payout.amount for payout in self.payouts), ZERO)

    @property
    def still_to_pay(self) -> Decimal:
        return sum((line.amount for line in self.lines if line.paid is None), ZERO)

    @property
    def held(self) -> Decimal:
        """What the desk should hold now: fees in, less refunds and the prizes paid. The house's share is in the
        box with the rest until the house takes it, so it is counted here, never taken off."""
        return self.desk.received - self.desk.refunded - self.paid_out

    @property
    def difference(self) -> Decimal:
        """What the desk holds beyond the house's share and what the sheet still has to pay (0 when it balances)."""
        return self.held - self.house - self.still_to_pay

    @property
    def differences(self) -> list[str]:
        """Each cause of a difference, in words."""
        causes = []
        for line in self.lines:
            if line.paid is not None and line.differs:
                causes.append(
                    f"Team #{line.team.number} was paid {line.paid.amount} for {line.paid.place} "
                    f"({line.paid.pot_name.lower()}); the sheet now says {line.amount}."
                )
        sheet_teams = {(line.pot, line.team.pk) for line in self.lines if line.amount > 0}
        for payout in self.payouts:
            if (payout.pot, payout.team_id) not in sheet_teams:
                causes.append(
                    f"Team #{payout.team.number} was paid {payout.amount} ({payout.pot_name.lower()}) "
                    "but the sheet now pays it nothing."
                )
        if not self.prizes and self.pool > 0:
            causes.append(f"No team is placed yet: the prize pool of {self.pool} is not paid to anyone.")
        if not self.side_prizes and self.side_pot > 0:
            causes.append(f"No side-pot team is placed: the side pot of {self.side_pot} is not paid to anyone.")
        return causes

    @property
    def balanced(self) -> bool:
        """Fees in = payouts + house + refunds: every prize paid, and the desk holds the house's share alone."""
        return self.final and self.difference == 0 and self.still_to_pay == 0


def payout_sheet(tournament: Tournament) -> PayoutSheet:
    """The payout sheet from the final placings (``final``), or a preview from the standings so far."""
    teams = list(teams_with_players(tournament))
    desk = desk_money(tournament, teams)
    entry_net = sum((a.entry_net for a in desk.accounts.values()), ZERO)
    side_pot = sum((a.side_net for a in desk.accounts.values()), ZERO)
    house = house_share(entry_net, tournament.house_percent)
    pool = entry_net - house
    placements, final = money_placings(tournament)
    by_pk = {team.pk: team for team in teams}
    placed = [Placed(team.pk, place, team.number) for team, place in placements]
    percents = tournament.percents
    payouts = list(Payout.objects.filter(tournament=tournament).select_related("team"))
    paid = {(payout.pot, payout.team_id): payout for payout in payouts}
    prizes = [
        SheetLine(Pot.ENTRY, by_pk[p.key], p.place, p.amount, paid.get((Pot.ENTRY, p.key)))
        for p in placing_payouts(pool, placed, percents)
        if p.amount > 0
    ]
    in_side_pot = {team.pk for team in teams if team.side_pot}
    side_placed = [p for p in placed if p.key in in_side_pot]
    bostons = bostons_made(tournament)
    side_prizes = [
        SheetLine(Pot.SIDE_POT, by_pk[p.key], p.place, p.amount, paid.get((Pot.SIDE_POT, p.key)), bostons.get(p.key, 0))
        for p in side_pot_payouts(
            side_pot, side_placed, rule=tournament.side_pot_rule, percents=percents, bostons=bostons
        )
        if p.amount > 0
    ]
    placed_keys = {p.key for p in side_placed}
    return PayoutSheet(
        final=final,
        desk=desk,
        entry_net=entry_net,
        side_pot=side_pot,
        house=house,
        pool=pool,
        percents=percents,
        side_pot_rule=tournament.side_pot_rule,
        prizes=prizes,
        side_prizes=side_prizes,
        payouts=payouts,
        unpaid_side_pot_teams=[team for team in teams if team.side_pot and team.pk not in placed_keys],
    )


def team_payouts(team: Team) -> QuerySet[Payout]:
    """The prizes handed to a team, for its own page (the team sees only its own)."""
    return Payout.objects.filter(team=team).order_by("pot")


def team_prizes(team: Team) -> list[SheetLine]:
    """The team's prizes on the payout sheet once the placings are final (none before), for its own page: paid or
    still to collect at the desk."""
    sheet = payout_sheet(team.tournament)
    return [line for line in sheet.lines if line.team.pk == team.pk] if sheet.final else []
