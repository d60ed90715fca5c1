"""The director's forms."""

from django import forms

from scoring import PRESETS, SETTINGS, TIMING_SETTINGS, RuleSet, ScoringError
from tournament.models import STANDINGS_ORDERS, Round, Team, Tournament
from tournament.services.draws import MAX_TABLE_NUMBER
from tournament.services.teams import CSV_COLUMNS, MAX_TEAM_NUMBER
from tournament.typed import whole_number


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    venue = forms.CharField(max_length=160, required=False)
    starts_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="First day")
    ends_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="Last day")


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=120, help_text="For example “1st tournament” or “Main Event”.")
    qualifying_rounds = forms.IntegerField(
        min_value=1,
        max_value=20,
        initial=3,
        help_text="Rounds before the playoff (3, or 4 for a main event).",
    )
    paper_size = forms.ChoiceField(choices=Tournament.PaperSize.choices, label="Paper for printing")
    standings_order = forms.ChoiceField(
        choices=STANDINGS_ORDERS,
        label="Standings order",
        help_text="How teams are ranked over signed rounds; teams still level share the place.",
    )
    sheet_mode = forms.TypedChoiceField(
        choices=Tournament.SheetMode.choices,
        required=False,
        empty_value=Tournament.SheetMode.SIGN,
        initial=Tournament.SheetMode.SIGN,
        widget=forms.RadioSelect,
        label="How teams vouch for their sheets",
        help_text="Each team has a code from its check-in slip. Fixed once a round is published.",
    )
    avoid_same_city_rounds = forms.IntegerField(
        min_value=0,
        max_value=20,
        initial=2,
        label="Keep cities apart for",
        help_text="Rounds at the start in which draws avoid pairing teams of one city or club where possible.",
    )


class TournamentCreateForm(TournamentForm):
    preset = forms.ChoiceField(
        choices=[(name, name.capitalize()) for name in PRESETS],
        label="Rules to start from",
        help_text="Tournament: straight deal, progressive bidding, no negative scores. Kitty: the social "
        "game with jokers and a kitty. Every setting can be changed next.",
    )


def _rules_field(name: str, value) -> forms.Field:
    setting = SETTINGS[name]
    common = {"label": setting.label, "help_text": setting.help, "initial": value}
    if setting.choices:
        return forms.ChoiceField(choices=setting.choices.choices(), **common)
    if isinstance(value, bool):
        return forms.BooleanField(required=False, **common)
    return forms.IntegerField(min_value=setting.minimum, max_value=setting.maximum, **common)


class RuleSetForm(forms.Form):
    """Every setting that changes a score, each explained; the engine judges the combination. Once a round is
    published (``published``) only the time settings are open: the others are shown as they are, and one posted
    anyway (from a page loaded before the round was published) goes to the service, which refuses its change."""

    def __init__(self, *args, rules: RuleSet, published: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.start = rules
        for name, value in rules.to_dict().items():
            if SETTINGS[name].scored:
                self.fields[name] = _rules_field(name, value)
                self.fields[name].disabled = published and name not in TIMING_SETTINGS

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            self.rules = self.start.with_choices(**(cleaned | self._locked_posted()))
        except forms.ValidationError as error:
            self.add_error(None, error)
        except ScoringError as error:
            self.add_error(error.field if error.field in self.fields else None, str(error))
        return cleaned

    def _locked_posted(self) -> dict:
        """The locked settings that were posted all the same, as posted."""
        return {
            name: field.clean(field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name)))
            for name, field in self.fields.items()
            if field.disabled and self.add_prefix(name) in self.data
        }


class TeamForm(forms.Form):
    player1_name = forms.CharField(max_length=120, label="First player")
    player1_city = forms.CharField(max_length=120, required=False, label="First player's city or club")
    player1_phone = forms.CharField(max_length=40, required=False, label="First player's phone")
    player2_name = forms.CharField(max_length=120, label="Second player")
    player2_city = forms.CharField(max_length=120, required=False, label="Second player's city or club")
    player2_phone = forms.CharField(max_length=40, required=False, label="Second player's phone")
    name = forms.CharField(max_length=160, required=False, label="Team name", help_text="Blank: the players' names.")
    city = forms.CharField(
        max_length=120,
        required=False,
        label="Team city",
        help_text="Blank: the players' city when they share one.",
    )
    number = forms.IntegerField(
        min_value=1, max_value=MAX_TEAM_NUMBER, required=False, label="Team number", help_text="Blank: the next number."
    )


class TeamRegisterForm(TeamForm):
    fee_paid = forms.BooleanField(required=False, label="Entry fee paid")
    side_pot = forms.BooleanField(required=False, label="Side pot entered")
    checked_in = forms.BooleanField(required=False, label="Checked in (here today)")


class TeamNumbersField(forms.ModelMultipleChoiceField):
    """Teams by number; anything but a team number's digits is refused before it reaches a query."""

    def clean(self, value):
        for number in value if isinstance(value, list | tuple) else []:
            if whole_number(str(number), digits=len(str(MAX_TEAM_NUMBER))) is None:
                raise forms.ValidationError(self.error_messages["invalid_choice"], params={"value": number})
        return super().clean(value)


class TeamsCheckInForm(forms.Form):
    """The teams ticked at the desk, by number (the tournament's only)."""

    teams = TeamNumbersField(
        queryset=Team.objects.none(),
        to_field_name="number",
        error_messages={"required": "Tick the teams to check in.", "invalid_choice": "Team #%(value)s is not here."},
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["teams"].queryset = tournament.teams.all()


class TeamImportForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        help_text="Columns: " + ", ".join(f"<code>{name}</code>" for name in CSV_COLUMNS) + ".",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > 2 * 1024 * 1024:
            raise forms.ValidationError("The file is larger than 2 MB; is it the right file?")
        raw = upload.read()
        for encoding in ("utf-8-sig", "cp1252"):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise forms.ValidationError("The file is not text: save it from the spreadsheet as CSV.")


class DrawForm(forms.Form):
    method = forms.ChoiceField(
        choices=Round.Method.choices,
        widget=forms.RadioSelect,
        initial=Round.Method.RANDOM,
        help_text="Random: a seeded shuffle (round 1). Swiss: teams with similar records meet, no rematch while "
        "another draw exists, byes to the lowest-ranked team without one. Movement: the teams that kept the score "
        "sheets stay at their tables, the others move one table on. Manual: your table list. Teams of one city are "
        "kept apart in the first rounds where possible.",
    )
    seed = forms.IntegerField(
        min_value=0,
        max_value=10**12,
        required=False,
        help_text="Random draw only. Blank: a new seed, recorded with the draw; the same seed gives the same draw.",
    )
    pairs = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "1 v 5\n2 v 6\n3 v 7\n4 v 8"}),
        label="Manual table list",
        help_text="Manual draw only: one table per line as two team numbers (the first sits North–South); "
        "a line with one number is the bye. Blank: teams in number order.",
    )
    by_rating = forms.BooleanField(
        required=False,
        label="Seed round 1 by the players' ratings",
        help_text="Swiss, round 1 only: the stronger half of the field meets the weaker half (first v first); "
        "teams without a rating last. Informational ratings from earlier events; off unless you choose it.",
    )
    override_unsigned = forms.BooleanField(
        required=False,
        label="Draw now although tables of an earlier round have not signed",
        help_text="Their results so far are used as they stand. The override is written in the log.",
    )


class TeamChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"#{obj.number} {obj.display_name}"


# The id of the draft page's list of teams that its team fields suggest.
DRAFT_TEAMS = "draft-teams"
TEAM_NUMBER_HELP = "The team's number (the list suggests them)."


class TeamNumberField(forms.ModelChoiceField):
    """A team of ``queryset`` given by its number, typed or picked from the page's one list of the teams (the
    ``<datalist>`` named ``DRAFT_TEAMS``): a draft of 256 tables offers its 512 teams once, not in every select."""

    default_error_messages = {"invalid_choice": "No team has this number."}

    def __init__(self, **kwargs):
        widget = forms.TextInput(attrs={"inputmode": "numeric", "list": DRAFT_TEAMS, "autocomplete": "off", "size": 6})
        super().__init__(queryset=None, to_field_name="number", widget=widget, **kwargs)

    def to_python(self, value):
        return super().to_python(value.strip().removeprefix("#") if isinstance(value, str) else value)


class SwapForm(forms.Form):
    team_a = TeamNumberField(label="Swap team", help_text=TEAM_NUMBER_HELP)
    team_b = TeamNumberField(label="with team")

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team_a"].queryset = teams
        self.fields["team_b"].queryset = teams


class MoveForm(forms.Form):
    team = TeamNumberField(label="Move team", help_text=TEAM_NUMBER_HELP)
    table_number = forms.IntegerField(
        min_value=1,
        max_value=MAX_TABLE_NUMBER,
        required=False,
        label="to table",
        help_text="A table with a free side or a new number; blank: the bye.",
    )

    def __init__(self, *args, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].queryset = teams


class AnnouncementForm(forms.Form):
    text = forms.CharField(max_length=280, widget=forms.Textarea(attrs={"rows": 2}), label="Announcement")
    hours = forms.IntegerField(
        min_value=1, max_value=96, required=False, label="Show for (hours)", help_text="Blank: until you remove it."
    )


class PlayoffSeedForm(forms.Form):
    teams = forms.IntegerField(
        min_value=2, max_value=512, initial=8, label="Teams in the playoff", help_text="The top N of the standings."
    )
    third_place = forms.BooleanField(required=False, label="Play a third-place match (single elimination)")
    double = forms.BooleanField(
        required=False, label="Double elimination (a losers' bracket; the grand final is reset if its team wins)"
    )


class SeedSwapForm(forms.Form):
    seed_a = forms.IntegerField(min_value=1, max_value=1024, label="Swap seed")
    seed_b = forms.IntegerField(min_value=1, max_value=1024, label="with seed")


class LogFilterForm(forms.Form):
    """The log page's filter: a round, a team, or both."""

    round = forms.TypedChoiceField(coerce=int, required=False, empty_value=None, label="Round")
    team = TeamChoiceField(queryset=Team.objects.none(), required=False, label="Team", empty_label="Every team")

    def __init__(self, *args, rounds, teams, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["round"].choices = [("", "Every round")] + [(r.number, r.title) for r in rounds]
        self.fields["team"].queryset = teams
