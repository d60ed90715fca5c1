"""What people type, read one way: numbers in addresses are ASCII digits, and text the app shows is refused
when it would show as something else."""

import pytest

from tournament.errors import ServiceError
from tournament.typed import address_slug, text_checked, whole_number


@pytest.mark.parametrize(
    ("typed", "read"),
    [("7", 7), ("0012", 12), ("9999", 9999), ("12345", None), ("²", None), ("١٢", None), ("-1", None), ("1e3", None)],
)
def test_a_number_in_an_address_is_ascii_digits_only(typed, read):
    assert whole_number(typed, digits=4) == read


@pytest.mark.parametrize("typed", ["", " 7", "7\n", None])
def test_anything_else_is_no_number(typed):
    assert whole_number(typed, digits=4) is None


@pytest.mark.parametrize("typed", ["main-event", "spring_2026", "A1", "x" * 80])
def test_a_slug_in_an_address_is_the_pages_slug(typed):
    assert address_slug(typed) == typed


@pytest.mark.parametrize("typed", ["", "main\x00event", "\x00", "main event", "café", "a/b", "a.b", "x" * 81, None])
def test_anything_else_is_no_slug(typed):
    assert address_slug(typed) is None


def test_text_is_trimmed_and_its_spaces_made_one():
    assert text_checked("  Grand   Hotel ", what="The venue", limit=20) == "Grand Hotel"


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("Nul\x00Byte", "The venue holds a character that is not text."),
        ("\u202eletoH", "The venue holds an invisible character that reverses or hides text"),
        ("x" * 21, "The venue is longer than 20 characters."),
    ],
)
def test_text_that_would_show_as_something_else_is_refused_beside_its_field(typed, said):
    with pytest.raises(ServiceError) as refused:
        text_checked(typed, what="The venue", limit=20, field="venue")
    assert said in refused.value.message and refused.value.field == "venue"
