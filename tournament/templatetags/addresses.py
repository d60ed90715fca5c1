"""``{{ addresses|address_of:part }}`` (``{% load addresses %}``): a row's link on a page listing many rows (a
round's tables, the desk's teams), from one route reversed once for the page (``tournament.addresses.Addresses``)."""

from django import template
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def address_of(addresses, part) -> SafeString:
    return addresses.of(part)
