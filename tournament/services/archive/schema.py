"""The event archive's format, as one schema (pydantic): types, bounds and keys.

A key the schema does not know is refused (a typo would otherwise change a file's meaning), as are values
of the wrong type, text longer than the database keeps, and numbers outside what the rules allow. What
depends on several parts of the file (a locked sheet has all its hands and both signatures, a signature
is by a player of that team...) is checked while loading (``load.py``, ``tournaments.py``).
``docs/archive.md`` shows the JSON Schema this generates (``manage.py archive_schema``).
"""

from typing import Annotated, Any, Literal, Protocol

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    StringConstraints,
    create_model,
)

from scoring import Absent, BidOutOfTurnChoice, PenaltyKind, RedealReason
from scoring.money import MONEY_SETTINGS, MoneyKind, MoneySetting
from tournament.models import STANDINGS_ORDERS, LogEntry, Payment, Pot, Round, Tournament
from tournament.models.sheets import DealEntry
from tournament.services.archive.values import (
    Day,
    Money,
    PairName,
    PairOrNone,
    PlaceText,
    PlayerId,
    SeatOrNone,
    Slug,
    TeamNumber,
    TeamOf,
    Time,
    cents_text,
    declared,
    number,
    one_of,
    text,
)

FORMAT = "bidwhist-event-archive"
VERSION = 6
READS = (1, 2, 3, 4, 5, VERSION)


class Part(BaseModel):
    """Every part of the archive: unknown keys refused, no type coerced (a number must be a number)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class LogData(Part):
    """An entry of an action log. A table's entries carry ``version``; the others ``round`` and ``team``.
    Version 1 archives name a ``user`` instead of ``actor`` and ``actor_name``."""

    action: one_of(*LogEntry.Action.values)
    summary: text(300, needed=True)
    reason: text(None) = ""
    before: JsonValue = None
    after: JsonValue = None
    correction: bool = False
    actor: one_of(*LogEntry.Actor.values) | None = None
    actor_name: text(150) = ""
    user: text(150) | None = None
    device: text(100) = ""
    created_at: Time | None = None
    version: number(0, 1_000_000) | None = None
    round: number(1, 100) | None = None
    team: TeamNumber | None = None


class EventData(Part):
    name: text(120, needed=True)
    slug: Slug
    venue: text(160) = ""
    starts_on: Day
    ends_on: Day
    created_at: Time | None = None


Key = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")]


class PlayerData(Part):
    """A player record of the event; ``person`` is the id of the person (``persons``) it is linked to."""

    id: PlayerId
    name: text(120, needed=True)
    city: text(120) = ""
    phone: text(40) = ""
    person: PlayerId | None = None


class PersonData(Part):
    """A person one of the event's players is linked to. ``key`` is the person in every database: an
    import links to the person of that key when the database has one, else makes it."""

    id: PlayerId
    key: Key
    name: text(120, needed=True)
    city: text(120) = ""
    hidden: bool = False


class SeriesData(Part):
    """A series some of the event's tournaments are in (named by their slugs in this file); ``key`` is the
    series in every database, as for persons."""

    key: Key
    name: text(120, needed=True)
    slug: Slug
    points: dict[str, JsonValue]
    tournaments: Annotated[list[Slug], Field(min_length=1)]


class SeedData(Part):
    seed: number(1, 1024)
    team: TeamNumber


class PlacingData(Part):
    place: number(1, 10_000)
    shared: bool
    team: TeamNumber


class PlayoffData(Part):
    third_place: bool
    double: bool
    published_at: Time | None = None
    seeds: list[SeedData] = []
    placings: list[PlacingData] | None = None


class TeamData(Part):
    number: TeamNumber
    name: text(160) = ""
    city: text(120) = ""
    players: Annotated[list[PlayerId], Field(min_length=2, max_length=2)]
    fee_paid: bool
    side_pot: bool
    checked_in: bool
    withdrawn: bool
    code: text(12) | None = None
    created_at: Time | None = None


class AnnouncementData(Part):
    text: text(280, needed=True)
    created_at: Time | None = None
    expires_at: Time | None = None


class PenaltyData(Part):
    kind: one_of(*PenaltyKind.values())
    team: PairName
    count: number(1, 13)
    choice: one_of("", *BidOutOfTurnChoice.values())
    before_bidding: bool
    points: number(-1000, 1000)
    reason: text(None) = ""
    created_by: text(150) | None = None
    created_at: Time | None = None


# The archive's names for a deal's entries that the models name otherwise: archives have always said them so.
ARCHIVE_NAMES = {"level": "bid_level", "kind": "bid_kind", "suit": "trump_suit"}


class _DealPart(Part):
    model_config = ConfigDict(alias_generator=lambda name: ARCHIVE_NAMES.get(name, name))


# An entry declared with a default takes it when an archive written before it was declared lacks it.
_DEAL_FIELDS: dict[str, Any] = {
    field.name: (declared(field), field.default if field.has_default() else ...) for field in DealEntry._meta.fields
}
DealData = create_model(
    "DealData",
    __base__=_DealPart,
    __doc__="""What is entered of a deal, the same on the sheet and in a team's own entry: its dealer, and for a played
    hand the bidder, the bid with its trump or direction, and the books (a re-deal has none of them). A field is
    named as the model names it and read from the file by its archive name (``ARCHIVE_NAMES``).""",
    **_DEAL_FIELDS,
)


class HandData(DealData):  # type: ignore[misc]
    """A deal of the sheet: a played hand (bidder, bid, books) or a re-deal (none of them)."""

    sequence: number(1, 100)
    misdeal: bool
    by_staff: bool = False
    entered_by: PairOrNone = ""
    entry_id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{0,40}$")] = ""
    accepted_at: Time | None = None
    created_at: Time | None = None
    penalties: list[PenaltyData] = []


class SignatureData(Part):
    """Who signed for the team at ``pair``: one of its players (``player``), or the substitute the team played
    the round with (``substitute`` true, ``player`` null)."""

    pair: PairName
    player: PlayerId | None = None
    substitute: bool = False
    device: text(100) = ""
    signed_at: Time | None = None


class SubmissionData(DealData):  # type: ignore[misc]
    """A team's own entry of a deal (blind double entry) still waiting for the other team's."""

    pair: PairName
    sequence: number(1, 100)
    redeal_reason: one_of("", *RedealReason.values())
    redeal_team: PairOrNone
    device: text(100) = ""
    created_at: Time | None = None


class TableData(Part):
    """A table of a round: its teams, its sheet and the sheet's history. ``playoff_match`` names the
    bracket's match the table plays (W1-1, L2-1, 3P, GF, GF2: see docs/archive.md)."""

    number: number(1, 999)
    north_south: TeamNumber
    east_west: TeamNumber
    sitting_pair: PairName
    secret: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
    version: number(0, 1_000_000)
    first_dealer: SeatOrNone
    locked_at: Time | None = None
    disputed_at: Time | None = None
    time_called_at: Time | None = None
    forfeit: one_of("", *Absent.values()) = ""
    dispute_note: text(300) = ""
    playoff_match: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{1,10}$")] | None = None
    hands: list[HandData] = []
    rulings: list[PenaltyData] = []
    signatures: list[SignatureData] = []
    submissions: list[SubmissionData] = []
    changes: list[LogData] = []


class RoundData(Part):
    number: number(1, 100)
    kind: one_of(*Round.Kind.values)
    label: text(60) = ""
    status: one_of(*Round.Status.values)
    method: one_of(*Round.Method.values)
    seed: number(0, 10**12) | None = None
    created_at: Time | None = None
    published_at: Time | None = None
    clock_started_at: Time | None = None
    byes: list[TeamNumber] = []
    tables: list[TableData] = []


class Recorded(Part):
    """A part read straight from its database record (``from_attributes``): its fields are said once, here."""

    model_config = ConfigDict(from_attributes=True)


class PaymentData(Recorded):
    """Money received from a team at the desk, or refunded to it (a refund has its reason)."""

    team: TeamOf
    kind: one_of(*Payment.Kind.values)
    pot: one_of(*Pot.values)
    amount: Money
    method: one_of(*Payment.Method.values)
    reason: text(200) = ""
    recorded_by: text(150) = ""
    created_at: Time | None = None
    voided_at: Time | None = None
    voided_reason: text(200) = ""
    voided_by: text(150) = ""


class PayoutData(Recorded):
    """A prize handed to a team, and its confirmation with the team's code."""

    team: TeamOf
    pot: one_of(*Pot.values)
    place: PlaceText
    amount: Money
    paid_by: text(150) = ""
    paid_at: Time | None = None
    confirmed_at: Time | None = None
    confirmed_on: text(100) = ""


class MoneyRecords(Protocol):
    """What the archive keeps of the desk's records of a tournament's money (``MoneyData`` beside its settings)."""

    payments: list[PaymentData]
    payouts: list[PayoutData]


def _archived(setting: MoneySetting) -> Any:
    """How the archive keeps a money setting of the setting's kind; an archive without it (one written before the
    setting was declared) reads it as its default."""
    if setting.choices is not None:
        return one_of(*setting.choices.values())
    return text(200, needed=True) if setting.kind is MoneyKind.PERCENTS else Money


_MONEY_FIELDS: dict[str, Any] = {
    **{name: (_archived(setting), cents_text(setting.default)) for name, setting in MONEY_SETTINGS.items()},
    "payments": (list[PaymentData], []),
    "payouts": (list[PayoutData], []),
}
MoneyData = create_model(
    "MoneyData",
    __base__=Recorded,
    __doc__="The tournament's money settings (the rules, Money), every payment and refund, and the prizes paid.",
    **_MONEY_FIELDS,
)


class SitOutData(Part):
    """A team marked before a round's draw as sitting it out (not drawn, no result)."""

    team: TeamNumber
    round: number(1, 100)
    reason: text(200) = ""


class SubstituteData(Part):
    """A substitute the director approved for one player of a team (``replaces``, a player id) for one round."""

    team: TeamNumber
    round: number(1, 100)
    replaces: PlayerId
    name: text(120, needed=True)
    reason: text(200) = ""


class TournamentData(Part):
    name: text(120, needed=True)
    slug: Slug
    rules: dict[str, JsonValue]
    qualifying_rounds: number(1, 20)
    status: one_of(*Tournament.Status.values)
    paper_size: one_of(*Tournament.PaperSize.values)
    standings_order: one_of(*(key for key, _ in STANDINGS_ORDERS))
    avoid_same_city_rounds: number(0, 20)
    sheet_mode: one_of(*Tournament.SheetMode.values) = Tournament.SheetMode.SIGN.value
    created_at: Time | None = None
    playoff: PlayoffData
    money: MoneyData | None = None
    teams: list[TeamData] = []
    announcements: list[AnnouncementData] = []
    log: list[LogData] = []
    rounds: list[RoundData] = []
    sit_outs: list[SitOutData] = []
    substitutes: list[SubstituteData] = []


class Archive(Part):
    """A whole event: its players and the persons they are linked to, its tournaments with every sheet, the
    series they are in, and every action log."""

    format: Literal["bidwhist-event-archive"]
    version: Literal[1, 2, 3, 4, 5, 6]
    event: EventData
    persons: list[PersonData] = []
    players: list[PlayerData] = []
    log: list[LogData] = []
    tournaments: list[TournamentData] = []
    series: list[SeriesData] = []
