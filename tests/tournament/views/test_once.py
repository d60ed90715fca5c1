"""Every form that adds or moves something, posted twice as it was drawn (a double tap, a slow network): taken
once, and the second post answered with what the first did. Every POST view of the app is walked, as the
refusals test walks them: a new view is either taken once here or said to be one that adds and moves nothing."""

import html
import re

import pytest
from django.apps import apps
from django.urls import reverse

from tests.tournament.views.test_refusals import field, text_of, url_names  # noqa: F401 (a fixture)
from tournament.models import FormPost, LogEntry
from tournament.services.money import money_settings_set


def state() -> dict:
    """Every record the app keeps, as it is (the tokens of forms aside)."""
    return {
        model.__name__: sorted(map(repr, model.objects.values_list()))
        for model in apps.get_app_config("tournament").get_models()
        if model is not FormPost
    }


def drawn_token(client, page: str, action: str) -> str:
    """The token of the form posting to ``action`` as ``page`` draws it (a form with no action posts to its
    page)."""
    content = client.get(page).content.decode()
    for form in re.findall(r"<form\b.*?</form>", content, flags=re.S):
        opening = form[: form.index(">")]
        target = re.search(r'\baction="([^"]*)"', opening)
        if 'method="post"' in opening and html.unescape(target.group(1) if target else page) == action:
            token = re.search(r'name="form_once" value="([^"]+)"', form)
            assert token, f"the form posting to {action} on {page} is drawn without its token"
            return token.group(1)
    raise AssertionError(f"{page} draws no form posting to {action}")


def assert_taken_once(client, page: str, action: str, data: dict):
    token = drawn_token(client, page, action)
    logged = LogEntry.objects.count()
    first = client.post(action, {**data, "form_once": token})
    assert first.status_code == 302, f"the first post was not taken: {first.status_code}"
    assert LogEntry.objects.count() > logged, "the first post wrote nothing: the case does not add or move"
    landed = text_of(client.get(first["Location"]).content.decode())
    assert "refused" not in landed.lower()
    kept = state()
    second = client.post(action, {**data, "form_once": token})
    assert state() == kept, "the second post changed what the first stored"
    assert second.status_code == 302 and second["Location"] == first["Location"]
    again = text_of(client.get(second["Location"]).content.decode())
    assert "Already recorded (the form was sent twice)" in again


@pytest.fixture
def desk(field):
    money_settings_set(
        tournament=field,
        entry_fee="50",
        side_pot_fee="20",
        house_percent="0",
        payout_percents="100",
        side_pot_rule="placing",
    )
    return field


def director_cases(tournament):
    slug = tournament.slug
    desk_page = reverse("director:desk", args=[slug])
    return {
        "payment_add": (
            desk_page,
            reverse("director:payment_add", args=[slug, 1]),
            {"amount": "150", "method": "cash", "pot": "entry", "q": ""},
        ),
    }


DIRECTOR_CASES = ["payment_add"]


@pytest.mark.parametrize("name", DIRECTOR_CASES)
def test_a_director_form_posted_twice_is_taken_once(director_client, desk, name):
    assert_taken_once(director_client, *director_cases(desk)[name])
