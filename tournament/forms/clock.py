"""The director's clock buttons: what to do to the clock, and the minutes to add."""

from typing import cast

from django import forms

from scoring.clock import MAX_ADDED_MINUTES

ROUND_ACTIONS = [("start", "Start"), ("pause", "Pause"), ("resume", "Resume"), ("add", "Add time")]
TABLE_ACTIONS = [*ROUND_ACTIONS, ("call_time", "Call time")]


class ClockForm(forms.Form):
    action = forms.ChoiceField(choices=ROUND_ACTIONS)
    minutes = forms.IntegerField(
        required=False,
        label="Minutes to add",
        error_messages={"invalid": f"The minutes to add must be a whole number, 1 to {MAX_ADDED_MINUTES}."},
    )

    def __init__(self, *args, table: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if table:
            cast(forms.ChoiceField, self.fields["action"]).choices = TABLE_ACTIONS


class TimeCallForm(forms.Form):
    """Time called at a table, or taken back by staff (with a reason on a signed sheet)."""

    version = forms.IntegerField(
        widget=forms.HiddenInput,
        error_messages={"required": "The sheet's version is missing: reload the page and try again."},
    )
    reason = forms.CharField(required=False, max_length=300, label="Reason (a signed sheet)")
