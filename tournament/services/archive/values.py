"""The values an event archive holds, typed for its schema (``schema.py``): text as a person types it, numbers
within the rules' bounds, a model's choices, times, money and places."""

import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    GetPydanticSchema,
    PlainSerializer,
    Strict,
    StringConstraints,
)
from pydantic_core import PydanticCustomError

from scoring import Pair, Seat
from scoring.places import Place
from tournament.typed import characters_problem


def _typed(needed: bool) -> AfterValidator:
    """Refuse text the app refuses when it is typed (``tournament.typed``): control characters, and invisible
    ones that reverse or hide what is shown; ``needed``: blank text too."""

    def check(value: str) -> str:
        problem = characters_problem(value, "The text")
        if problem:
            raise PydanticCustomError("typed_text", problem)
        if needed and not value.strip():
            raise PydanticCustomError("blank_text", "The text is blank: it is needed here.")
        return value

    return AfterValidator(check)


def text(longest: int | None, *, needed: bool = False) -> Any:
    """Text as a person types it, of at most ``longest`` characters (the database's own limit; None: a text
    field without one); ``needed``: not blank."""
    return Annotated[str, StringConstraints(max_length=longest, min_length=1 if needed else 0), _typed(needed)]


def number(low: int, high: int) -> Any:
    return Annotated[int, Field(ge=low, le=high)]


def one_of(*values: str) -> Any:
    return Literal[values]


Time = Annotated[
    datetime.datetime, Strict(False), PlainSerializer(datetime.datetime.isoformat, return_type=str, when_used="json")
]
Day = Annotated[datetime.date, Strict(False)]
Slug = Annotated[str, StringConstraints(pattern=r"^[-a-zA-Z0-9_]+$", max_length=80)]
SeatName = one_of(*Seat.values())
SeatOrNone = one_of("", *Seat.values())
PairName = one_of(*Pair.values())
PairOrNone = one_of("", *Pair.values())
PlayerId = number(1, 1_000_000)
TeamNumber = number(1, 9999)


def cents_text(value: object) -> object:
    """A record's ``Decimal`` amount written as the archive keeps it: a string with cents ("25.00")."""
    return f"{value:.2f}" if isinstance(value, Decimal) else value


Money = Annotated[str, BeforeValidator(cents_text), StringConstraints(pattern=r"^[0-9]{1,8}\.[0-9]{2}$")]


def _place_read(text: str) -> Place:
    """A payout's place as the archive writes it ("1", "T-3"): the one place that text is read back, since a file
    keeps the place as the sheet showed it."""
    return Place(int(text.removeprefix("T-")), shared=text.startswith("T-"))


# A payout's place, exported from the record's ``Place`` and written as its text; read, a ``Place`` again.
PlaceText = Annotated[
    Place,
    GetPydanticSchema(
        lambda _, handler: handler(
            Annotated[
                str,
                StringConstraints(pattern=r"^(T-)?[0-9]{1,5}$"),
                BeforeValidator(lambda value: str(value) if isinstance(value, Place) else value),
                AfterValidator(_place_read),
            ]
        )
    ),
    PlainSerializer(str, return_type=str),
]
TeamOf = Annotated[TeamNumber, BeforeValidator(lambda value: getattr(value, "number", value))]


def declared(field: models.Field) -> Any:
    """A model field's value as the model declares it: one of its choices, or a number within its validators'
    bounds; blank or null where the model allows it."""
    if field.choices:
        return one_of(*([""] if field.blank else []), *(value for value, _ in field.choices))
    low = max(check.limit_value for check in field.validators if isinstance(check, MinValueValidator))
    high = min(check.limit_value for check in field.validators if isinstance(check, MaxValueValidator))
    return number(low, high) | None if field.null else number(low, high)
