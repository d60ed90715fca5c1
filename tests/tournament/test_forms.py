"""What every form of the app holds: a choice no button offers is refused in the app's words."""

import importlib
import pkgutil

from django import forms
from django.urls import reverse

import tournament.forms
from tests.conftest import text_of
from tests.tournament.views.test_table import hand_post, refused, url
from tournament.forms import WRONG_CHOICE

DJANGO_WORDS = "Select a valid choice"


def choice_fields() -> dict[str, forms.ChoiceField]:
    """Every choice field declared by a form of the app's forms package."""
    found = {}
    for module in pkgutil.iter_modules(tournament.forms.__path__):
        module = importlib.import_module(f"tournament.forms.{module.name}")
        for form in vars(module).values():
            if isinstance(form, type) and issubclass(form, forms.BaseForm) and form.__module__ == module.__name__:
                found |= {
                    f"{form.__name__}.{name}": field
                    for name, field in form.base_fields.items()
                    if isinstance(field, forms.ChoiceField)
                }
    return found


def test_no_choice_field_refuses_in_djangos_words():
    fields = choice_fields()
    assert "HandForm.books" in fields and "MoneySettingsForm.side_pot_rule" in fields
    raw = [name for name, field in fields.items() if DJANGO_WORDS in str(field.error_messages["invalid_choice"])]
    assert raw == [], "refused with Django's raw words"


def test_a_forged_books_value_is_refused_in_the_apps_words(client, table):
    page = refused(client, url("table_hand_add", table), hand_post(0, books="14"), "id_hand-books")
    shown = text_of(page)
    assert WRONG_CHOICE in shown and DJANGO_WORDS not in shown
    assert not table.hands.exists()


def test_a_forged_log_filter_is_refused_in_the_apps_words(director_client, tournament):
    shown = text_of(director_client.get(reverse("director:log", args=[tournament.slug]), {"round": "x"}))
    assert WRONG_CHOICE in shown and DJANGO_WORDS not in shown
