"""Money (the rules, Money): the prize pool, the payouts by final placing, and the side pot.

Amounts are ``Decimal`` with cents, never floats. Shares are worked out in whole cents with exact
fractions, each rounded down; the cents left over go one at a time from the best place down, so what is
paid adds up to what there is to pay, to the cent.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from itertools import groupby, pairwise
from re import fullmatch
from typing import Generic, TypeVar

from scoring.errors import ScoringError
from scoring.places import Place
from scoring.terms import Term

# What the caller keys by (a team, a person, ("person", id)...): handed back as given.
K = TypeVar("K", bound=Hashable)

CENT = Decimal("0.01")
DEFAULT_PAYOUT_PERCENTS = (Decimal(50), Decimal(30), Decimal(20))
MAX_FEE = Decimal("10000.00")
MAX_PAID_PLACES = 32


class SidePotRule(Term):
    PLACING = "placing", "By final placing, with the payout percentages"
    BOSTONS = "bostons", "In proportion to the Bostons each team made"


def _typed_decimal(value: object) -> Decimal | None:
    """A number as typed: ASCII digits with an optional decimal point (and a minus, to be refused by name), else
    None. ``Decimal`` alone would read "٥٠", "５０", "1_000" and "1E+3"; no other number in the app takes them."""
    text = str(value).strip()
    return Decimal(text) if fullmatch(r"-?(?=\.?[0-9])[0-9]{0,12}(\.[0-9]{0,12})?", text) else None


# An amount as people write money: a dollar sign may come first, and the thousands may be grouped by commas or by
# spaces, one kind throughout ("$100", "1,000", "$ 2 500.50"); "1,00" is no amount.
_MONEY = r"(-?)\s*\$?\s*(-?)([0-9]{1,3}(?:,[0-9]{3})+|[0-9]{1,3}(?: [0-9]{3})+|[0-9]*)((?:\.[0-9]*)?)"


def _typed_amount(value: object) -> Decimal | None:
    """An amount as typed (``_MONEY``) read as ``_typed_decimal`` reads a number, else None; a minus before or
    after the sign ("-$5") is kept, to be refused by name."""
    found = fullmatch(_MONEY, str(value).strip())
    if found is None:
        return None
    before, after, whole, decimals = found.groups()
    return _typed_decimal(before + after + whole.replace(",", "").replace(" ", "") + decimals)


def amount_check(value: object, *, field: str, maximum: Decimal = MAX_FEE) -> Decimal:
    """An amount of money as typed (``_typed_amount``): not negative, whole cents, and not absurdly large."""
    amount = _typed_amount(value)
    if amount is None:
        raise ScoringError("Enter an amount such as 25 or 25.50.", field=field)
    if amount < 0:
        raise ScoringError("An amount cannot be negative.", field=field)
    if amount > maximum:
        said = f"{amount:f}" if amount < maximum * 1000 else "That"
        raise ScoringError(f"{said} is more than this can be ({maximum:.2f}); check the amount.", field=field)
    if amount != amount.quantize(CENT):
        raise ScoringError("An amount is in dollars and cents: at most two decimals.", field=field)
    return amount.copy_abs().quantize(CENT)


def percent_check(value: object, *, field: str = "house_percent") -> Decimal:
    """A percentage from 0 to 100, at most two decimals."""
    percent = _typed_decimal(value)
    if percent is None:
        raise ScoringError("Enter a percentage such as 10 or 12.5.", field=field)
    if percent < 0 or percent > 100:
        raise ScoringError("A percentage is from 0 to 100.", field=field)
    if percent != percent.quantize(CENT):
        raise ScoringError("A percentage has at most two decimals.", field=field)
    return percent.quantize(CENT)


def payout_percents_parse(text: str) -> tuple[Decimal, ...]:
    """The payout percentages as a director types them ("50, 30, 20"), checked (see ``payout_percents_check``)."""
    parts = [part for part in text.replace(";", ",").replace("%", "").split(",") if part.strip()]
    return payout_percents_check([percent_check(part, field="payout_percents") for part in parts])


def payout_percents_check(percents: Sequence[object]) -> tuple[Decimal, ...]:
    """Percentages by place: each above 0, never rising from one place to the next, adding up to 100."""
    checked = tuple(percent_check(percent, field="payout_percents") for percent in percents)
    if not checked:
        raise ScoringError("Give at least one paid place (100 pays the winner everything).", field="payout_percents")
    if len(checked) > MAX_PAID_PLACES:
        raise ScoringError(f"At most {MAX_PAID_PLACES} paid places.", field="payout_percents")
    if any(percent == 0 for percent in checked):
        raise ScoringError("Every paid place gets more than 0%.", field="payout_percents")
    for place, (better, worse) in enumerate(pairwise(checked), start=2):
        if worse > better:
            raise ScoringError(
                f"Place {place} would get more than place {place - 1} ({_plain(worse)}% after {_plain(better)}%): "
                "the percentages may not rise.",
                field="payout_percents",
            )
    total = sum(checked, Decimal(0))
    if total != 100:
        raise ScoringError(f"The percentages add up to {_plain(total)}%, not 100%.", field="payout_percents")
    return checked


def _plain(percent: Decimal) -> str:
    """A percentage as a person writes it: 50, 12.5."""
    return format(percent.normalize(), "f")


def percents_text(percents: Sequence[Decimal]) -> str:
    """ "50, 30, 20": the stored and displayed form."""
    return ", ".join(_plain(percent) for percent in percents)


class MoneyKind(StrEnum):
    """What a money setting holds, which says how it is typed, checked, stored and archived."""

    AMOUNT = "amount"  # dollars and cents, from 0 to MAX_FEE
    PERCENT = "percent"  # a percentage from 0 to 100, at most two decimals
    PERCENTS = "percents"  # percentages by place, best first ("50, 30, 20"), as payout_percents_check has them
    CHOICE = "choice"  # one of the setting's ``choices``


@dataclass(frozen=True)
class MoneySetting:
    """How one money setting is described to a director, checked and logged: the money's counterpart of the
    rules' ``Setting``, so that the form, the service, the log, the archive and the docs read one declaration.

    ``logged`` is the words before its value in the log's summary. ``public``: stated on the tournament's public
    rules page, whose rendering then changes with it. ``locks``: fixed once a prize is paid, as the payout sheet
    already handed out would no longer add up.
    """

    label: str
    help: str
    kind: MoneyKind
    default: Decimal | str
    logged: str
    choices: type[Term] | None = None
    public: bool = True
    locks: bool = True


MONEY_SETTINGS: dict[str, MoneySetting] = {
    "entry_fee": MoneySetting(
        "Entry fee per team", "0 when there is none.", MoneyKind.AMOUNT, Decimal(0), logged="entry fee"
    ),
    "side_pot_fee": MoneySetting(
        "Side-pot fee per team", "0: no side pot.", MoneyKind.AMOUNT, Decimal(0), logged="side pot"
    ),
    "house_percent": MoneySetting(
        "House's share of the entry fees (%)",
        "0 when the house takes none.",
        MoneyKind.PERCENT,
        Decimal(0),
        logged="house",
    ),
    "payout_percents": MoneySetting(
        "Payout percentages by place",
        "Best place first, for example “50, 30, 20”: they add up to 100 and never rise.",
        MoneyKind.PERCENTS,
        percents_text(DEFAULT_PAYOUT_PERCENTS),
        logged="payouts",
    ),
    "side_pot_rule": MoneySetting(
        "The side pot is paid",
        "",
        MoneyKind.CHOICE,
        SidePotRule.PLACING.value,
        logged="side pot by",
        choices=SidePotRule,
    ),
}


def money_setting_check(name: str, value: object) -> Decimal | str:
    """A money setting's value as typed, checked as its kind says and in the form it is stored."""
    setting = MONEY_SETTINGS[name]
    if setting.kind is MoneyKind.AMOUNT:
        return amount_check(value, field=name)
    if setting.kind is MoneyKind.PERCENT:
        return percent_check(value, field=name)
    if setting.kind is MoneyKind.PERCENTS:
        return percents_text(payout_percents_parse(str(value)))
    assert setting.choices is not None, f"the choice setting {name} declares its choices"
    if str(value) not in setting.choices.values():
        raise ScoringError(f"{setting.label}: choose one of the choices.", field=name)
    return str(value)


def money_setting_said(name: str, value: object) -> str:
    """A money setting as the log's summary says it: "house 10.00%"."""
    setting = MONEY_SETTINGS[name]
    return f"{setting.logged} {value}{'%' if setting.kind is MoneyKind.PERCENT else ''}"


def _cents(amount: Decimal) -> int:
    return int((amount / CENT).to_integral_value())


def _money(cents: int) -> Decimal:
    return (Decimal(cents) * CENT).quantize(CENT)


def house_share(fees: Decimal, house_percent: Decimal) -> Decimal:
    """The house's share of the entry fees received, rounded down to the cent, computed once on the total."""
    return _money(int(Fraction(_cents(fees)) * Fraction(house_percent) / 100))


def prize_pool(fees: Decimal, house_percent: Decimal) -> Decimal:
    """The entry fees received less the house's share."""
    return fees - house_share(fees, house_percent)


@dataclass(frozen=True)
class Placed(Generic[K]):
    """A team in the final placings: ``place`` as ranked (1, 2, 3, 3, 5...), ``number`` its team number."""

    key: K
    place: int
    number: int


@dataclass(frozen=True)
class Payout(Generic[K]):
    """What one team is paid; ``place`` among the teams paid from this pot, ``share`` of the pot (exact)."""

    key: K
    place: Place
    number: int
    share: Fraction
    amount: Decimal


def _pay(pot: Decimal, claims: list[tuple[Placed[K], bool, Fraction]]) -> list[Payout[K]]:
    """Pays each claim (a team, whether its place is shared, its exact share of the pot, in the order of
    the payout): rounded down to the cent, then the cents left over one at a time from the first down."""
    pot_cents = _cents(pot)
    floors = [int(pot_cents * share) for _, _, share in claims]
    left = pot_cents - sum(floors)
    paid = [index for index, (_, _, share) in enumerate(claims) if share > 0]
    for index in paid[:left]:
        floors[index] += 1
    return [
        Payout(placed.key, Place(placed.place, shared), placed.number, share, _money(cents))
        for (placed, shared, share), cents in zip(claims, floors, strict=True)
    ]


def _in_order(placed: Sequence[Placed[K]]) -> list[Placed[K]]:
    return sorted(placed, key=lambda team: (team.place, team.number))


def placing_payouts(pot: Decimal, placed: Sequence[Placed[K]], percents: Sequence[Decimal]) -> list[Payout[K]]:
    """The pot paid by place: a place shared by k teams covers k positions, and they share equally the
    sum of those positions' percentages; with fewer teams than paid places the covered percentages are
    scaled up so the whole pot is paid. Every team placed is listed, with 0 where it is not paid."""
    ordered = _in_order(placed)
    if not ordered:
        return []
    covered = sum((Fraction(percent) for percent in percents[: len(ordered)]), Fraction(0))
    claims = []
    position = 0
    for _, group in groupby(ordered, key=lambda team: team.place):
        teams = list(group)
        group_percent = sum((Fraction(percent) for percent in percents[position : position + len(teams)]), Fraction(0))
        position += len(teams)
        for team in teams:
            claims.append((team, len(teams) > 1, group_percent / covered / len(teams)))
    return _pay(pot, claims)


def ranked_among(placed: Sequence[Placed[K]]) -> list[Placed[K]]:
    """Teams placed among themselves in the order of the final placings (2, 5, 5, 9 becomes 1, 2, 2, 4)."""
    ordered = _in_order(placed)
    ranked: list[Placed[K]] = []
    for index, team in enumerate(ordered):
        same = ranked and ordered[index - 1].place == team.place
        ranked.append(Placed(team.key, ranked[-1].place if same else index + 1, team.number))
    return ranked


def boston_payouts(pot: Decimal, placed: Sequence[Placed[K]], bostons: Mapping[K, int]) -> list[Payout[K]]:
    """The side pot in proportion to the Bostons each side-pot team made (``placed`` are the side-pot
    teams as they finished); if none made one, to the best-placed side-pot team(s)."""
    ranked = ranked_among(placed)
    total = sum(bostons.get(team.key, 0) for team in ranked)
    if not ranked:
        return []
    if total == 0:
        best = [team for team in ranked if team.place == ranked[0].place]
        claims = [(team, len(best) > 1, Fraction(1, len(best)) if team in best else Fraction(0)) for team in ranked]
        return _pay(pot, claims)
    tied = {place: len(list(group)) > 1 for place, group in groupby(ranked, key=lambda team: team.place)}
    claims = [(team, tied[team.place], Fraction(bostons.get(team.key, 0), total)) for team in ranked]
    return _pay(pot, claims)


def side_pot_payouts(
    pot: Decimal,
    placed: Sequence[Placed[K]],
    *,
    rule: SidePotRule,
    percents: Sequence[Decimal],
    bostons: Mapping[K, int],
) -> list[Payout[K]]:
    """The side pot (all of it: the house takes no share) among the side-pot teams ``placed``."""
    if SidePotRule(rule) is SidePotRule.BOSTONS:
        return boston_payouts(pot, placed, bostons)
    return placing_payouts(pot, ranked_among(placed), percents)
