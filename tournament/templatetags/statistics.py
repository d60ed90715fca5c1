"""The statistics' columns, declared once (``{% load statistics %}``): ``{% statistics_headers %}`` heads a table of
them and ``{{ stats|statistics_cells }}`` fills a row with a person's figures; ``{% statistics_team_row row href %}``
a team's row on the tournament's statistics page, its team linked (``href``: the team pages' address without the
number). A row is made in one call: the page lists every team."""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django import template
from django.utils.safestring import SafeString

from scoring.statistics import Statistics
from tournament.selectors.statistics import TeamStatistics
from tournament.templatetags.typed import shown

register = template.Library()


@dataclass(frozen=True)
class Column:
    header: str
    figure: Callable[[Statistics], object]


COLUMNS = (
    Column("Hands", lambda stats: stats.hands),
    Column("Bids made", lambda stats: stats.bids_made),
    Column("Bids set", lambda stats: stats.bids_set),
    Column("No-trump made", lambda stats: stats.no_trump_made),
    Column("Bostons", lambda stats: stats.bostons),
    Column("Points per hand", lambda stats: _hundredths(stats.points_per_hand)),
    Column("Reneges against", lambda stats: stats.reneges),
)


def _hundredths(value: Fraction | None) -> str:
    """A fraction to two places, a half rounded up ("12.35"); nothing before the first hand."""
    if value is None:
        return ""
    return str((Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), ROUND_HALF_UP))


@register.simple_tag
def statistics_headers() -> SafeString:
    return SafeString("".join(f'<th class="num">{column.header}</th>' for column in COLUMNS))


@register.filter
def statistics_cells(stats: Statistics) -> SafeString:
    """The figures are numbers the engine counted: nothing in them to escape."""
    return SafeString("".join(f'<td class="num">{column.figure(stats)}</td>' for column in COLUMNS))


@register.simple_tag
def statistics_team_row(row: TeamStatistics, href: str) -> SafeString:
    number = row.team.number
    team = f'<td><a href="{href}{number}/">#{number} {shown(row.team.display_name)}</a></td>'
    return SafeString(team + statistics_cells(row.stats))
