"""Drawing teams into tables: plain Python, so the draw can be tested and replayed from its seed."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entrant:
    """A team as the draw sees it: an identifier and the city or club it should not meet early."""

    key: Hashable
    city: str = ""


@dataclass(frozen=True)
class Draw:
    """Tables in order, each a pair of keys (the first sits North–South), and the bye if any."""

    tables: tuple[tuple[Hashable, Hashable], ...]
    bye: Hashable | None = None


def _same_city(a: Entrant, b: Entrant) -> bool:
    return bool(a.city) and a.city.strip().casefold() == b.city.strip().casefold()


def _separate_cities(pairs: list[list[Entrant]]) -> None:
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


def random_draw(entrants: Sequence[Entrant], seed: int, *, avoid_same_city: bool = True) -> Draw:
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
