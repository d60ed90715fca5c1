"""Forms for persons across events and series: field checks only (the services hold the rules)."""

from django import forms

from scoring.series import SERIES_POINTS_DEFAULT, SERIES_POINTS_LABELS
from tournament.models import Person, Player, Tournament


class UnlinkForm(forms.Form):
    """A player of one event (``players``), chosen on its persons page."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), widget=forms.HiddenInput)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players


class LinkForm(UnlinkForm):
    person = forms.ModelChoiceField(
        queryset=Person.objects.all(),
        required=False,
        widget=forms.NumberInput(attrs={"min": 1, "inputmode": "numeric"}),
        label="Person number",
        help_text="Blank: a new person from this player's name and city.",
        error_messages={"invalid_choice": "There is no person with that number."},
    )


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(
        queryset=Person.objects.all(),
        widget=forms.NumberInput(attrs={"min": 1, "inputmode": "numeric"}),
        label="Keep person number",
        error_messages={"invalid_choice": "There is no person with that number."},
    )
    merge = forms.ModelChoiceField(
        queryset=Person.objects.all(),
        widget=forms.NumberInput(attrs={"min": 1, "inputmode": "numeric"}),
        label="Merge into it person number",
        error_messages={"invalid_choice": "There is no person with that number."},
    )


class PersonForm(forms.Form):
    name = forms.CharField(max_length=120)
    city = forms.CharField(max_length=120, required=False, label="City or club")
    hidden = forms.BooleanField(
        required=False,
        label="Hide from public pages",
        help_text="At the person's request: no public page, and “a player” in series standings.",
    )


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=120)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, default in SERIES_POINTS_DEFAULT.items():
            self.fields[key] = forms.DecimalField(
                min_value=0,
                max_value=1000,
                decimal_places=2,
                initial=default,
                label=f"Points: {SERIES_POINTS_LABELS[key].lower()}",
            )

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        return {"name": data["name"], "points": {key: str(data[key]) for key in SERIES_POINTS_DEFAULT}}


class SeriesTournamentForm(forms.Form):
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.select_related("event").order_by("-event__starts_on", "event__name", "name"),
        label="Add a tournament",
        empty_label="Choose a tournament",
    )
