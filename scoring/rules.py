"""A tournament's rule set: every setting of the tournament rules, with the two presets."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from scoring.bids import MAX_LEVEL, Bid, BidKind
from scoring.errors import ScoringError
from scoring.terms import Term

BOOKS_PER_DEAL = 13


class DealStyle(Term):
    STRAIGHT = "straight", "Straight (no kitty)"
    KITTY = "kitty", "Kitty"


class SetScoring(Term):
    """What a set costs."""

    DEFENDERS_GAIN = "defenders_gain", "Defenders gain the bid"
    BIDDERS_LOSE = "bidders_lose", "Bidding team loses the bid"


class DefendersOddBooks(Term):
    """When the defenders of a set bid score a point for each book they turned above six."""

    TRUMP_ONLY = "trump_only", "Trump bids only, after the 7th book on a bid of 1"
    NONE = "none", "Never"
    EVERY_BID = "every_bid", "Every bid"


class ByeScoring(Term):
    """What a team with a bye is credited with for the round."""

    WINNERS_AVERAGE = "winners_average", "A round win and the average points of the round's winners"
    WIN_ONLY = "win_only", "A round win and no points"


@dataclass(frozen=True)
class Setting:
    """How one setting is described to a director and which values it admits.

    ``scored`` is false for a setting that describes the game but changes no score, because the sheet
    records only the winning bid and the books: it is stored and kept, never offered as a choice.
    ``timing`` marks a setting of the day's time (the round clock, when a forfeit may be declared): it changes
    no score, so the director may still change it once a round is published.
    """

    label: str
    help: str
    choices: type[Term] | None = None
    minimum: int | None = None
    maximum: int | None = None
    scored: bool = True
    timing: bool = False


SETTINGS: dict[str, Setting] = {
    "deal": Setting(
        "Deal",
        "Straight: 52 cards, 13 each, no kitty. Kitty: 12 each, the rest form a kitty that "
        "counts as the bidding team's first book.",
        choices=DealStyle,
    ),
    "jokers": Setting(
        "Jokers",
        "Jokers in a kitty deal (the kitty holds 4 cards plus one per joker). A straight deal has none.",
        minimum=0,
        maximum=2,
        scored=False,
    ),
    "min_bid": Setting("Minimum bid", "The lowest level a player may bid.", minimum=1, maximum=MAX_LEVEL),
    "low_beats_high": Setting(
        f"{BidKind.LOW.label} beats {BidKind.HIGH.label}",
        f"At one level a {BidKind.LOW.label} bid overcalls an {BidKind.HIGH.label} bid. Off: the two are equal "
        "and neither overcalls the other.",
        scored=False,
    ),
    "no_trump_multiplier": Setting(
        "No-trump multiplier",
        "A no-trump bid's points are multiplied by this, made or set.",
        minimum=1,
        maximum=4,
    ),
    "set_scoring": Setting(
        "When a bid is set",
        "Who a set bid scores for: the defenders gain the bid (no negative scores), or the "
        "bidding team loses it (scores may go negative).",
        choices=SetScoring,
    ),
    "defenders_odd_books": Setting(
        "Defenders' odd books",
        "When the defenders of a set bid also score a point for each book they turned above six.",
        choices=DefendersOddBooks,
    ),
    "boston_multiplier": Setting(
        "Boston multiplier",
        "The bidding team's points are multiplied by this when it takes all 13 books (1: no bonus).",
        minimum=1,
        maximum=10,
    ),
    "renege_books": Setting(
        "Books moved by a renege",
        "Books moved from the reneging team to the other for each renege, before scoring.",
        minimum=0,
        maximum=BOOKS_PER_DEAL,
    ),
    "bid_out_of_turn_points": Setting(
        "Bid out of turn: points",
        "Points the wronged team gains when the player whose turn it was chooses to take points.",
        minimum=0,
        maximum=50,
    ),
    "play_out_of_turn_points": Setting(
        "Play out of turn: points",
        "Points the opposing team gains for a play out of turn.",
        minimum=0,
        maximum=50,
    ),
    "exposed_card_points": Setting(
        "Exposed card: points",
        "Points the opposing team gains for each exposed card after a team's first in a round, which is a warning.",
        minimum=0,
        maximum=50,
    ),
    "hands_per_round": Setting(
        "Hands per round",
        "Deals that count in a round; re-deals are not counted.",
        minimum=1,
        maximum=20,
    ),
    "bye_scoring": Setting(
        "Bye",
        "What a team with a bye is credited with for the round.",
        choices=ByeScoring,
    ),
    "round_minutes": Setting(
        "Round clock (minutes)",
        "Minutes a round lasts on the round clock the director starts; 0: no clock.",
        minimum=0,
        maximum=240,
        timing=True,
    ),
    "warn_minutes": Setting(
        "First warning (minutes left)",
        "The clock turns to a warning with this many minutes left; 0: no warning.",
        minimum=0,
        maximum=120,
        timing=True,
    ),
    "forfeit_minutes": Setting(
        "Forfeit after (minutes)",
        "A team not at its table this long after the clock started (or the round was published, without a clock) "
        "may be declared absent by the director.",
        minimum=0,
        maximum=120,
        timing=True,
    ),
    "last_warn_minutes": Setting(
        "Last warning (minutes left)",
        "The clock's last warning, with this many minutes left; 0: no last warning.",
        minimum=0,
        maximum=120,
        timing=True,
    ),
    "playoff_clock": Setting(
        "Clock in the playoff",
        "The round clock runs the playoff matches too, with the same minutes; a match level when time is called "
        "plays on one hand at a time while level. Off: a playoff match plays to its end.",
        timing=True,
    ),
}

# The settings a director may still change once a round is published: they change no score.
TIMING_SETTINGS = tuple(name for name, setting in SETTINGS.items() if setting.timing)


@dataclass(frozen=True)
class RuleSet:
    """Every rule a director may change; the defaults are the tournament rule sheet."""

    deal: DealStyle = DealStyle.STRAIGHT
    jokers: int = 0
    min_bid: int = 1
    low_beats_high: bool = False
    no_trump_multiplier: int = 2
    set_scoring: SetScoring = SetScoring.DEFENDERS_GAIN
    defenders_odd_books: DefendersOddBooks = DefendersOddBooks.TRUMP_ONLY
    boston_multiplier: int = 1
    renege_books: int = 3
    bid_out_of_turn_points: int = 3
    play_out_of_turn_points: int = 3
    exposed_card_points: int = 3
    hands_per_round: int = 4
    bye_scoring: ByeScoring = ByeScoring.WINNERS_AVERAGE
    round_minutes: int = 0
    warn_minutes: int = 10
    last_warn_minutes: int = 5
    forfeit_minutes: int = 15
    playoff_clock: bool = False

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            object.__setattr__(self, field.name, _checked(field.name, value))
        if self.deal is DealStyle.STRAIGHT and self.jokers:
            raise ScoringError("A straight deal has no jokers; choose a kitty deal to play with jokers.")

    def warnings_check(self) -> None:
        """The clock's warnings come in order, and within the round when it has a clock: asked of rules a
        director sets (rule sets stored before are read as they are)."""
        if self.warn_minutes and self.last_warn_minutes >= self.warn_minutes:
            raise ScoringError(
                f"The last warning comes after the first: fewer minutes left than {self.warn_minutes}, or 0.",
                field="last_warn_minutes",
            )
        for name in ("warn_minutes", "last_warn_minutes"):
            if self.round_minutes and getattr(self, name) >= self.round_minutes:
                raise ScoringError(
                    f"{SETTINGS[name].label}: a warning comes within the round's {self.round_minutes} minutes, "
                    "or is 0 (none).",
                    field=name,
                )

    @classmethod
    def preset(cls, name: str = "tournament") -> RuleSet:
        try:
            return PRESETS[name]
        except KeyError:
            known = ", ".join(PRESETS)
            raise ScoringError(f"There is no preset called {name!r}; the presets are {known}.") from None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Rebuild a stored rule set; a setting missing from older data takes its default."""
        if not isinstance(data, dict):
            raise ScoringError("A stored rule set must be a mapping of setting names to values.")
        unknown = sorted(set(data) - set(SETTINGS))
        if unknown:
            raise ScoringError(f"Unknown rule set setting: {', '.join(unknown)}.")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {name: _plain(getattr(self, name)) for name in SETTINGS}

    def replace(self, **changes: Any) -> RuleSet:
        unknown = sorted(set(changes) - set(SETTINGS))
        if unknown:
            raise ScoringError(f"Unknown rule set setting: {', '.join(unknown)}.")
        return dataclasses.replace(self, **changes)

    def with_choices(self, **changes: Any) -> RuleSet:
        """These rules with the settings a director chose on the form; a straight deal leaves no jokers."""
        if changes.get("deal", self.deal) == DealStyle.STRAIGHT:
            changes["jokers"] = 0
        return self.replace(**changes)

    @property
    def kitty_size(self) -> int:
        return 4 + self.jokers if self.deal is DealStyle.KITTY else 0

    @property
    def min_books(self) -> int:
        """The fewest books a bidding team can hold before penalties: the kitty is theirs."""
        return 1 if self.deal is DealStyle.KITTY else 0

    @property
    def deals_per_team(self) -> int:
        """How many of a round's hands each team may deal (the larger share if the count is odd)."""
        return (self.hands_per_round + 1) // 2

    def check_books(self, books: int, *, after_penalties: bool = False) -> None:
        """Books are 0 to 13; before penalties a kitty deal's bidders hold at least the kitty."""
        least = 0 if after_penalties else self.min_books
        if isinstance(books, bool) or not isinstance(books, int):
            raise ScoringError(f"Books are a whole number of tricks, not {books!r}.", field="books")
        if not least <= books <= BOOKS_PER_DEAL:
            raise ScoringError(
                f"The bidding team's books must be {least} to {BOOKS_PER_DEAL}; {books} is not possible.",
                field="books",
            )

    def multiplier(self, bid: Bid) -> int:
        return self.no_trump_multiplier if bid.is_no_trump else 1

    def check_bid(self, bid: Bid) -> None:
        if not isinstance(bid, Bid):
            raise ScoringError(f"{bid!r} is not a bid.")
        if bid.level < self.min_bid:
            raise ScoringError(f"The minimum bid is {self.min_bid}; {bid} is too low.", field="level")

    def allows(self, bid: Bid) -> bool:
        return isinstance(bid, Bid) and bid.level >= self.min_bid

    def beats(self, new_bid: Bid, old_bid: Bid | None) -> bool:
        """Whether new_bid may overcall old_bid (None: no bid yet) under progressive bidding."""
        if not self.allows(new_bid):
            return False
        if old_bid is None:
            return True
        if new_bid.level != old_bid.level:
            return new_bid.level > old_bid.level
        return _kind_rank(self, new_bid.kind) > _kind_rank(self, old_bid.kind)

    def describe(self) -> list[tuple[str, str]]:
        """Each scored setting's label and its value in words, for pages and printed sheets."""
        described = []
        for name, setting in SETTINGS.items():
            if not setting.scored:
                continue
            value = getattr(self, name)
            if setting.choices:
                text = value.label
            elif isinstance(value, bool):
                text = "Yes" if value else "No"
            else:
                text = str(value)
            described.append((setting.label, text))
        return described


def _kind_rank(rules: RuleSet, kind: BidKind) -> int:
    if kind is BidKind.NO_TRUMP:
        return 2
    if kind is BidKind.LOW and rules.low_beats_high:
        return 1
    return 0


def _checked(name: str, value: Any) -> Any:
    setting = SETTINGS[name]
    default = RuleSet.__dataclass_fields__[name].default
    if isinstance(default, StrEnum):
        try:
            return type(default)(value)
        except ValueError:
            allowed = ", ".join(member.value for member in type(default))
            raise ScoringError(f"{setting.label}: {value!r} is not one of {allowed}.", field=name) from None
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ScoringError(f"{setting.label}: expected yes or no (true/false), not {value!r}.", field=name)
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScoringError(f"{setting.label}: expected a whole number, not {value!r}.", field=name)
    assert setting.minimum is not None and setting.maximum is not None, "a number setting declares its range"
    if not setting.minimum <= value <= setting.maximum:
        raise ScoringError(f"{setting.label}: {value} is outside {setting.minimum} to {setting.maximum}.", field=name)
    return value


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, StrEnum) else value


PRESETS: dict[str, RuleSet] = {
    "tournament": RuleSet(),
    "kitty": RuleSet(
        deal=DealStyle.KITTY,
        jokers=2,
        min_bid=3,
        set_scoring=SetScoring.BIDDERS_LOSE,
        defenders_odd_books=DefendersOddBooks.NONE,
        no_trump_multiplier=2,
        boston_multiplier=4,
    ),
}
