"""What people type, read one way: numbers in addresses are ASCII digits, and text the app shows is refused
when it would show as something else."""

import re

import pytest

from tournament.errors import ServiceError
from tournament.typed import address_slug, text_checked, text_shown, whole_number


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
        ("Nul\x00Byte", "The venue holds a character that is not text (U+0000)."),
        ("Esc\x1b[2J", "The venue holds a character that is not text (U+001B)."),
        ("\u202eletoH", "The venue holds an invisible character (U+202E RIGHT-TO-LEFT OVERRIDE) that reverses"),
        ("x" * 21, "The venue is longer than 20 characters."),
    ],
)
def test_text_that_would_show_as_something_else_is_refused_beside_its_field(typed, said):
    with pytest.raises(ServiceError) as refused:
        text_checked(typed, what="The venue", limit=20, field="venue")
    assert said in refused.value.message and refused.value.field == "venue"


# Every character that would reorder or hide what is shown, by its code point.
INVISIBLE = {
    "U+202A": "\u202a",  # left-to-right embedding
    "U+202B": "\u202b",
    "U+202C": "\u202c",
    "U+202D": "\u202d",
    "U+202E": "\u202e",  # right-to-left override
    "U+2066": "\u2066",  # left-to-right isolate
    "U+2067": "\u2067",
    "U+2068": "\u2068",
    "U+2069": "\u2069",
    "U+200E": "\u200e",  # left-to-right mark
    "U+200F": "\u200f",  # right-to-left mark
    "U+061C": "\u061c",  # Arabic letter mark
    "U+200B": "\u200b",  # zero-width space
    "U+2060": "\u2060",  # word joiner
    "U+FEFF": "\ufeff",  # byte order mark
    "U+00AD": "\u00ad",  # soft hyphen
    "U+3164": "\u3164",  # Hangul filler, a blank letter
    "U+E0041": "\U000e0041",  # tag letter A
}


@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("code", INVISIBLE)
def test_an_invisible_character_anywhere_is_refused_and_named(code, where):
    char = INVISIBLE[code]
    typed = {"start": char + "Ann Lee", "middle": "Ann" + char + " Lee", "end": "Ann Lee" + char}[where]
    with pytest.raises(ServiceError, match=re.escape(f"invisible character ({code}")) as refused:
        text_checked(typed, what="The name", limit=120, field="name")
    assert refused.value.field == "name"


@pytest.mark.parametrize(
    "typed",
    [
        "Ann\u200cLee",  # a joiner between ASCII letters only makes two names that look alike differ
        "\u200dآرش",  # at an end it joins nothing
        "آرش\u200c",
        "آرش\u200c Lee",
    ],
)
def test_a_joiner_where_no_script_needs_it_is_refused(typed):
    with pytest.raises(ServiceError, match="invisible character"):
        text_checked(typed, what="The name", limit=120)


@pytest.mark.parametrize(
    "typed",
    [
        "محمد علي",  # Arabic, right to left
        "דוד כהן",  # Hebrew
        "李小龙",
        "José Ñúñez-Øster",
        "Ελένη",
        "می\u200cخواهم",  # Persian: the non-joiner between two letters is part of the word
        "क्\u200dष",  # Devanagari: a joiner after the virama
        "Aces 👨\u200d👩\u200d👧",  # an emoji family is joined emoji
        "Team ♠♥",
    ],
)
def test_text_in_any_script_is_accepted_as_typed(typed):
    assert text_checked(typed, what="The name", limit=120) == typed


def test_text_shown_writes_each_refused_character_as_its_code_point():
    assert text_shown("adm\u202enimda\x1b") == "adm[U+202E]nimda[U+001B]"
    assert text_shown("می\u200cخواهم") == "می\u200cخواهم"
