"""The shapes of the public JSON API (and of the `standings` and `playoff` commands' JSON): public data only,
never a table's link, a team's code or a player's phone number."""

import datetime
from typing import Annotated, Any

from ninja import Schema
from pydantic import AliasChoices, BeforeValidator, Field

from scoring import BidKind, Result
from scoring.places import Place


def read(attribute: str, name: str, default: Any = ..., description: str | None = None) -> Any:
    """A field read from a record's ``attribute`` (an answer built already reads as ``name``)."""
    return Field(default, validation_alias=AliasChoices(attribute, name), description=description)


def place_out(place: Place) -> dict[str, Any]:
    """A place as the API gives it (standings, placings, a series): its number, whether it is shared, and its
    label as the pages write it ("T-3")."""
    return {"place": place.number, "shared": place.shared, "label": str(place)}


# The bid kinds' codes with the words players say for them, from the engine's one list.
KINDS = ", ".join(f"'{kind.value}' ({kind.label})" for kind in BidKind)


# Text the models keep blank when there is none, which the API says as null; a value as its words.
Blank = Annotated[str | None, BeforeValidator(lambda value: str(value) if value else None)]


class TeamRef(Schema):
    number: int
    name: str = read("display_name", "name")


class EventRef(Schema):
    slug: str
    name: str


class TournamentRef(Schema):
    slug: str
    name: str
    status: str


class EventOut(Schema):
    slug: str
    name: str
    venue: str
    starts_on: datetime.date
    ends_on: datetime.date
    tournaments: list[TournamentRef]


class PlayoffOptions(Schema):
    seeded: bool
    published: bool
    third_place: bool
    double_elimination: bool


class TournamentOut(Schema):
    slug: str
    name: str
    event: EventRef
    status: str
    qualifying_rounds: int
    standings_order: list[str]
    rules: dict[str, Any]
    playoff: PlayoffOptions
    teams: int


class TeamOut(Schema):
    number: int
    name: str = read("display_name", "name")
    team_name: str = Field(validation_alias=AliasChoices("team_name", "name"))
    city: str
    players: list[str] = read("player_name_list", "players")
    withdrawn: bool = Field(
        description="The director has withdrawn the team. A team's own request to withdraw is not public until then."
    )
    checked_in: bool = Field(description="The team is here today (checked in at the desk or on its own page).")
    checked_in_by_team: bool = Field(description="The team checked itself in on its own page.")


class PenaltyOut(Schema):
    kind: str
    team: str
    description: str
    count: int
    choice: str
    points: int
    ns_points: int
    ew_points: int


class HandOut(Schema):
    """A deal of a sheet, read from the stored hand: a field named as the model's is copied as it is."""

    number: int = read("hand_number", "number")
    counts: bool
    misdeal: bool
    dealer: str
    bidder: Blank
    bid: Blank = read("contract.bid", "bid", None, "The bid in the players' words, e.g. '4 Downtown'.")
    level: int | None
    kind: Blank = Field(description=f"The bid's kind: {KINDS}.")
    trump: Blank = read("suit", "trump")
    direction: Blank = read("contract.direction", "direction")
    books: int | None
    books_after_penalties: int | None
    made: bool | None
    boston: bool
    ns_points: int
    ew_points: int
    ns_total: int
    ew_total: int
    penalties: list[PenaltyOut]


class RoundResultOut(Schema):
    """What a round came to for one team, as every page says it."""

    points_for: int = Field(description="The points the standings count for the round (a bye's or a forfeit's credit).")
    points_against: int
    result: Result = Field(description="What the round came to for the team.")
    counted: bool = Field(
        description="The standings count the round now: false while its table is in play (a bye or a forfeit won "
        "counts as soon as its round is out, as the absent team's loss does)."
    )
    provisional: bool = Field(
        description="A bye's or a forfeit's points that can still move: the average of the round's winners so "
        "far, until every table of the round is signed."
    )
    line: str = Field(description="The round as the pages say it, e.g. 'won 12–4', 'won by forfeit, 7 points'.")


class TableOut(Schema):
    number: int
    stage: str
    north_south: TeamRef | None
    east_west: TeamRef | None
    sitting: str = Field(description="The side whose team keeps the score sheet: 'NS' or 'EW'.")
    hands_played: int
    complete: bool
    time_called_after: int | None = None
    forfeit: str = ""
    signed: bool
    signed_at: datetime.datetime | None
    ns_total: int
    ew_total: int
    winner: int | None
    north_south_round: RoundResultOut = Field(description="The round of the team at North–South.")
    east_west_round: RoundResultOut = Field(description="The round of the team at East–West.")
    hands: list[HandOut] | None = None
    rulings: list[PenaltyOut] | None = None


class SubstituteOut(Schema):
    """A substitute the director approved for one player of a team, for this round only."""

    team: int
    replaces: str
    name: str


class RoundOut(Schema):
    number: int
    kind: str
    title: str
    status: str
    method: str
    published_at: datetime.datetime | None
    tables: list[TableOut]
    byes: list[TeamRef]
    bye_credit: int | None = Field(
        description="The points a bye of this round is credited (provisional until every table of the round is "
        "signed); null when the round has no bye."
    )
    bye_credit_provisional: bool = Field(
        description="Whether the bye's credit can still move: a table of the round is not signed yet."
    )
    sitting_out: list[TeamRef] = []
    substitutes: list[SubstituteOut] = []


class StandingOut(Schema):
    place: int
    shared: bool
    label: str
    team_number: int
    team: str
    players: list[str]
    city: str
    wins: int
    losses: int
    ties: int
    won_lost_tied: str
    rounds_won: float
    points_for: int
    points_for_provisional: bool = Field(
        description="The points for hold a bye's or a forfeit's credit that can still move (a table of its round is "
        "not signed yet)."
    )
    points_against: int
    difference: int
    hands_won: int
    bostons: int
    byes: int
    withdrawn: bool


class TeamRoundOut(RoundResultOut):
    round: int
    stage: str
    table: int | None
    pair: str | None
    opponent: TeamRef | None


class TeamRecordOut(Schema):
    team: TeamOut
    standing: StandingOut | None
    rounds: list[TeamRoundOut]


class SeedOut(Schema):
    seed: int
    team: TeamRef


class MatchOut(Schema):
    """A match of the bracket, read from the stored match and the table that plays it."""

    code: str
    label: str
    bracket: str
    round: int = read("bracket_round", "round")
    stage: int
    top: str = read("top_source", "top")
    bottom: str = read("bottom_source", "bottom")
    top_team: TeamRef | None
    bottom_team: TeamRef | None
    table: int | None = read("table.number", "table", None)
    ns_total: int | None = read("table.ns_total", "ns_total", None)
    ew_total: int | None = read("table.ew_total", "ew_total", None)
    winner: TeamRef | None
    conditional: bool
    not_needed: bool


class BracketOut(Schema):
    tournament: str
    published: bool
    double_elimination: bool
    third_place: bool
    seeds: list[SeedOut]
    matches: list[MatchOut]
    champion: TeamRef | None


class PlacingOut(Schema):
    place: int
    shared: bool
    label: str
    team: TeamRef
    players: list[str]
    how: str


class AnnouncementOut(Schema):
    text: str
    created_at: datetime.datetime
    expires_at: datetime.datetime | None
