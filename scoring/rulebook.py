"""A tournament's rules in words, as the engine applies them: the public rules page states them from the rule set
and the tournament's settings, so what players read is what scores their hands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from scoring.bids import MAX_LEVEL, BidKind, Direction
from scoring.money import SidePotRule, percents_text
from scoring.penalties import penalty_rules
from scoring.rules import (
    BOOKS_PER_DEAL,
    ByeScoring,
    DealStyle,
    DefendersOddBooks,
    RuleSet,
    SetScoring,
)
from scoring.standings import CRITERIA


@dataclass(frozen=True)
class Section:
    """One heading of the rules and its sentences."""

    title: str
    sentences: tuple[str, ...]


@dataclass(frozen=True)
class Money:
    """The money settings a rules page states: amounts per team, the house's share and the payouts by place."""

    entry_fee: Decimal
    side_pot_fee: Decimal
    house_percent: Decimal
    payout_percents: Sequence[Decimal]
    side_pot_rule: SidePotRule


def _times(factor: int, what: str) -> str:
    return f", × {factor} on {what}" if factor > 1 else ""


def _bids(rules: RuleSet) -> Section:
    high, low, no_trump = BidKind.HIGH.label, BidKind.LOW.label, BidKind.NO_TRUMP.label
    ranking = (
        f"at one level {no_trump} beats {low} and {low} beats {high}"
        if rules.low_beats_high
        else f"at one level {no_trump} beats {high} and {low}, which are equal: neither overcalls the other"
    )
    return Section(
        "Bids",
        (
            f"A bid is a level from {rules.min_bid} to {MAX_LEVEL} and a kind: {rules.min_bid} {high} (high cards "
            f"win), {rules.min_bid} {low} (low cards win) or {rules.min_bid} {no_trump} (no trump suit).",
            f"The winner of an {high} or {low} bid names the trump suit; if none is named, the suit of the first "
            "card played is trump.",
            f"The winner of a {no_trump} bid names {Direction.UP.label.lower()} or "
            f"{Direction.DOWN.label.lower()}; {Direction.UP.label.lower()} when none is named.",
            f"A higher level beats a lower one; {ranking}.",
            f"The bidding team needs 6 books plus its level: 4 {high} needs 10 books.",
        ),
    )


def _deal(rules: RuleSet) -> Section:
    if rules.deal is DealStyle.KITTY:
        cards = (
            f"Each player is dealt 12 cards; the kitty of {rules.kitty_size} cards goes to the winner of the bid and "
            "counts as the bidding team's first book."
        )
    else:
        cards = "Each player is dealt 13 cards from 52; there is no kitty."
    return Section(
        "Deal",
        (
            cards,
            f"A round is {rules.hands_per_round} hands; each team deals {rules.deals_per_team} of them. A "
            "re-deal does not count: the same hand is dealt again.",
        ),
    )


def _scoring(rules: RuleSet) -> Section:
    no_trump = f"a {BidKind.NO_TRUMP.label} bid"
    made = f"Made: the bidding team scores each book it took over 6{_times(rules.no_trump_multiplier, no_trump)}"
    if rules.boston_multiplier > 1:
        made += f"; all {BOOKS_PER_DEAL} books (a Boston) × {rules.boston_multiplier}"
    if rules.set_scoring is SetScoring.DEFENDERS_GAIN:
        set_ = "Set: the bidding team scores 0 and the defenders score the bid's level"
    else:
        set_ = "Set: the bidding team loses the bid's level (scores may go below 0)"
    sentences = [made + ".", set_ + _times(rules.no_trump_multiplier, no_trump) + "."]
    trump_bids = f"an {BidKind.HIGH.label} or {BidKind.LOW.label} bid"
    if rules.defenders_odd_books is DefendersOddBooks.TRUMP_ONLY:
        sentences.append(
            f"When {trump_bids} is set, the defenders also score 1 for each book they took over 6 (over 7 "
            "when the bid was 1)."
        )
    elif rules.defenders_odd_books is DefendersOddBooks.EVERY_BID:
        sentences.append("When a bid is set, the defenders also score 1 for each book they took over 6.")
    sentences.append(
        "The team with more points when the round's hands are played wins the round; level, it is a tie. A "
        "playoff match level after its hands plays on one hand at a time until a team leads."
    )
    return Section("Scoring", tuple(sentences))


def _penalties(rules: RuleSet) -> Section:
    return Section("Penalties", tuple(f"{kind.label}: {rule}." for kind, rule in penalty_rules(rules)))


def _byes(rules: RuleSet) -> Section:
    credit = (
        "a round win and the average points of the round's winners"
        if rules.bye_scoring is ByeScoring.WINNERS_AVERAGE
        else "a round win and no points"
    )
    return Section(
        "Byes",
        (
            "With an odd number of teams, one team has a bye each round.",
            f"A team with a bye is credited with {credit}.",
        ),
    )


def _forfeits(rules: RuleSet) -> Section:
    return Section(
        "Absent teams",
        (
            f"A team not at its table {rules.forfeit_minutes} minutes after the round clock started (without a "
            "clock, after the round was published) may be declared absent by the director.",
            "The absent team loses the round with 0 points; the team at the table is credited as with a bye. Both "
            "teams absent: both lose.",
        ),
    )


def _time(rules: RuleSet) -> Section:
    if not rules.round_minutes:
        return Section("Time", ("There is no round clock: each round is played to its last hand.",))
    warnings = [f"{minutes} minutes left" for minutes in (rules.warn_minutes, rules.last_warn_minutes) if minutes]
    sentences = [f"A round lasts {rules.round_minutes} minutes on the round clock the director starts."]
    if warnings:
        sentences.append(f"The clock warns at {' and at '.join(warnings)}.")
    sentences.append(
        "When time is called, the hand in play is the last: the round's result is the hands played by then."
    )
    sentences.append(
        "The clock runs the playoff matches too; a match level when time is called plays on one hand at a time "
        "while level."
        if rules.playoff_clock
        else "A playoff match plays to its end, without the clock."
    )
    return Section("Time", tuple(sentences))


def _standings(criteria: Sequence[str], rating_breaks_ties: bool, qualifying_rounds: int) -> Section:
    order = "; then ".join(CRITERIA[name].lower() if index else CRITERIA[name] for index, name in enumerate(criteria))
    ratings = "; then their players' ratings" if rating_breaks_ties else ""
    return Section(
        "Standings and tie-breaks",
        (
            f"Teams are ranked over the {qualifying_rounds} qualifying round{'s' if qualifying_rounds != 1 else ''} "
            f"by: {order}{ratings}.",
            "Teams still level share the place.",
        ),
    )


def _money(money: Money) -> Section | None:
    if not money.entry_fee and not money.side_pot_fee:
        return None
    sentences = []
    if money.entry_fee:
        house = (
            f"; the house keeps {percents_text((money.house_percent,))}% of the entry fees"
            if money.house_percent
            else ""
        )
        sentences.append(
            f"Entry fee: {money.entry_fee} a team{house}. The prize pool is paid by final place: "
            f"{percents_text(money.payout_percents)} percent, best first."
        )
    if money.side_pot_fee:
        sentences.append(
            f"Side pot: {money.side_pot_fee} a team, paid {money.side_pot_rule.label[0].lower()}"
            f"{money.side_pot_rule.label[1:]}."
        )
    return Section("Money", tuple(sentences))


def rules_in_words(
    rules: RuleSet,
    *,
    criteria: Sequence[str],
    rating_breaks_ties: bool = False,
    qualifying_rounds: int,
    money: Money | None = None,
) -> list[Section]:
    """Every rule a tournament plays by, in sentences, from its settings: bids, the deal, scoring, penalties,
    byes, absent teams, time, standings and tie-breaks, and money when there is any."""
    sections = [
        _bids(rules),
        _deal(rules),
        _scoring(rules),
        _penalties(rules),
        _byes(rules),
        _forfeits(rules),
        _time(rules),
        _standings(criteria, rating_breaks_ties, qualifying_rounds),
    ]
    if money is not None and (section := _money(money)) is not None:
        sections.append(section)
    return sections
