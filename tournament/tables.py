"""django-tables2 tables: sortable on the page and exportable as CSV and XLSX."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html

from tournament.models import Team


class TeamTable(tables.Table):
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
