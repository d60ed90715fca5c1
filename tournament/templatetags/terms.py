"""The engine's words for templates (``{% load terms %}``): the two partnerships and the penalties' rules.

``{{ entry.pair|pair_label }}`` says "North–South"; ``{% with side=entry.pair|pair %}`` gives the engine's term
(``side.label``, ``side.short`` "N–S", ``side.other`` the opponents); ``{{ hand|points_of:side }}`` and
``{{ table|total_of:side }}`` read that side's points of a hand (or a penalty) and total of a table.
``{% for kind, rule in rules|penalty_rules %}`` lists each penalty whose points the rule set fixes with what it
gives ("Play out of turn", "3 points to the opponents")."""

from django import template

from scoring import Pair, penalty_rules

register = template.Library()


@register.filter
def pair(value) -> Pair | None:
    """A stored pair ("NS", "EW") as the engine's term; nothing for no pair."""
    return Pair(value) if value else None


@register.filter
def pair_label(value) -> str:
    """A stored pair's words: "North–South", "East–West"."""
    return Pair(value).label


@register.filter
def points_of(record, side) -> int:
    """A hand's or a penalty's points for ``side`` (its ``ns_points`` or ``ew_points``)."""
    return record.ns_points if side == Pair.NORTH_SOUTH else record.ew_points


@register.filter
def total_of(table, side) -> int:
    return table.total(side)


register.filter("penalty_rules", penalty_rules)
