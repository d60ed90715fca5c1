"""Round 1 seeded by strength (a director's choice, never the default): the stronger half of the field meets
the weaker half, first against first, so the strongest teams do not meet in the first round."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.pairing import Draw, K


def strength_order(keys: Sequence[K], strength: Mapping[K, float | None]) -> list[K]:
    """Strongest first; teams without a strength after every team with one, in the order given."""
    position = {key: index for index, key in enumerate(keys)}
    return sorted(
        keys,
        key=lambda key: (strength.get(key) is None, -(strength.get(key) or 0), position[key]),
    )


def seeded_draw(ranked: Sequence[K]) -> Draw[K]:
    """Seed ``i`` of the top half against seed ``i`` of the bottom half (1 v 5, 2 v 6, ... for 8 teams);
    an odd field gives the bye to the last team. The stronger team sits North–South."""
    if len(set(ranked)) != len(ranked):
        raise ValueError("Each team enters the draw once.")
    pool = list(ranked)
    bye = pool.pop() if len(pool) % 2 else None
    half = len(pool) // 2
    return Draw(tables=tuple((pool[i], pool[i + half]) for i in range(half)), bye=bye)
