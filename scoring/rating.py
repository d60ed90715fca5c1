"""A person's rating: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), one rating period
per signed round.

Bid Whist is played by teams of two: each person is rated against a composite opponent, the two opponents'
ratings averaged (their deviations as a root mean square), with the round's result for the person's team:
won 1, tied ½, lost 0. Every person of a round is updated from the ratings before that round, so the order
of the tables does not matter, and the same rounds in the same order always give the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from scoring.errors import ScoringError

# What the caller keys by (a team, a person, ("person", id)...): handed back as given.
K = TypeVar("K", bound=Hashable)

SCALE = 173.7178
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
EPSILON = 1e-6


@dataclass(frozen=True)
class Rating:
    """A rating on the familiar 1500 scale, its deviation (the uncertainty: the true strength lies within
    twice the deviation either side, 95 times in 100) and its volatility."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY
    rounds: int = 0

    @property
    def low(self) -> float:
        return self.rating - 2 * self.deviation

    @property
    def high(self) -> float:
        return self.rating + 2 * self.deviation


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """The new volatility: the root of the paper's f(x) by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period with these (opponent, score) results; score 1, ½ or 0.

    A period without results only widens the deviation (step 6 of the paper)."""
    for _, score in results:
        if score not in (0, 0.5, 1):
            raise ScoringError(f"A result is won (1), tied (½) or lost (0), not {score!r}.")
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        widened = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(widened * SCALE, START_DEVIATION), sigma, player.rounds)
    lines = []
    for opponent, score in results:
        mu_j = (opponent.rating - START_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        lines.append((_g(phi_j), _expected(mu, mu_j, phi_j), score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in lines)
    improvement = sum(g * (score - e) for g, e, score in lines)
    delta = v * improvement
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating(new_mu * SCALE + START_RATING, new_phi * SCALE, new_sigma, player.rounds + len(results))


def composite(ratings: Sequence[Rating]) -> Rating:
    """A team's pair of players as one opponent: the mean rating and the root mean square deviation."""
    if not ratings:
        raise ScoringError("A team has at least one player.")
    count = len(ratings)
    return Rating(
        sum(r.rating for r in ratings) / count,
        math.sqrt(sum(r.deviation**2 for r in ratings) / count),
        sum(r.volatility for r in ratings) / count,
    )


@dataclass(frozen=True)
class RatedMeeting(Generic[K]):
    """Two teams' players at a signed table and the first team's result: 1 won, ½ tied, 0 lost."""

    first: tuple[K, ...]
    second: tuple[K, ...]
    first_score: float


def rate_round(ratings: Mapping[K, Rating], meetings: Sequence[RatedMeeting[K]]) -> dict[K, Rating]:
    """Everyone who played a round, rated after it from the ratings before it (newcomers start at 1500 ± 350).

    Returns only the players of the round; everyone else keeps their rating."""
    before = dict(ratings)
    results: dict[K, list[tuple[Rating, float]]] = {}
    for meeting in meetings:
        if set(meeting.first) & set(meeting.second):
            raise ScoringError("A player cannot sit on both sides of a table.")
        sides = (
            (meeting.first, meeting.second, meeting.first_score),
            (meeting.second, meeting.first, 1 - meeting.first_score),
        )
        for own, other, score in sides:
            opponent = composite([before.get(key, Rating()) for key in other])
            for key in own:
                results.setdefault(key, []).append((opponent, score))
    return {key: rate(before.get(key, Rating()), lines) for key, lines in results.items()}


def rate_history(rounds: Sequence[Sequence[RatedMeeting[K]]]) -> dict[K, Rating]:
    """Ratings from scratch over rounds in the order played: the same rounds always give the same numbers."""
    ratings: dict[K, Rating] = {}
    for meetings in rounds:
        ratings.update(rate_round(ratings, meetings))
    return ratings
