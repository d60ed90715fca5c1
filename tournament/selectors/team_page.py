"""A team's own page: where it plays now, the sheet of its table, and what waits for it."""

from dataclasses import dataclass, field

from django.db.models import Count, Max, OuterRef, Prefetch, Subquery

from scoring import Pair
from tournament.models import Hand, HandSubmission, Payment, Payout, Round, Seating, Signature, Table, Team, Tournament
from tournament.selectors.clock import clock_state, clock_view
from tournament.selectors.money import SheetLine, team_prizes
from tournament.selectors.placings import TeamFinish, team_finish
from tournament.selectors.prefetch import members, penalties, seatings
from tournament.selectors.tables import SeatView, table_seats
from tournament.selectors.teams import TeamRound, team_rounds


@dataclass
class TeamNow:
    """The team's latest table (the next one, once a round is published) and its sheet as the team sees it."""

    team: Team
    round: Round | None = None
    table: Table | None = None
    pair: str = ""
    seats: list[SeatView] = field(default_factory=list)
    opponent: Team | None = None
    hands: list[Hand] = field(default_factory=list)
    signatures: dict[str, Signature] = field(default_factory=dict)
    mine: HandSubmission | None = None
    theirs: HandSubmission | None = None
    rounds: list[TeamRound] = field(default_factory=list)
    later: Seating | None = None
    later_opponent: Team | None = None
    finish: TeamFinish | None = None
    prizes: list[SheetLine] = field(default_factory=list)

    @property
    def mode(self) -> str:
        return self.team.tournament.sheet_mode

    @property
    def still_playing(self) -> bool:
        """The table is of an earlier round than the latest published one: its sheet is to finish first."""
        return self.later is not None

    @property
    def bye(self) -> bool:
        return self.round is not None and self.table is None

    @property
    def to_accept(self) -> list[Hand]:
        """Hands the other team entered that this team has not accepted yet."""
        if self.mode != Tournament.SheetMode.ACCEPT or not self.pair:
            return []
        other = Pair(self.pair).other
        return [hand for hand in self.hands if hand.accepted_at is None and hand.entered_by == other]

    @property
    def entries_differ(self) -> bool:
        return self.mine is not None and self.theirs is not None and self.mine.entry() != self.theirs.entry()

    @property
    def may_sign(self) -> bool:
        return (
            self.table is not None
            and self.table.complete
            and not self.table.signed
            and self.table.disputed_at is None
            and self.pair not in self.signatures
        )


def team_now(team: Team, *, rounds: bool = True) -> TeamNow:
    """Everything the team's page shows, in a fixed number of queries.

    The table is the team's latest, unless a round was published while the team still played an earlier
    one (the logged override): that unsigned sheet comes first, and the latest table is ``later``. Once the
    team's part in the tournament is over, ``finish`` says where it ended, with its prizes once placed.
    ``rounds=False``: without the rounds played so far (a form's post, or a page that has them drawn already).
    """
    now = TeamNow(team=team, rounds=team_rounds(team) if rounds else [], finish=team_finish(team))
    if now.finish is not None and now.finish.placing is not None:
        now.prizes = team_prizes(team)
    seating = (
        Seating.objects.filter(team=team)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round", "table")
        .order_by("-round__number")
        .first()
    )
    if seating is None:
        return now
    unsigned = (
        Seating.objects.filter(
            team=team,
            round__status=Round.Status.PUBLISHED,
            round__number__lt=seating.round.number,
            table__isnull=False,
            table__locked_at__isnull=True,
        )
        .select_related("round")
        .order_by("round__number")
        .first()
    )
    if unsigned is not None:
        now.later = seating
        if seating.table_id is not None:
            now.later_opponent = Team.objects.filter(seatings__table_id=seating.table_id).exclude(pk=team.pk).first()
        seating = unsigned
    now.round = seating.round
    if seating.table_id is None:
        return now
    table = (
        Table.objects.select_related("round__tournament__event", "playoff_match")
        .prefetch_related(
            seatings(),
            Prefetch("hands", queryset=Hand.objects.order_by("sequence").prefetch_related(penalties())),
            Prefetch("signatures", queryset=Signature.objects.select_related("player", "substitute")),
            Prefetch("submissions", queryset=HandSubmission.objects.order_by("sequence")),
        )
        .get(pk=seating.table_id)
    )
    now.table, now.pair = table, seating.pair
    now.seats = table_seats(table)
    now.opponent = table.team_at(Pair(seating.pair).other)
    now.hands = list(table.hands.all())
    now.signatures = {signature.pair: signature for signature in table.signatures.all()}
    submissions = {submission.pair: submission for submission in table.submissions.all()}
    now.mine = submissions.get(seating.pair)
    if now.mine is not None:
        now.theirs = submissions.get(Pair(seating.pair).other)
    return now


def _count(model: type[Payment] | type[Payout], **filters: object) -> Subquery:
    rows = model.objects.filter(tournament=OuterRef("pk"), **filters).order_by().values("tournament")
    return Subquery(rows.annotate(count=Count("pk")).values("count"))


def _last(model: type[Payment] | type[Payout]) -> Subquery:
    rows = model.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    return Subquery(rows.annotate(last=Max("pk")).values("last"))


def team_page_state(team: Team) -> tuple:
    """What the team's own page shows that a write or the clock can change, as values to compare
    (``pagecache.private``), in two queries: the tournament's versions (``team`` read with its tournament), the
    team's own row, each of its tables' version and clock, and the money (the team's prizes are shares of the
    pots every payment fills: payments, voids and payouts move them)."""
    tournament = team.tournament
    rules = tournament.rules
    tables = Table.objects.filter(seatings__team=team).select_related("round").order_by("pk")
    sheets = [(table.pk, table.version, clock_state(clock_view(table, rules))) for table in tables]
    money = (
        Tournament.objects.filter(pk=tournament.pk)
        .values_list(
            _count(Payment),
            _last(Payment),
            _count(Payment, voided_at__isnull=False),
            _count(Payout),
            _last(Payout),
            _count(Payout, confirmed_at__isnull=False),
        )
        .get()
    )
    row = tuple(getattr(team, field.attname) for field in Team._meta.concrete_fields)
    return (tournament.live_version, tournament.results_version, row, sheets, money)


def team_members(team: Team) -> Team:
    return Team.objects.select_related("tournament__event").prefetch_related(members()).get(pk=team.pk)
