"""Money forms: the settings, a payment or refund at the desk and its correction, a prize's hand-over signed at
the desk, and a team's code confirming a prize on its phone.

Amounts are typed as text and checked by the money engine, whose refusal is shown beside the field.
"""

from typing import Any

from django import forms

from scoring.money import MONEY_SETTINGS, MoneyKind, MoneySetting
from tournament.forms.table import CodeInput
from tournament.models import Payment, Pot
from tournament.services.money import OWED


class AmountInput(forms.TextInput):
    """An amount in dollars and cents: a phone shows its number pad with a decimal point."""

    def __init__(self, attrs=None):
        super().__init__({"inputmode": "decimal", "autocomplete": "off", "size": 8, **(attrs or {})})


def amount_field(label: str, **kwargs: Any) -> forms.CharField:
    return forms.CharField(max_length=16, label=label, widget=AmountInput(), **kwargs)


def _money_field(setting: MoneySetting) -> forms.Field:
    if setting.choices is not None:
        choices = setting.choices.choices()
        return forms.ChoiceField(choices=choices, widget=forms.RadioSelect, label=setting.label, help_text=setting.help)
    if setting.kind is MoneyKind.PERCENTS:
        return forms.CharField(max_length=200, label=setting.label, help_text=setting.help)
    return amount_field(setting.label, help_text=setting.help)


class MoneySettingsForm(forms.Form):
    """Every money setting, a field each as its declaration (``scoring.money.MONEY_SETTINGS``) describes it; the
    service checks the values."""


MoneySettingsForm.base_fields = {name: _money_field(setting) for name, setting in MONEY_SETTINGS.items()}


class PaymentForm(forms.Form):
    amount = amount_field("Amount received")
    method = forms.ChoiceField(choices=Payment.Method.choices, label="How")
    pot = forms.ChoiceField(choices=[(OWED, "What it owes (fee, then side pot)"), *Pot.choices], label="For")


class ReasonForm(forms.Form):
    """Why a record is corrected (a payment voided, a prize payment undone): kept in the log."""

    reason = forms.CharField(max_length=200, label="Why", help_text="Kept in the log.")


class PaymentMoveForm(ReasonForm):
    team = forms.IntegerField(min_value=1, max_value=9999, label="To team #")
    pot = forms.ChoiceField(choices=Pot.choices, label="For")


class PayoutPayForm(forms.Form):
    """Which prize the confirmation page pays: carried from the sheet's *Pay* link to its button."""

    team = forms.IntegerField(min_value=1, max_value=9999, widget=forms.HiddenInput)
    pot = forms.ChoiceField(choices=Pot.choices, widget=forms.HiddenInput)


class HandOverForm(forms.Form):
    """The player taking the prize signs on the desk's screen with their own name."""

    signed_by = forms.CharField(max_length=80, label="Signed by (the player's name, typed by them)")


class RefundForm(forms.Form):
    amount = amount_field("Amount refunded")
    pot = forms.ChoiceField(choices=Pot.choices, label="Of")
    method = forms.ChoiceField(choices=Payment.Method.choices, label="How")
    reason = forms.CharField(max_length=200, label="Why", help_text="Kept in the log.")


class PayoutCodeForm(forms.Form):
    """The winning team's code, typed on its own phone, confirming it received its prize."""

    code = forms.CharField(max_length=12, label="Team code", widget=CodeInput())
