"""Drawing teams into tables: plain Python, so the draw can be tested and replayed from its seed."""

from __future__ import annotations

import random
from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import Generic, TypeVar

# What the caller knows a team by (its id, its number; tests name teams by letters): sorted, and handed back.
K = TypeVar("K", int, str)


@dataclass(frozen=True)
class Entrant(Generic[K]):
    """A team as the draw sees it: an identifier and the city or club it should not meet early."""

    key: K
    city: str = ""


@dataclass(frozen=True)
class Draw(Generic[K]):
    """Tables in order, each a pair of keys (the first sits North–South), and the bye if any."""

    tables: tuple[tuple[K, K], ...]
    bye: K | None = None


def _city(entrant: Entrant[K]) -> str:
    return entrant.city.strip().casefold()


def _same_city(a: Entrant[K], b: Entrant[K]) -> bool:
    return bool(a.city) and _city(a) == _city(b)


def _separate_cities(pairs: list[list[Entrant[K]]]) -> None:
    """Swap partners between tables so fewer tables pit a city against itself; never more."""
    for i, pair in enumerate(pairs):
        if not _same_city(*pair):
            continue
        for j, other in enumerate(pairs):
            if j == i:
                continue
            a, b = pair
            c, d = other
            if not _same_city(a, d) and not _same_city(c, b):
                pair[1], other[1] = d, b
                break


def random_draw(entrants: Sequence[Entrant[K]], seed: int, *, avoid_same_city: bool = True) -> Draw[K]:
    """Shuffle with a seeded generator and pair neighbours; the same seed gives the same draw.

    An odd field gives the last team in the shuffled order the bye. Teams of one city are kept
    apart where a swap of partners allows it.
    """
    keys = [entrant.key for entrant in entrants]
    if len(set(keys)) != len(keys):
        raise ValueError("Each team enters the draw once.")
    order = sorted(entrants, key=lambda entrant: entrant.key)
    random.Random(seed).shuffle(order)
    bye = order.pop().key if len(order) % 2 else None
    pairs = [[order[i], order[i + 1]] for i in range(0, len(order), 2)]
    if avoid_same_city:
        _separate_cities(pairs)
    return Draw(tables=tuple((a.key, b.key) for a, b in pairs), bye=bye)


def _bye_choice(ranked: Sequence[Entrant[K]], had_bye: Set[K]) -> Entrant[K]:
    """The lowest-ranked team that has not had a bye (the lowest of all if every team has)."""
    for entrant in reversed(ranked):
        if entrant.key not in had_bye:
            return entrant
    return ranked[-1]


def _opponents(met: Set[frozenset[K]]) -> dict[K, set[K]]:
    """Whom each team has met, looked up by team: read once for a draw's many candidate tables."""
    opponents: dict[K, set[K]] = {}
    for pair in met:
        for key in pair:
            opponents.setdefault(key, set()).update(pair - {key})
    return opponents


def _matching(
    ranked: Sequence[Entrant[K]], met: dict[K, set[K]], avoid_same_city: bool, *, reach: int, rematches: bool
) -> set[tuple[int, int]]:
    """A maximum-cardinality, maximum-weight matching: neighbours in the ranking score most.

    Edmonds' blossom algorithm, compiled (rustworkx).
    """
    import rustworkx

    n = len(ranked)
    rematch_cost = 4 * n**3 + 1
    city_cost = 2 * n**2 + 1
    base = rematch_cost + city_cost + n**2 + 1
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(n))
    cities = [_city(entrant) if avoid_same_city else "" for entrant in ranked]
    edges = []
    for i in range(n):
        opponents = met.get(ranked[i].key, set())
        for j in range(i + 1, min(n, i + 1 + reach)):
            weight = base - (j - i) ** 2
            if ranked[j].key in opponents:
                if not rematches:
                    continue
                weight -= rematch_cost
            if cities[i] and cities[i] == cities[j]:
                weight -= city_cost
            edges.append((i, j, weight))
    graph.add_edges_from(edges)
    return rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)


# Teams ranked together in one matching. The blossom algorithm's work grows with the cube of the field: a larger
# field is paired block by block of this many neighbours in the standings (4,096 teams in well under a second),
# which only forgoes tables across a block's edge, between teams 256 places apart in the ranking at the most.
SWISS_BLOCK = 256


def _rematch_free(ranked: Sequence[Entrant[K]], met: dict[K, set[K]], avoid_same_city: bool) -> list[tuple[int, int]]:
    """Every team of ``ranked`` paired without a rematch, as index pairs; empty when no such pairing exists."""
    n = len(ranked)
    for reach in (min(n, 24), n):
        matching = _matching(ranked, met, avoid_same_city, reach=reach, rematches=False)
        if 2 * len(matching) == n:
            return sorted(matching)
    return []


def _swiss_pairs(pool: Sequence[Entrant[K]], met: dict[K, set[K]], avoid_same_city: bool) -> list[tuple[int, int]]:
    """The tables of an even pool as index pairs: block by block of ``SWISS_BLOCK`` (the last block takes a short
    remainder in) while every block pairs without a rematch, else the whole field at once, with the fewest
    rematches as the last resort."""
    n: int = len(pool)
    if n > SWISS_BLOCK:
        ends = [*range(SWISS_BLOCK, n - SWISS_BLOCK // 2, SWISS_BLOCK), n]
        pairs: list[tuple[int, int]] = []
        start = 0
        for end in ends:
            block = _rematch_free(pool[start:end], met, avoid_same_city)
            if not block:
                break
            pairs.extend((start + i, start + j) for i, j in block)
            start = end
        else:
            return pairs
    return _rematch_free(pool, met, avoid_same_city) or sorted(
        _matching(pool, met, avoid_same_city, reach=n, rematches=True)
    )


def swiss_draw(
    ranked: Sequence[Entrant[K]],
    met: Set[frozenset[K]],
    had_bye: Set[K] = frozenset(),
    *,
    avoid_same_city: bool = False,
) -> Draw[K]:
    """Pair teams with similar records: a perfect matching that keeps teams near each other in the
    standings, with no rematch while a rematch-free draw exists and teams of one city apart when asked.

    ``ranked`` is the standings order, best first; ``met`` holds frozensets of keys that have met.
    An odd field gives the bye to the lowest-ranked team without one. The higher-ranked team of each
    table is listed first (North–South); tables are in standings order.
    """
    pool = list(ranked)
    if len({entrant.key for entrant in pool}) != len(pool):
        raise ValueError("Each team enters the draw once.")
    bye = None
    if len(pool) % 2:
        bye_entrant = _bye_choice(pool, set(had_bye))
        pool.remove(bye_entrant)
        bye = bye_entrant.key
    tables = sorted((min(i, j), max(i, j)) for i, j in _swiss_pairs(pool, _opponents(met), avoid_same_city))
    return Draw(tables=tuple((pool[i].key, pool[j].key) for i, j in tables), bye=bye)


def movement_draw(
    previous: Sequence[tuple[K, K]],
    ranked: Sequence[Entrant[K]],
    met: Set[frozenset[K]],
    had_bye: Set[K] = frozenset(),
) -> Draw[K]:
    """Sitting/moving movement: sitting teams keep their table, moving teams advance one table.

    ``previous`` lists last round's tables in order as (sitting team, moving team); ``ranked`` is
    every team to draw now, best first. A moving team skips on past a table whose sitting team it
    already met when a larger step avoids every rematch. Teams new to the movement (last round's bye,
    a late arrival) join the movers; a withdrawn team's place is filled from the other side.
    """
    pool = list(ranked)
    bye = None
    if len(pool) % 2:
        bye_entrant = _bye_choice(pool, set(had_bye))
        pool.remove(bye_entrant)
        bye = bye_entrant.key
    playing = {entrant.key for entrant in pool}
    sitters = [sitting for sitting, _ in previous if sitting in playing]
    movers = [moving for _, moving in previous if moving in playing]
    placed = set(sitters) | set(movers)
    movers += [entrant.key for entrant in pool if entrant.key not in placed]
    size = len(pool) // 2
    while len(sitters) > size:
        movers.append(sitters.pop())
    while len(sitters) < size:
        sitters.append(movers.pop())
    if size == 0:
        return Draw(tables=(), bye=bye)

    def rematches(step: int) -> int:
        return sum(frozenset((sitters[(i + step) % size], mover)) in met for i, mover in enumerate(movers))

    best = min(range(1, size + 1), key=lambda step: (rematches(step), step))
    seats = {(i + best) % size: mover for i, mover in enumerate(movers)}
    return Draw(tables=tuple(zip(sitters, (seats[i] for i in range(size)), strict=True)), bye=bye)
