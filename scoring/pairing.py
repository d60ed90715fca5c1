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


def _same_city(a: Entrant[K], b: Entrant[K]) -> bool:
    return bool(a.city) and a.city.strip().casefold() == b.city.strip().casefold()


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


def _meet_key(a: K, b: K) -> frozenset[K]:
    return frozenset((a, b))


def _matching(
    ranked: list[Entrant[K]], met: Set[frozenset[K]], avoid_same_city: bool, *, reach: int, rematches: bool
) -> set[tuple[int, int]]:
    """A maximum-cardinality, maximum-weight matching: neighbours in the ranking score most.

    Edmonds' blossom algorithm, compiled (rustworkx): a 2,048-team field pairs in well under a second.
    """
    import rustworkx

    n = len(ranked)
    rematch_cost = 4 * n**3 + 1
    city_cost = 2 * n**2 + 1
    base = rematch_cost + city_cost + n**2 + 1
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(n))
    edges = []
    for i in range(n):
        for j in range(i + 1, min(n, i + 1 + reach)):
            weight = base - (j - i) ** 2
            if _meet_key(ranked[i].key, ranked[j].key) in met:
                if not rematches:
                    continue
                weight -= rematch_cost
            if avoid_same_city and _same_city(ranked[i], ranked[j]):
                weight -= city_cost
            edges.append((i, j, weight))
    graph.add_edges_from(edges)
    return rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)


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
    n = len(pool)
    matching = set()
    for reach, rematches in ((min(n, 24), False), (n, False), (n, True)):
        matching = _matching(pool, met, avoid_same_city, reach=reach, rematches=rematches)
        if 2 * len(matching) == n:
            break
    tables = sorted((min(i, j), max(i, j)) for i, j in matching)
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
        return sum(_meet_key(sitters[(i + step) % size], mover) in met for i, mover in enumerate(movers))

    best = min(range(1, size + 1), key=lambda step: (rematches(step), step))
    seats = {(i + best) % size: mover for i, mover in enumerate(movers)}
    return Draw(tables=tuple(zip(sitters, (seats[i] for i in range(size)), strict=True)), bye=bye)
