"""The engine's words for templates (``{% load terms %}``): the two partnerships and the penalties' rules.

``{{ entry.pair|pair_label }}`` says "North–South"; ``{% with side=entry.pair|pair %}`` gives the engine's term
(``side.label``, ``side.short`` "N–S", ``side.other`` the opponents); ``{{ hand|points_of:side }}`` and
``{{ table|total_of:side }}`` read that side's points of a hand (or a penalty) and total of a table.
``{{ table|role_of:side }}`` says what that side's team does besides playing ("keeps the score sheet").
``{{ level|bid:kind }}`` names a bid as players call it ("4 Downtown"), ``{{ kind|bid_kind }}`` its kind ("Downtown").
``{% for kind, rule in rules|penalty_rules %}`` lists each penalty whose points the rule set fixes with what it
gives ("Play out of turn", "3 points to the opponents")."""

from django import template

from scoring import Bid, BidKind, Pair, penalty_rules

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
def role_of(table, side) -> str:
    """What the team at ``side`` of ``table`` does besides playing: "keeps the score sheet", ... (``Table.role_of``)."""
    return table.role_of(side)


@register.filter
def bid_kind(kind) -> str:
    """A bid's kind stored ("high", "low", "nt") as players call it: "Uptown", "Downtown", "No Trump"."""
    return BidKind(kind).label


@register.filter
def bid(level, kind) -> str:
    """A bid stored as its level and kind, in the players' words: "4 Downtown"."""
    return str(Bid(level, kind))


@register.filter
def points_of(record, side) -> int:
    """A hand's or a penalty's points for ``side`` (its ``ns_points`` or ``ew_points``)."""
    return record.ns_points if side == Pair.NORTH_SOUTH else record.ew_points


@register.filter
def total_of(table, side) -> int:
    return table.total(side)


register.filter("penalty_rules", penalty_rules)
