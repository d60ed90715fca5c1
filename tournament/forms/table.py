"""Forms of the table scorekeeper's page: big one-tap choices rather than free text."""

import json
from collections.abc import Iterable
from dataclasses import fields
from typing import Any, cast

from django import forms
from django.db import models

import scoring
from scoring import BidKind, BidOutOfTurnChoice, Pair, PenaltyKind, RedealReason, Suit
from scoring.penalties import MAX_RULING_POINTS
from tournament.forms.buttons import BidGrid, ChoiceButtons, SeatButtons, SuitButtons
from tournament.models import Hand
from tournament.models.sheets import DEAL_ENTRY, DealEntry, deal_details, deal_label
from tournament.selectors.tables import SeatView
from tournament.services.sheets.entries import HandEntry


def _seat_choices(seats):
    """Each seat's button names who plays in it this round: the team's player, or the substitute in their place."""
    return [(seat.seat.value, f"{seat.seat} · {seat.name}" if seat.player else seat.label) for seat in seats]


def _signer_choices(signers):
    """The sign form's names: the two who sat for the team this round (``team_signers``), a substitute named as
    such."""
    return [(seat.signer, seat.shown) for seat in signers]


def team_out_of_turn_field() -> forms.ChoiceField:
    """The team whose deal or bid out of turn caused a re-deal (the sheet's and a team's own re-deal form)."""
    return forms.ChoiceField(
        choices=Pair.choices(),
        widget=ChoiceButtons,
        required=False,
        label="Team out of turn",
        help_text="For a deal or a bid out of turn.",
    )


def choices_set(form: forms.Form, name: str, choices: list) -> None:
    """Give the choice field ``name`` of ``form`` its choices of the moment."""
    cast(forms.ChoiceField, form.fields[name]).choices = choices


class VersionForm(forms.Form):
    """A button that acts on the sheet as it was shown."""

    version = forms.IntegerField(widget=forms.HiddenInput)


class SeatChoices(forms.Form):
    """A form whose seat buttons name who plays in each seat this round (``seats``)."""

    def __init__(self, *args: Any, seats: Iterable[SeatView], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if isinstance(field.widget, SeatButtons):
                choices_set(self, name, _seat_choices(seats))


def correction_reason_field() -> forms.CharField:
    return forms.CharField(
        required=False,
        max_length=500,
        label="Reason for the correction",
        help_text="Needed for any change once both teams have signed.",
    )


class VersionedForm(VersionForm):
    """A change to the sheet as it was shown, a correction once it is signed."""

    reason = correction_reason_field()
    director_ruling = forms.BooleanField(
        required=False,
        label="My ruling as director: the result changes",
        help_text="A signed sheet's winner is changed only by the director's explicit ruling.",
    )
    confirm_knock_on = forms.BooleanField(
        required=False,
        label="Confirm the knock-on (director)",
        help_text="If this changes who won a playoff match whose next match has started, the new winner takes "
        "that place.",
    )


class FirstDealerForm(SeatChoices, VersionedForm):
    seat = forms.ChoiceField(widget=SeatButtons, label="Who was dealt the first diamond?")


def bid_choices(min_bid: int = 1) -> list[tuple[str, str]]:
    """One choice per bid, in the players' words ("4 Uptown", "4 Downtown", "4 No Trump"), level by level."""
    return [
        (f"{level}:{kind.value}", str(scoring.Bid(level, kind)))
        for level in range(min_bid, scoring.bids.MAX_LEVEL + 1)
        for kind in BidKind
    ]


def bid_value(level: int, kind: str) -> str:
    return f"{level}:{kind}"


def deal_detail_field(field: models.Field) -> forms.Field:
    """A deal's entry beyond the seats, the bid and the books, asked as its model declares it: its choices as
    buttons (a suit's as its symbols), or a number within its bounds; optional where the model allows blank."""
    label = deal_label(field) + (" (optional)" if field.blank else "")
    if field.choices:
        widget = SuitButtons if field.choices == Suit.choices() else ChoiceButtons
        return forms.ChoiceField(
            choices=field.choices, widget=widget, required=not field.blank, label=label, help_text=field.help_text
        )
    return cast(forms.Field, field.formfield(required=not field.blank, label=label, help_text=field.help_text))


# The deal's entries ``HandForm`` asks in its own way: the seats as buttons naming who sits there, the bid as
# one grid of level and kind, the books (a tap on them saves the hand).
DEAL_ASKED = ("dealer", "bidder", "level", "kind", "books")

# The deal's entries the form asks beyond those: the trump, a No Trump's direction and whatever else
# ``DealEntry`` declares, each shown in the order declared.
DealDetails: type[forms.Form] = type(
    "DealDetails",
    (forms.Form,),
    {field.name: deal_detail_field(field) for field in DealEntry._meta.fields if field.name not in DEAL_ASKED},
)


class HandForm(SeatChoices, VersionedForm, DealDetails):  # type: ignore[misc,valid-type]
    """A hand in three taps, four with the trump: who won the bid, the bid, the trump, the books (which save it
    on the sheet's page; Save without JavaScript). The dealer is proposed; the trump suit or no-trump direction
    is optional (scoring never needs it)."""

    field_order = ("dealer", "bidder", "bid", *DealDetails.base_fields, "books")

    dealer = forms.ChoiceField(widget=SeatButtons, label="Dealer")
    bidder = forms.ChoiceField(widget=SeatButtons, label="Bid won by")
    bid = forms.ChoiceField(choices=bid_choices(), widget=BidGrid, label="Bid")
    books = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, str(n)) for n in range(14)],
        widget=ChoiceButtons,
        label="Books won by the bidding team",
    )
    out_of_turn = forms.BooleanField(
        required=False,
        label="Dealt out of turn, caught after bidding began (the hand stands)",
        help_text="Caught before the first bid, it is a re-deal instead.",
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, min_bid: int = 1, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices_set(self, "bid", bid_choices(min_bid))

    @property
    def details(self) -> list[forms.BoundField]:
        """The deal's entries beyond the seats, the bid and the books, in the order ``DealEntry`` declares them."""
        return [self[name] for name in DealDetails.base_fields]

    @property
    def listed_details_json(self) -> str:
        """The deal's entries the contract does not show, named for the page's script to list them as the
        sheet does (``DealEntry.details``)."""
        return json.dumps({field.name: deal_label(field) for field in deal_details()})

    @property
    def entered_deal(self) -> Hand:
        """A valid form's deal as an unsaved hand, so the check page shows it as every sheet shows a hand."""
        return Hand(**{name: self.cleaned_data.get(name, "") for name in DEAL_ENTRY})

    def clean(self):
        """The bid as the services take it: a level and a kind."""
        cleaned = super().clean()
        if cleaned.get("bid"):
            level, kind = cleaned["bid"].split(":")
            cleaned["level"], cleaned["kind"] = int(level), kind
        return cleaned


def hand_entry(cleaned: dict) -> HandEntry:
    """A valid hand form's answers as the services take them: the form names its answers as the entry does (a
    team's own form has no out-of-turn mark)."""
    return HandEntry(**{entry.name: cleaned[entry.name] for entry in fields(HandEntry) if entry.name in cleaned})


class TeamHandForm(HandForm):
    """A team's own entry in blind double entry: the teams' entries are compared deal by deal, and a hand
    dealt out of turn is marked by staff when they settle the sheet."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["out_of_turn"]


class RedealForm(SeatChoices, VersionForm):
    """Named as ``redeal_record`` names them: ``reason`` is why the cards are dealt again, ``note`` the
    reason for a correction."""

    reason = forms.ChoiceField(
        choices=RedealReason.choices(), widget=forms.RadioSelect, label="Why the cards are dealt again"
    )
    dealer = forms.ChoiceField(widget=SeatButtons, label="Who dealt")
    note = correction_reason_field()
    team = team_out_of_turn_field()


class PenaltyForm(VersionedForm):
    """The offence first, on big buttons; the page's script then shows only the fields that offence needs."""

    kind = forms.ChoiceField(widget=ChoiceButtons, label="Offence")
    hand = forms.TypedChoiceField(coerce=int, required=False, label="In hand", empty_value=None)
    team = forms.ChoiceField(choices=Pair.choices(), widget=ChoiceButtons, label="Team that committed it")
    count = forms.TypedChoiceField(
        coerce=int,
        choices=[(n, str(n)) for n in range(1, 5)],
        initial=1,
        required=False,
        empty_value=1,  # type: ignore[arg-type]  # Django gives this value for no answer, whatever its type
        widget=ChoiceButtons,
        label="Reneges",
        help_text="Renege only: how many.",
    )
    choice = forms.ChoiceField(
        choices=[
            (BidOutOfTurnChoice.TAKE_POINTS.value, BidOutOfTurnChoice.TAKE_POINTS.label),
            (BidOutOfTurnChoice.CONTINUE.value, f"{BidOutOfTurnChoice.CONTINUE.label}, the bid stands"),
        ],
        widget=forms.RadioSelect,
        required=False,
        label="Bid out of turn: the wronged player chose",
        help_text="A re-deal is recorded with the re-deal button instead.",
    )
    points = forms.IntegerField(
        required=False,
        min_value=-MAX_RULING_POINTS,
        max_value=MAX_RULING_POINTS,
        label="Ruling: points",
        help_text="Positive: points to the team chosen above; negative: points taken from it.",
    )

    def __init__(self, *args: Any, hands: list[Hand], staff: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices_set(
            self,
            "hand",
            [("", "The round as a whole (rulings only)")]
            + [(hand.sequence, f"Hand {hand.hand_number}" + ("" if hand.counts else " (re-deal)")) for hand in hands],
        )
        if hands:
            self.fields["hand"].initial = hands[-1].sequence
        self.kinds = PenaltyKind.on_form(staff=staff)
        choices_set(self, "kind", [(kind.value, kind.choice_label) for kind in self.kinds])
        self.fields["reason"].label = "Reason"
        self.fields["reason"].help_text = "Required for a ruling, and for any change once the sheet is signed."

    @property
    def offence_fields(self) -> dict[str, tuple[str, ...]]:
        """Which fields each offence the form offers needs, as the engine declares them."""
        return {kind.value: ("hand", "team", *kind.inputs.fields) for kind in self.kinds}

    @property
    def offence_fields_json(self) -> str:
        """``offence_fields`` for the page's script."""
        return json.dumps(self.offence_fields)


class CodeInput(forms.TextInput):
    """A team code typed on a phone: capitals, no autocorrect, nothing remembered; a refused one is drawn empty
    (``first_error_focus``), so a phone retypes it rather than appending to it and spending its budget."""

    emptied_when_refused = True

    def __init__(self):
        super().__init__(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "autocorrect": "off", "spellcheck": "false"}
        )


def code_field(label: str = "Team code") -> forms.CharField:
    return forms.CharField(
        max_length=12,
        required=False,
        label=label,
        widget=CodeInput(),
        help_text="The 6 characters on the team's check-in slip. Staff need none.",
    )


def signer_field():
    """Who signs for the team, chosen by name: one of the two who sat for it this round (``SeatView.signer``)."""
    return forms.ChoiceField(
        widget=ChoiceButtons,
        label="I confirm this sheet",
        error_messages={
            "required": "Choose your name: the player who signs for the team.",
            "invalid_choice": "That name does not sign for the team this round: choose one of the names shown.",
        },
    )


class SignerChoices(VersionForm):
    """A team's signature: one of the two who sat for it this round (``signers``)."""

    player = signer_field()

    def __init__(self, *args: Any, signers: list[SeatView], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices_set(self, "player", _signer_choices(signers))


class SignForm(SignerChoices):
    """A team signs the sheet on the table's phone: a player and the team's code, unless this phone opened the
    team's page with it (``code_known``)."""

    pair = forms.ChoiceField(choices=Pair.choices(), widget=forms.HiddenInput)
    code = code_field()

    def __init__(self, *args: Any, code_known: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if code_known:
            del self.fields["code"]


class AcceptForm(forms.Form):
    """The other team accepts a hand with its code, on the same phone."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    code = code_field("Your team code")


class RemoveForm(VersionedForm):
    pass


class DisputeForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    pair = forms.ChoiceField(choices=Pair.choices(), widget=ChoiceButtons, label="Team calling the director")
    note = forms.CharField(max_length=250, label="What is disputed", widget=forms.TextInput)


class SettleForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(max_length=500, label="How it was settled")


class TeamCodeForm(forms.Form):
    code = forms.CharField(
        max_length=12,
        label="Your team code",
        widget=CodeInput(),
        help_text="The 6 characters on the slip your team was given at check-in.",
    )


class TeamSignForm(SignerChoices):
    """Signing on the team's own page: the page was opened with the team's code."""


class TeamRedealForm(SeatChoices, VersionForm):
    """A re-deal entered by one team in blind double entry."""

    dealer = forms.ChoiceField(widget=SeatButtons, label="Who dealt")
    redeal_reason = forms.ChoiceField(
        choices=RedealReason.choices(), widget=forms.RadioSelect, label="Why the cards are dealt again"
    )
    redeal_team = team_out_of_turn_field()


class SettleEntriesForm(forms.Form):
    """Staff choose which team's entry of a deal stands."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    keep = forms.ChoiceField(choices=Pair.choices(), widget=ChoiceButtons, label="The entry that stands")
    reason = forms.CharField(max_length=500, label="Why")

    def __init__(self, *args, entries=(), **kwargs):
        """``entries``: the teams' submissions, to name each choice by what the team entered."""
        super().__init__(*args, **kwargs)
        words = {entry.pair: entry.words for entry in entries}
        if words:
            self.fields["keep"].choices = [
                (pair, f"{label}: {words[pair]}" if pair in words else label) for pair, label in Pair.choices()
            ]
