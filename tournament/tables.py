"""Listings (django-tables2 tables): sortable on the page and exportable as CSV and XLSX.

They are called listings so they are never confused with the card tables of a round.
"""

from dataclasses import dataclass
from functools import cached_property
from html import escape
from operator import attrgetter

import django_tables2 as tables
import tablib
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeData, SafeString
from django_tables2.export import TableExport
from django_tables2.utils import AttributeDict

from tournament.addresses import Addresses
from tournament.models import Hand, Team
from tournament.models.money import PRIZE_FROM
from tournament.selectors.exports import ForfeitRow
from tournament.selectors.standings import StandingRow

# A spreadsheet reads a cell beginning with one of these as a formula (or the start of one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value):
    """A text cell a spreadsheet shows as text: one that would start a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeExport(TableExport):
    """CSV and XLSX only, with every text cell spreadsheet-safe (a team named "=HYPERLINK(…)" stays text)."""

    FORMATS = {name: TableExport.FORMATS[name] for name in (TableExport.CSV, TableExport.XLSX)}

    def __init__(self, export_format, table, *, title: str, exclude_columns=None):
        """``title`` names the spreadsheet's sheet (at most 31 characters)."""
        super().__init__(export_format, table, exclude_columns=exclude_columns, dataset_kwargs={"title": title[:31]})

    @classmethod
    def is_valid_format(cls, export_format):
        return export_format in cls.FORMATS

    def table_to_dataset(self, table, exclude_columns, dataset_kwargs=None):
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        rows = [tuple(spreadsheet_safe(value) for value in row) for row in dataset]
        del dataset[:]
        for row in rows:
            dataset.append(row)
        return dataset


NUMERIC = {"td": {"class": "num"}, "th": {"class": "num"}}
NUMERIC_WIDE = {"td": {"class": "num wide-only"}, "th": {"class": "num wide-only"}}
WIDE = {"td": {"class": "wide-only"}, "th": {"class": "wide-only"}}


# A yes/no cell, as django-tables2's BooleanColumn draws it.
_YES, _NO = '<td><span class="true">✔</span></td>', '<td><span class="false">✘</span></td>'


class TeamListing(tables.Table):
    number = tables.Column(verbose_name="#", attrs={"td": {"class": "num"}, "th": {"class": "num"}})
    team = tables.Column(accessor="display_name", verbose_name="Team", order_by=("name", "number"))
    players = tables.Column(accessor="player_names", verbose_name="Players", orderable=False)
    city = tables.Column(verbose_name="City")
    fee_paid = tables.BooleanColumn(verbose_name="Fee paid")
    side_pot = tables.BooleanColumn(verbose_name="Side pot")
    checked_in = tables.BooleanColumn(verbose_name="Checked in")
    withdrawn = tables.BooleanColumn(verbose_name="Withdrawn")
    actions = tables.Column(empty_values=(), orderable=False, verbose_name="", exclude_from_export=True)

    class Meta:
        model = Team
        fields = ("number", "team", "players", "city", "fee_paid", "side_pot", "checked_in", "withdrawn")
        sequence = ("number", "team", "players", "city", "fee_paid", "side_pot", "checked_in", "withdrawn")
        row_attrs = {"class": lambda record: "withdrawn" if record.withdrawn else ""}
        attrs = {"class": "data-table"}
        # Its head (sorting links) as django-tables2 draws it, its rows from ``rows_html``.
        template_name = "director/_team_listing.html"

    def __init__(self, data, *, tournament, **kwargs):
        super().__init__(data, **kwargs)
        self.tournament = tournament

    def rows_html(self) -> SafeString:
        """Every team's row in the order asked for, as django-tables2 draws them, made in one pass: its cell by
        cell drawing was most of the page at 512 teams."""
        edit = Addresses("director:team_edit", self.tournament.slug)
        flags = ("fee_paid", "side_pot", "checked_in", "withdrawn")
        rows = []
        for index, team in enumerate(self.data):
            even = "odd" if index % 2 else "even"
            cells = "".join(_YES if getattr(team, flag) else _NO for flag in flags)
            rows.append(
                format_html(
                    '<tr class="{}"><td class="num">{}</td><td>{}</td><td>{}</td><td>{}</td>{}<td><a href="{}">Edit</a>'
                    "</td></tr>",
                    f"withdrawn {even}" if team.withdrawn else even,
                    team.number,
                    team.display_name,
                    team.player_names,
                    team.city,
                    SafeString(cells),
                    edit.of(team.number),
                )
            )
        return SafeString("".join(rows))

    def value_fee_paid(self, value):
        return "yes" if value else "no"

    def value_side_pot(self, value):
        return "yes" if value else "no"

    def value_checked_in(self, value):
        return "yes" if value else "no"

    def value_withdrawn(self, value):
        return "yes" if value else "no"


def players_column() -> tables.Column:
    """A ranked team's players, on wide screens only."""
    return tables.Column(
        accessor="team__player_names",
        verbose_name="Players",
        orderable=False,
        attrs={"td": {"class": "wide-only players"}, "th": {"class": "wide-only players"}},
    )


class PlaceColumn(tables.Column):
    """A place, shown and exported as its text ("T-3"), sorted by its number."""

    def value(self, value):
        return str(value)


def team_pages_href(tournament) -> SafeString:
    """The tournament's team pages' address without the number, escaped for an ``href``: one ``reverse`` for a
    page listing every team, where one per row cost more than the rest of the row."""
    return SafeString(escape(reverse("public:team", args=[tournament.slug, 1]).removesuffix("1/")))


class TeamsRanked(tables.Table):
    """A tournament's teams in order, each linked to its team page unless ``link_teams`` is false."""

    def __init__(self, data, *, tournament, link_teams=True, **kwargs):
        super().__init__(data, **kwargs)
        self.tournament = tournament
        self.link_teams = link_teams

    @cached_property
    def team_href(self) -> SafeString:
        return team_pages_href(self.tournament)

    @classmethod
    def orders(cls) -> set[str]:
        """The values of ?sort= the page understands (a column's name, or with "-" before it for descending)."""
        names = [name for name, column in cls.base_columns.items() if column.orderable is not False]
        return {*names, *(f"-{name}" for name in names)}


class StandingsListing(TeamsRanked):
    """The standings: sortable on the page, exportable as CSV and XLSX."""

    place = PlaceColumn(verbose_name="Place")
    team = tables.Column(accessor="team__display_name", verbose_name="Team", order_by=("team__number",))
    players = players_column()
    city = tables.Column(accessor="team__city", verbose_name="City", attrs=WIDE)
    record = tables.Column(
        accessor="won_lost_tied",
        verbose_name="W-L-T",
        order_by=("record__rounds_won",),
        attrs={"td": {"class": "nowrap"}},
    )
    points_for = tables.Column(
        accessor="points_shown", verbose_name="Points for", order_by=("record__points_for",), attrs=NUMERIC
    )
    points_against = tables.Column(accessor="record__points_against", verbose_name="Against", attrs=NUMERIC_WIDE)
    difference = tables.Column(accessor="record__difference", verbose_name="Diff.", attrs=NUMERIC)
    hands_won = tables.Column(accessor="record__hands_won", verbose_name="Hands won", attrs=NUMERIC_WIDE)
    bostons = tables.Column(accessor="record__bostons", verbose_name="Bostons", attrs=NUMERIC_WIDE)
    byes = tables.Column(accessor="byes", verbose_name="Byes", attrs=NUMERIC_WIDE)

    class Meta:
        attrs = {"class": "data-table standings"}
        row_attrs = {
            "id": lambda record: f"team-{record.team.number}",
            "class": lambda record: "withdrawn" if record.team.withdrawn else "",
        }

    def public_rows(self) -> list[tuple[SafeString, SafeString]]:
        """The rows of the public standings (``public/_standings.html``), in the listing's order: each row's
        attributes (``Meta.row_attrs``) and its cells, each column's cells made by its declaration (its ``td``
        attributes, its accessor, the empty value's default, the listing's ``render_`` method) in one pass.
        django-tables2's own rendering fills the cells one by one through its bound rows and columns (15,360
        calls at 512 teams), which made most of the page's time."""
        rows = list(self.data)
        columns = [self._public_cells(column.name, rows) for column in self.columns]
        row_attrs = self._meta.row_attrs.items()
        return [
            (
                SafeString(" ".join(f'{name}="{escape(value)}"' for name, attr in row_attrs if (value := attr(row)))),
                SafeString("".join(cells)),
            )
            for row, cells in zip(rows, zip(*columns, strict=True), strict=True)
        ]

    def _public_cells(self, name: str, rows: list[StandingRow]) -> list[str]:
        """The column ``name``'s cells of ``rows`` in the public standings: ``<td>`` with the column's attributes,
        around each rendered value (escaped unless the rendering is safe HTML or a number). A ``render_`` method
        is called as django-tables2 may call it, with ``record`` and ``value``."""
        column = self.base_columns[name]
        opening = f"<td {AttributeDict(column.attrs['td']).as_html()}>" if "td" in column.attrs else "<td>"
        render = getattr(self, f"render_{name}", None)
        empty, default = column.empty_values, column.default or self.default
        read = attrgetter((column.accessor or name).replace("__", "."))
        cells = []
        for row, value in zip(rows, map(read, rows), strict=True):
            shown = default if value in empty else value if render is None else render(record=row, value=value)
            cells.append(f"{opening}{shown if isinstance(shown, SafeData | int) else escape(str(shown))}</td>")
        return cells

    def render_team(self, record, value):
        """The team linked to its page, "(withdrawn)" after it if it is. Escaped here rather than by
        ``format_html``, which took most of the standings rows' time at 512 teams."""
        number = record.team.number
        if not self.link_teams:
            return f"#{number} {value}"
        suffix = " (withdrawn)" if record.team.withdrawn else ""
        return SafeString(f'<a href="{self.team_href}{number}/">#{number} {escape(value)}</a>{suffix}')

    def value_team(self, record, value):
        return f"#{record.team.number} {value}"

    def render_difference(self, record, value):
        return f"{value:+d}" if value else "0"

    def value_difference(self, value):
        return value


class PlacingListing(TeamsRanked):
    """The final placings of the whole field: on the standings page, exportable as CSV and XLSX."""

    place = PlaceColumn(verbose_name="Place", orderable=False)
    team = tables.Column(accessor="team__display_name", verbose_name="Team", orderable=False)
    players = players_column()
    reached = tables.Column(accessor="reached", verbose_name="How", orderable=False)

    class Meta:
        attrs = {"class": "data-table placings"}

    def render_team(self, record, value):
        if not self.link_teams:
            return f"#{record.team.number} {value}"
        return format_html('<a href="{}{}/">#{} {}</a>', self.team_href, record.team.number, record.team.number, value)

    def value_team(self, record, value):
        return f"#{record.team.number} {value}"


def _empty(value) -> object:
    return "" if value is None else value


def _penalties(row) -> str:
    listed = row.penalties.all() if isinstance(row, Hand) else row.listed_penalties
    return "; ".join(penalty.description for penalty in listed)


class RowExport:
    """Plain rows as CSV or XLSX: ``COLUMNS`` names each column and how to read its cell from a row; the
    cells are made spreadsheet-safe."""

    COLUMNS: tuple = ()
    TITLE = ""

    def __init__(self, rows):
        self.rows = rows

    def response(self, export_format: str, filename: str):
        dataset = tablib.Dataset(headers=[header for header, _ in self.COLUMNS], title=self.TITLE)
        for row in self.rows:
            dataset.append([spreadsheet_safe(cell(row)) for _, cell in self.COLUMNS])
        content_type = SafeExport.FORMATS[export_format]
        response = HttpResponse(dataset.export(export_format), content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class HandExport(RowExport):
    """Every hand of a tournament as recorded and scored, the rulings on whole rounds, and the forfeits, for the
    CSV and XLSX exports. Plain rows rather than a django-tables2 listing, whose per-cell machinery takes seconds
    for the 3,000 hands of a 512-team tournament; the cells are made spreadsheet-safe the same way."""

    TITLE = "Hands"
    COLUMNS = (
        ("Round", lambda row: row.table.stage),
        ("Table", lambda row: row.table.number),
        ("Hand", lambda row: _empty(row.hand_number)),
        ("N-S team", lambda row: _empty(getattr(row.table.team_ns, "number", None))),
        ("E-W team", lambda row: _empty(getattr(row.table.team_ew, "number", None))),
        ("Dealer", lambda row: row.dealer),
        ("Re-deal", lambda row: "no" if row.counts else "yes"),
        ("Bid won by", lambda row: row.bidder),
        ("Bid", lambda row: row.bid_text),
        ("Books", lambda row: _empty(row.books)),
        ("Books after penalties", lambda row: _empty(row.books_after_penalties)),
        ("N-S points", lambda row: row.ns_points),
        ("E-W points", lambda row: row.ew_points),
        ("Penalties", _penalties),
        ("Sheet signed", lambda row: row.table.locked_at.isoformat() if row.table.locked_at else ""),
        ("Time called after hand", lambda row: _empty(row.table.time_called_after)),
        ("Forfeit", lambda row: row.words if isinstance(row, ForfeitRow) else ""),
    )


@dataclass(frozen=True)
class PayoutLine:
    """A row of the payout sheet's export: a prize, or a total (no place, no team)."""

    sheet: str
    pot: str
    amount: object
    place: str = ""
    team_number: object = ""
    team_name: str = ""
    paid: str = ""
    confirmed: str = ""


def local_minute(moment) -> str:
    """A time as the desk's clock showed it: the event's time zone (``TIME_ZONE``), to the minute."""
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


class PayoutExport(RowExport):
    """The payout sheet: each prize with its place and amount, then the house's share, the refunds and the
    fees received, so the file balances as the desk does. Amounts are text with cents ("25.00"); when a prize was
    paid and confirmed (and where), in local time to the minute."""

    TITLE = "Payouts"
    COLUMNS = (
        ("Sheet", lambda row: row.sheet),
        ("Pot", lambda row: row.pot),
        ("Place", lambda row: row.place),
        ("Team", lambda row: row.team_number),
        ("Team name", lambda row: row.team_name),
        ("Amount", lambda row: f"{row.amount:.2f}"),
        ("Paid", lambda row: row.paid),
        ("Confirmed by the team", lambda row: row.confirmed),
    )

    @staticmethod
    def sheet_rows(sheet) -> list[PayoutLine]:
        kind = "final" if sheet.final else "preview"
        rows = [
            PayoutLine(
                kind,
                PRIZE_FROM[line.pot],
                line.amount,
                str(line.place),
                line.team.number,
                line.team.display_name,
                local_minute(line.paid.paid_at) if line.paid else "",
                f"{local_minute(line.paid.confirmed_at)}, {line.paid.confirmed_on}"
                if line.paid and line.paid.confirmed_at
                else "",
            )
            for line in sheet.lines
        ]
        totals = (
            ("House's share", sheet.house),
            ("Refunds", sheet.desk.refunded),
            ("Fees received", sheet.desk.received),
        )
        return rows + [PayoutLine(kind, name, amount) for name, amount in totals]
