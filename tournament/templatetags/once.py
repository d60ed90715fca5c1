"""``{% form_once %}``: the hidden token that makes a form taken once (``tournament.views.once``); a builtin, put
beside ``{% csrf_token %}`` in every form that adds or moves something."""

from django import template
from django.utils.html import format_html

from tournament.views.once import FIELD, form_token

register = template.Library()


@register.simple_tag
def form_once() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, form_token())
