"""Playoff brackets (the rules, Playoffs): plain Python, no database.

A bracket is a list of matches; each side of a match is a source: a seed, or the winner or loser of
an earlier match. Byes happen only in the first round: a top seed whose first-round opponent does
not exist goes straight to the second round, and no match is made for it.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from itertools import groupby
from typing import Generic, TypeVar

from scoring.places import Place, places

WINNERS, LOSERS, FINAL, THIRD = "winners", "losers", "final", "third"


# What the caller knows a team by (its Team, its id...): handed back as given.
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Source:
    """Where a side of a match comes from: ``seed`` (number), ``winner`` or ``loser`` (match code)."""

    kind: str
    value: int | str

    def __str__(self) -> str:
        return f"{self.kind}:{self.value}"

    @classmethod
    def parse(cls, text: str) -> Source:
        kind, _, value = text.partition(":")
        if kind not in ("seed", "winner", "loser"):
            raise ValueError(f"Not a bracket source: {text!r}.")
        return cls(kind, int(value) if kind == "seed" else value)


@dataclass(frozen=True)
class Match:
    code: str
    bracket: str
    round: int
    position: int
    top: Source
    bottom: Source
    label: str
    stage: int = 0
    conditional: bool = False  # the grand-final reset, played only if the losers' bracket team wins


@dataclass(frozen=True)
class Bracket:
    teams: int
    size: int
    double: bool
    third_place: bool
    matches: tuple[Match, ...] = field(default_factory=tuple)

    def match(self, code: str) -> Match:
        return next(m for m in self.matches if m.code == code)

    @property
    def final(self) -> Match:
        """The match whose winner is champion (a double bracket's reset decides it when played)."""
        finals = [m for m in self.matches if m.bracket == FINAL]
        return finals[0]


def seed_order(size: int) -> list[int]:
    """Seeds in bracket order so that 1 and 2 can meet only in the final: 1, 8, 4, 5, 2, 7, 3, 6 for 8."""
    if size < 1 or size & (size - 1):
        raise ValueError("A bracket's size is a power of two.")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def _round_name(round_number: int, rounds: int) -> str:
    remaining = rounds - round_number
    return {0: "Final", 1: "Semifinal", 2: "Quarterfinal"}.get(remaining, f"Round of {2 ** (remaining + 1)}")


_NUMBERED = re.compile(r"( \d+|, match \d+)$")


def stage_name(label: str) -> str:
    """A match's stage without its number: "Semifinal 2" → "Semifinal", "Losers' round 2, match 1" →
    "Losers' round 2"."""
    return _NUMBERED.sub("", label)


class _Builder:
    """Builds matches with placeholder sources, then drops the ones a bye leaves empty."""

    EMPTY = Source("empty", 0)

    def __init__(self, teams: int):
        self.teams = teams
        self.matches: list[Match] = []

    def seed(self, number: int) -> Source:
        return Source("seed", number) if number <= self.teams else self.EMPTY

    def add(self, match: Match) -> Source:
        self.matches.append(match)
        return Source("winner", match.code)

    def collapse(self) -> list[Match]:
        """Remove matches with an empty side: the other side goes on without playing."""
        winner_of: dict[str, Source] = {}
        loser_of: dict[str, Source] = {}
        kept: list[Match] = []

        def resolve(source: Source) -> Source:
            if source.kind == "winner" and source.value in winner_of:
                return winner_of[source.value]
            if source.kind == "loser" and source.value in loser_of:
                return loser_of[source.value]
            return source

        for match in self.matches:
            top, bottom = resolve(match.top), resolve(match.bottom)
            if top == self.EMPTY or bottom == self.EMPTY:
                winner_of[match.code] = bottom if top == self.EMPTY else top
                loser_of[match.code] = self.EMPTY
                continue
            kept.append(Match(**{**match.__dict__, "top": top, "bottom": bottom}))
        return _with_stages(kept)


def _with_stages(matches: list[Match]) -> list[Match]:
    """Number each match's stage: one after the latest match it waits for; seeds are stage 0."""
    stage: dict[str, int] = {}
    staged = []
    for match in matches:
        waits = [stage[str(s.value)] for s in (match.top, match.bottom) if s.kind in ("winner", "loser")]
        stage[match.code] = 1 + max(waits, default=0)
        staged.append(Match(**{**match.__dict__, "stage": stage[match.code]}))
    return staged


def _winners_bracket(builder: _Builder, size: int, prefix: str = "W", named: str = "") -> list[list[Source]]:
    """Adds the winners' bracket; returns, per round, the sources of that round's losers in order.

    ``named`` goes before each stage's name ("Winners' semifinal 1" in double elimination).
    """
    rounds = size.bit_length() - 1
    slots = [builder.seed(seed) for seed in seed_order(size)]
    losers_by_round = []
    for round_number in range(1, rounds + 1):
        next_slots, losers = [], []
        for position in range(len(slots) // 2):
            code = f"{prefix}{round_number}-{position + 1}"
            name = _round_name(round_number, rounds)
            if named:
                name = f"{named}{name[0].lower()}{name[1:]}"
            if len(slots) == 2:
                label = name
            elif name.endswith("inal"):
                label = f"{name} {position + 1}"
            else:
                label = f"{name}, match {position + 1}"
            winner = builder.add(
                Match(code, WINNERS, round_number, position + 1, slots[2 * position], slots[2 * position + 1], label)
            )
            next_slots.append(winner)
            losers.append(Source("loser", code))
        slots = next_slots
        losers_by_round.append(losers)
    return losers_by_round


def single_elimination(teams: int, *, third_place: bool = False) -> Bracket:
    if teams < 2:
        raise ValueError("A playoff needs at least two teams.")
    size = 1 << (teams - 1).bit_length()
    builder = _Builder(teams)
    losers = _winners_bracket(builder, size)
    final = builder.matches[-1]
    builder.matches[-1] = Match(**{**final.__dict__, "bracket": FINAL})
    if third_place and size >= 4:
        semis = losers[-2]
        builder.add(Match("3P", THIRD, len(losers), 2, semis[0], semis[1], "Third-place match"))
    matches = tuple(builder.collapse())
    return Bracket(teams, size, False, any(m.bracket == THIRD for m in matches), matches)


def double_elimination(teams: int) -> Bracket:
    """Winners' and losers' brackets; the grand final is played again if the losers' bracket team wins."""
    if teams < 2:
        raise ValueError("A playoff needs at least two teams.")
    size = 1 << (teams - 1).bit_length()
    rounds = size.bit_length() - 1
    builder = _Builder(teams)
    losers = _winners_bracket(builder, size, named="Winners' ")
    winners_champion = Source("winner", builder.matches[-1].code)

    lb_round = 0

    def lb_match(top: Source, bottom: Source, position: int) -> Source:
        code = f"L{lb_round}-{position}"
        return builder.add(
            Match(code, LOSERS, lb_round, position, top, bottom, f"Losers' round {lb_round}, match {position}")
        )

    if rounds == 1:
        survivor = losers[0][0]
    else:
        lb_round = 1
        first = losers[0]
        survivors = [lb_match(first[2 * i], first[2 * i + 1], i + 1) for i in range(len(first) // 2)]
        for wb_round in range(2, rounds + 1):
            dropping = losers[wb_round - 1]
            if wb_round % 2 == 0:
                dropping = list(reversed(dropping))
            lb_round += 1
            survivors = [lb_match(survivors[i], dropping[i], i + 1) for i in range(len(survivors))]
            if len(survivors) > 1:
                lb_round += 1
                survivors = [
                    lb_match(survivors[2 * i], survivors[2 * i + 1], i + 1) for i in range(len(survivors) // 2)
                ]
        survivor = survivors[0]
        last = builder.matches[-1]
        builder.matches[-1] = Match(**{**last.__dict__, "label": "Losers' final"})
    builder.add(Match("GF", FINAL, 1, 1, winners_champion, survivor, "Grand final"))
    builder.add(
        Match("GF2", FINAL, 2, 1, Source("winner", "GF"), Source("loser", "GF"), "Grand final, reset", conditional=True)
    )
    return Bracket(teams, size, True, False, tuple(builder.collapse()))


def build(teams: int, *, double: bool = False, third_place: bool = False) -> Bracket:
    return double_elimination(teams) if double else single_elimination(teams, third_place=third_place)


@dataclass(frozen=True)
class Decided(Generic[K]):
    """A decided match as the final placings see it: its two teams (any keys) and the winner.

    ``round`` is the match's round in its bracket (a semifinal is a semifinal), which places a team beaten
    in it; ``stage`` is the sitting it was played in (two seeds with byes meet in the first sitting), which
    only orders a team's matches.
    """

    code: str
    bracket: str
    round: int
    stage: int
    label: str
    top: K
    bottom: K
    winner: K


@dataclass(frozen=True)
class FinalPlace(Generic[K]):
    team: K
    place: Place
    last: Decided[K]

    @property
    def won_last(self) -> bool:
        return self.team == self.last.winner


def final_places(decided: list[Decided[K]], seeds: Mapping[K, int]) -> list[FinalPlace[K]]:
    """Every playoff team's final place, best first, from the decided matches of a finished bracket.

    The final's winner is first and its loser second (in double elimination the last grand final played);
    a third-place match's winner third and its loser fourth. Every other team is placed by the bracket
    round it went out in, whatever sitting that match was played in: the later the round, the better, and
    teams beaten in the same round share a place (two beaten semifinalists without a third-place match
    share third, the beaten quarterfinalists fifth; in double elimination, the teams beaten in one losers'
    round). Teams sharing a place are listed in seed order (``seeds`` maps each team to its seed).
    """
    last: dict[K, Decided[K]] = {}
    for match in sorted(decided, key=lambda m: (m.stage, m.code)):
        for team in (match.top, match.bottom):
            last[team] = match

    def standing(team: K) -> tuple[int, int]:
        match = last[team]
        won = team == match.winner
        if match.bracket == FINAL:
            return (3, 1000 if won else match.round)
        if match.bracket == THIRD:
            return (2, 1 if won else 0)
        return (1, match.round)

    ordered = sorted(last, key=lambda team: (tuple(-part for part in standing(team)), seeds.get(team, 0)))
    groups = [list(tied) for _, tied in groupby(ordered, key=standing)]
    return [FinalPlace(team, place, last[team]) for place, team in places(groups)]
