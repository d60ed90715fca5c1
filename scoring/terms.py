"""The vocabulary every layer shares: each value with the words a player or director reads for it."""

from __future__ import annotations

from enum import StrEnum
from typing import Self, overload


class Term(StrEnum):
    """A stored value (``"N"``, ``"nt"``...) and its label; forms and model fields take ``choices()``."""

    label: str

    @overload
    def __new__(cls, value: str) -> Self: ...  # the member of that value, as any enum looks one up

    @overload
    def __new__(cls, value: str, label: str) -> Self: ...  # a member declared as (value, label)

    def __new__(cls, value: str, label: str = "") -> Self:
        member = str.__new__(cls, value)
        member._value_ = value
        member.label = label
        return member

    @classmethod
    def choices(cls) -> list[tuple[str, str]]:
        return [(member.value, member.label) for member in cls]

    @classmethod
    def values(cls) -> list[str]:
        return [member.value for member in cls]
