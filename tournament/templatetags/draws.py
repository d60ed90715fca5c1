"""A round's tables on the director's round page (``{% load draws %}``): ``{% draw_sides table %}`` shows a table's
two teams, each with its players, city and what it does besides playing. Made in one call: the page lists every
table (256 at 512 teams), where an include and its filters for each side cost more than the rest of the page."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import capfirst

from tournament.templatetags.typed import shown

register = template.Library()


def team_cell(team) -> SafeString:
    """A team as the draw shows it: number and name, its players' names if it has a name of its own, its city."""
    if team is None:
        return SafeString('<span class="badge warn">Empty side</span>')
    parts = [format_html("<strong>#{} {}</strong>", team.number, shown(team.display_name))]
    if team.name:
        parts.append(format_html('<br><span class="small">{}</span>', shown(team.player_names)))
    if team.city:
        parts.append(format_html('<br><span class="muted small">{}</span>', shown(team.city)))
    if team.withdrawn:
        parts.append(SafeString(' <span class="badge bad">Withdrawn</span>'))
    return SafeString("".join(parts))


@register.simple_tag
def draw_sides(table) -> SafeString:
    sides = []
    for side, team in table.sides:
        role = table.role_of(side)
        said = format_html('<br><span class="small">{}</span>', capfirst(role)) if role else ""
        sides.append(
            format_html(
                '<div class="draw-side"><span class="side-label">{}</span><div>{}{}</div></div>',
                side.short,
                team_cell(team),
                said,
            )
        )
    return SafeString("".join(sides))
