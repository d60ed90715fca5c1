"""Text people typed, for templates (``{% load typed %}``): ``{{ name|shown }}`` shows it escaped, each
character the text check refuses written as its code point ("adm[U+202E]in"), and isolated in a ``<bdi>``, so a
name in a right-to-left script (or a stranger's login name) never reorders the text around it."""

from django import template
from django.utils.html import format_html

from tournament.typed import text_shown

register = template.Library()


@register.filter
def shown(value) -> str:
    return format_html("<bdi>{}</bdi>", text_shown(str(value)))
