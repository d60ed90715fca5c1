"""Listings (django-tables2 tables): sortable on the page and exportable as CSV and XLSX.

They are called listings so they are never confused with the card tables of a round.
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django_tables2.export import TableExport

from tournament.models import Team
from tournament.selectors.exports import RulingRow

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

    def __init__(self, data, *, tournament, **kwargs):
        super().__init__(data, **kwargs)
        self.tournament = tournament

    def render_actions(self, record):
        url = reverse("director:team_edit", args=[self.tournament.slug, record.number])
        return format_html('<a href="{}">Edit</a>', url)

    def value_fee_paid(self, value):
        return "yes" if value else "no"

    def value_side_pot(self, value):
        return "yes" if value else "no"

    def value_checked_in(self, value):
        return "yes" if value else "no"

    def value_withdrawn(self, value):
        return "yes" if value else "no"


class StandingsListing(tables.Table):
    """The standings: sortable on the page, exportable as CSV and XLSX."""

    place = tables.Column(accessor="label", verbose_name="Place", order_by=("place",))
    team = tables.Column(accessor="team__display_name", verbose_name="Team", order_by=("team__number",))
    players = tables.Column(
        accessor="team__player_names",
        verbose_name="Players",
        orderable=False,
        attrs={"td": {"class": "wide-only players"}, "th": {"class": "wide-only players"}},
    )
    city = tables.Column(accessor="team__city", verbose_name="City", attrs=WIDE)
    record = tables.Column(
        accessor="won_lost_tied",
        verbose_name="W-L-T",
        order_by=("record__rounds_won",),
        attrs={"td": {"class": "nowrap"}},
    )
    points_for = tables.Column(accessor="record__points_for", verbose_name="Points for", attrs=NUMERIC)
    points_against = tables.Column(accessor="record__points_against", verbose_name="Against", attrs=NUMERIC_WIDE)
    difference = tables.Column(accessor="record__difference", verbose_name="Diff.", attrs=NUMERIC)
    hands_won = tables.Column(accessor="record__hands_won", verbose_name="Hands won", attrs=NUMERIC_WIDE)
    bostons = tables.Column(accessor="record__bostons", verbose_name="Bostons", attrs=NUMERIC_WIDE)

    class Meta:
        attrs = {"class": "data-table standings"}
        row_attrs = {"class": lambda record: "withdrawn" if record.team.withdrawn else ""}

    def __init__(self, data, *, tournament, link_teams=True, **kwargs):
        super().__init__(data, **kwargs)
        self.tournament = tournament
        self.link_teams = link_teams

    def render_team(self, record, value):
        if not self.link_teams:
            return f"#{record.team.number} {value}"
        url = reverse("public:team", args=[self.tournament.slug, record.team.number])
        suffix = " (withdrawn)" if record.team.withdrawn else ""
        return format_html('<a href="{}">#{} {}</a>{}', url, record.team.number, value, suffix)

    def value_team(self, record, value):
        return value

    def render_difference(self, value):
        return f"{value:+d}" if value else "0"

    def value_difference(self, value):
        return value


class PlacingListing(tables.Table):
    """The final placings of the whole field: on the standings page, exportable as CSV and XLSX."""

    place = tables.Column(accessor="label", verbose_name="Place", orderable=False)
    team = tables.Column(accessor="team__display_name", verbose_name="Team", orderable=False)
    players = tables.Column(
        accessor="team__player_names",
        verbose_name="Players",
        orderable=False,
        attrs={"td": {"class": "wide-only players"}, "th": {"class": "wide-only players"}},
    )
    reached = tables.Column(accessor="reached", verbose_name="How", orderable=False)

    class Meta:
        attrs = {"class": "data-table placings"}

    def __init__(self, data, *, tournament, link_teams=True, **kwargs):
        super().__init__(data, **kwargs)
        self.tournament = tournament
        self.link_teams = link_teams

    def render_team(self, record, value):
        if not self.link_teams:
            return f"#{record.team.number} {value}"
        url = reverse("public:team", args=[self.tournament.slug, record.team.number])
        return format_html('<a href="{}">#{} {}</a>', url, record.team.number, value)

    def value_team(self, record, value):
        return f"#{record.team.number} {value}"


class HandListing(tables.Table):
    """Every hand of a tournament as recorded and scored, for the CSV and XLSX exports."""

    round = tables.Column(accessor="table__stage", verbose_name="Round")
    table = tables.Column(accessor="table__number", verbose_name="Table")
    hand = tables.Column(accessor="hand_number", verbose_name="Hand")
    north_south = tables.Column(accessor="table__team_ns__number", verbose_name="N-S team")
    east_west = tables.Column(accessor="table__team_ew__number", verbose_name="E-W team")
    dealer = tables.Column(accessor="dealer", verbose_name="Dealer")
    redeal = tables.Column(accessor="counts", verbose_name="Re-deal")
    bidder = tables.Column(accessor="bidder", verbose_name="Bid won by")
    bid = tables.Column(accessor="bid_text", verbose_name="Bid", default="")
    books = tables.Column(accessor="books", verbose_name="Books")
    books_after = tables.Column(accessor="books_after_penalties", verbose_name="Books after penalties")
    ns_points = tables.Column(accessor="ns_points", verbose_name="N-S points")
    ew_points = tables.Column(accessor="ew_points", verbose_name="E-W points")
    penalties = tables.Column(accessor="pk", verbose_name="Penalties", empty_values=())
    signed = tables.Column(accessor="table__locked_at", verbose_name="Sheet signed")

    def value_redeal(self, value):
        return "no" if value else "yes"

    def value_penalties(self, record):
        listed = record.listed_penalties if isinstance(record, RulingRow) else record.penalties.all()
        return "; ".join(penalty.description for penalty in listed)

    def value_signed(self, value):
        return value.isoformat() if value else ""
