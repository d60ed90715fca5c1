"""A place in a ranking (the standings, the final placings, a series, the prizes): its number, and whether other
teams (or persons) share it. ``str`` writes it as the pages, files and the API show it: "3", or "T-3" when shared.
That is the one place the text is made, and nothing reads it back: code keeps the value."""

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, order=True)
class Place:
    number: int
    shared: bool = False

    def __str__(self) -> str:
        return f"T-{self.number}" if self.shared else str(self.number)


def places(groups: Iterable[Sequence[T]], first: int = 1) -> Iterator[tuple[Place, T]]:
    """Each item of ``groups`` (runs of equals, best first) with its place, counting from ``first``: a run of k
    shares the first of the k places it covers, and the next run's place skips them (1, T-2, T-2, 4)."""
    number = first
    for group in groups:
        place = Place(number, len(group) > 1)
        for item in group:
            yield place, item
        number += len(group)
