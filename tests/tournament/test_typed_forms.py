"""Every form field a person types free text into, walked: a text holding a character that reverses or hides what
is shown (or ESC) is refused, said on the page the person lands on (beside the field when the page draws the form
again), and nothing is stored. Runs on SQLite and on PostgreSQL. The services' own refusals are in
tests/tournament/services/test_typed_text.py; the check itself in tests/tournament/test_typed.py."""

import importlib

import pytest
from django import forms
from django.apps import apps
from django.db import models
from django.urls import reverse

from tests.tournament.services.test_money import finished, settings  # noqa: F401 (fixture)
from tests.tournament.services.test_money_corrections import finished_and_paid
from tests.tournament.services.test_playoffs import qualified  # noqa: F401 (fixture)
from tests.tournament.test_hostile_input import director_forms, field, field_played, table_forms, version  # noqa: F401
from tournament.forms.money import AmountInput
from tournament.forms.table import CodeInput
from tournament.models import LogEntry, Payment, Table
from tournament.services.money import payment_record

# Each refused in its own way: a right-to-left override, an isolate, ESC, a zero-width space, a byte order mark,
# a right-to-left mark.
REFUSED = ["\u202e", "\u2066", "\x1b", "\u200b", "\ufeff", "\u200f"]

# Every free-text field of the app's forms: who posts it, to which of the posts below, under which name.
TEXT_FIELDS = {
    "EventForm.name": ("director", "event_create", "name"),
    "EventForm.venue": ("director", "event_edit", "venue"),
    "TournamentForm.name": ("director", "tournament_edit", "name"),
    "TournamentCreateForm.name": ("director", "tournament_create", "name"),
    **{
        f"{form}.{name}": ("director", post, name)
        for form, post in (("TeamForm", "team_edit"), ("TeamRegisterForm", "team_create"))
        for name in (
            "player1_name",
            "player1_city",
            "player1_phone",
            "player2_name",
            "player2_city",
            "player2_phone",
            "name",
            "city",
        )
    },
    "AnnouncementForm.text": ("director", "announcements", "text"),
    "RefundForm.reason": ("director", "refund_add", "reason"),
    "PersonForm.name": ("director", "person_edit", "name"),
    "PersonForm.city": ("director", "person_edit", "city"),
    "SeriesForm.name": ("director", "series_create", "name"),
    "TimeCallForm.reason": ("table", "time_call_lift", "reason"),
    # A correction's reason is asked for on a signed sheet.
    "VersionedForm.reason": ("signed", "signed_hand_remove", "reason"),
    "RemoveForm.reason": ("signed", "signed_hand_remove", "reason"),
    "HandForm.reason": ("signed", "signed_hand_edit", "hand-reason"),
    "RedealForm.note": ("signed", "signed_redeal", "redeal-note"),
    "FirstDealerForm.reason": ("table", "first_dealer", "first-reason"),
    "PenaltyForm.reason": ("table", "penalty", "penalty-reason"),
    "DisputeForm.note": ("table", "dispute", "dispute-note"),
    "SettleForm.reason": ("table", "settle", "settle-reason"),
    "SettleEntriesForm.reason": ("table", "entries_settle", "entries-reason"),
}
# Text a form reads as something else, or never passes on: never stored as typed.
NOT_STORED = {
    "DrawForm.pairs": "read as team numbers",
    "MoneySettingsForm.payout_percents": "read as percentages",
    "TeamHandForm.reason": "a team's own entry of a hand is never a correction: no reason is passed on",
}
# Fields posted without a form class (the live view's and the desk's small forms).
POSTED = [
    ("director", "sit_out", "reason"),
    ("director", "substitute_add", "name"),
    ("director", "substitute_add", "reason"),
    ("director", "table_forfeit", "reason"),
    ("director", "forfeit_undo", "reason"),
]
WALKED = sorted({*TEXT_FIELDS.values(), *POSTED})
# The desk's corrections, posted on a finished tournament whose prizes are paid: which post, under which name.
MONEY_FIELDS = {
    "ReasonForm.reason": ("payment_void", "reason"),
    "PaymentMoveForm.reason": ("payment_move", "reason"),
    "HandOverForm.signed_by": ("payout_confirm", "signed_by"),
}
MONEY_WALKED = sorted({*MONEY_FIELDS.values(), ("payout_undo", "reason")})


def form_text_fields() -> set[str]:
    """Every CharField of the app's forms that takes free text (not an amount, not a team code)."""
    found = set()
    for module in ("clock", "director", "money", "persons", "table"):
        module = importlib.import_module(f"tournament.forms.{module}")
        for form in vars(module).values():
            if isinstance(form, type) and issubclass(form, forms.Form) and form.__module__ == module.__name__:
                found |= {
                    f"{form.__name__}.{name}"
                    for name, field in form.base_fields.items()
                    if isinstance(field, forms.CharField) and not isinstance(field.widget, AmountInput | CodeInput)
                }
    return found


def test_every_free_text_field_of_every_form_is_walked():
    """A text field added to a form must be added here too."""
    assert form_text_fields() == set(TEXT_FIELDS) | set(MONEY_FIELDS) | set(NOT_STORED)


def posts(tournament):
    """Where each walked field is posted, with the rest of its form filled in as a person would."""
    busy, done = Table.objects.filter(round__tournament=tournament).order_by("number")
    hand = {key: value for key, value in table_forms(tournament)["hand_edit"][1].items() if key != "hand-version"}
    extra = {
        "signed_hand_edit": (
            reverse("table_hand_edit", args=[done.secret, 1]),
            {**hand, "hand-version": version(done), "hand-books": "7"},
        ),
        "signed_hand_remove": (reverse("table_hand_remove", args=[done.secret, 1]), {"version": version(done)}),
        "signed_redeal": (
            reverse("table_redeal", args=[done.secret]),
            {"redeal-version": version(done), "redeal-dealer": "N", "redeal-reason": "misdeal"},
        ),
        "time_call_lift": (reverse("table_time_call_lift", args=[busy.secret]), {"version": version(busy)}),
        "forfeit_undo": (
            reverse("director:table_forfeit", args=[tournament.slug, 1, busy.number]),
            {"undo": "1", "reason": "Came back"},
        ),
    }
    return {**director_forms(tournament), **table_forms(tournament), **extra}


def stored_with(char: str) -> list[str]:
    """Every text column of the app's records holding ``char``."""
    return [
        f"{model.__name__}.{column.name}"
        for model in apps.get_app_config("tournament").get_models()
        for column in model._meta.concrete_fields
        if isinstance(column, models.CharField | models.TextField)
        and model._default_manager.filter(**{f"{column.name}__contains": char}).exists()
    ]


def beside(response, key: str) -> list[str] | None:
    """The refusals the page draws beside the field posted as ``key``, when it draws that field's form again
    (else None: the page says the refusal at its top)."""
    for context in response.context or []:
        for value in context.flatten().values():
            if isinstance(value, forms.Form) and value.is_bound:
                name = key.removeprefix(f"{value.prefix}-") if value.prefix else key
                if name in value.fields:
                    return value.errors.get(name, [])
    return None


@pytest.mark.parametrize(("who", "post", "key"), WALKED, ids=["-".join(walked[1:]) for walked in WALKED])
def test_a_typed_text_that_hides_or_reverses_is_refused_and_nothing_is_stored(
    client,
    director,
    scorekeeper,
    sheet,
    field,  # noqa: F811
    who,
    post,
    key,
):
    if who == "signed":
        sheet.sign_both(Table.objects.filter(round__tournament=field).order_by("number").last())
    client.force_login(director if who == "director" else scorekeeper)
    for char in REFUSED:
        url, base = posts(field)[post]
        log_before = LogEntry.objects.count()
        response = client.post(url, {**base, key: f"Ann{char}Lee"}, follow=True)
        page = response.content.decode()
        assert response.status_code in (200, 400), "the page, or a refused form's own page"
        assert "reverses or hides text" in page or "not text (U+001B)" in page, (post, key, hex(ord(char)))
        assert f"U+{ord(char):04X}" in page, "the refusal names the character"
        said = beside(response, key)
        assert said is None or any(f"U+{ord(char):04X}" in error for error in said), "beside its field"
        assert LogEntry.objects.count() == log_before, "nothing is logged"
    assert not any(stored_with(char) for char in REFUSED), "nothing is stored"


@pytest.mark.parametrize(("post", "key"), MONEY_WALKED, ids=["-".join(walked) for walked in MONEY_WALKED])
def test_a_typed_text_at_the_desks_corrections_is_refused_and_nothing_is_stored(
    client,
    director,
    finished,  # noqa: F811
    sheet,
    post,
    key,
):
    tournament = finished_and_paid(finished, sheet)
    team = tournament.teams.get(number=4)
    payment = payment_record(team=team, amount="40")
    prize = tournament.payouts.order_by("pk").first()
    urls = {
        "payment_void": (reverse("director:payment_void", args=[tournament.slug, 4, payment.pk]), {}),
        "payment_move": (
            reverse("director:payment_move", args=[tournament.slug, 4, payment.pk]),
            {"team": "5", "pot": "entry"},
        ),
        "payout_undo": (reverse("director:payout_undo", args=[tournament.slug, prize.pk]), {}),
        "payout_confirm": (reverse("director:payout_confirm", args=[tournament.slug, prize.pk]), {}),
    }
    client.force_login(director)
    url, base = urls[post]
    for char in REFUSED:
        log_before = LogEntry.objects.count()
        page = client.post(url, {**base, key: f"Ann{char}Lee"}, follow=True).content.decode()
        assert f"U+{ord(char):04X}" in page, "the refusal names the character"
        assert LogEntry.objects.count() == log_before, "nothing is logged"
    assert Payment.objects.get(pk=payment.pk).voided_at is None
    prize.refresh_from_db()
    assert prize.confirmed_at is None
    assert tournament.payouts.filter(pk=prize.pk).exists(), "the prize is still paid"
    assert not any(stored_with(char) for char in REFUSED), "nothing is stored"
