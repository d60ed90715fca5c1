"""What people type, read one way wherever it arrives (a form, an address's query, a command, a file): text the
app stores and shows is refused when it holds control characters (ESC; PostgreSQL refuses NUL), invisible
characters that reorder or hide what is shown, or more than its field holds; a number is ASCII digits only.

Text in every script is accepted (Arabic and Hebrew, which read right to left, CJK, accents, emoji). Refused
as invisible: every format character (Unicode category Cf: the bidirectional overrides, embeddings, isolates
and marks, zero-width spaces, the byte order mark, the soft hyphen, tag characters) and the blank letters
(Hangul fillers). The zero-width non-joiner and joiner are the exception where a script needs them: between two
characters of a script other than ASCII (Persian words, Indic conjuncts, emoji sequences such as a family),
never at an end nor beside ASCII, where they would only make two names that look the same differ."""

import re
import unicodedata

from tournament.errors import ServiceError

# Letters that show as nothing (Hangul fillers, the combining grapheme joiner, Khmer's inherent vowels).
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u034f\u17b4\u17b5")
JOINERS = frozenset("\u200c\u200d")
# The longest reason a change to a sheet keeps in its log (the longest the sheet's forms take).
REASON_LIMIT = 500


def _joins(value: str, index: int) -> bool:
    """Whether the joiner at ``index`` sits between two characters of a script that needs it."""
    if not 0 < index < len(value) - 1:
        return False
    return all(
        not neighbour.isascii() and unicodedata.category(neighbour)[0] in "LMS"
        for neighbour in (value[index - 1], value[index + 1])
    )


def _not_text(char: str) -> bool:
    """A control character other than a space (NUL, ESC, DEL...), or half of a surrogate pair."""
    return unicodedata.category(char) in ("Cc", "Cs") and not char.isspace()


def _hidden(value: str, index: int) -> bool:
    """Whether the character at ``index`` shows as nothing, or changes how the text around it is shown."""
    char = value[index]
    if char in JOINERS:
        return not _joins(value, index)
    return unicodedata.category(char) == "Cf" or char in BLANK_LETTERS


def code_point(char: str) -> str:
    """A character as its code point and name: "U+202E RIGHT-TO-LEFT OVERRIDE"."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def characters_problem(value: str, what: str) -> str | None:
    """Why a text holds what cannot be shown as typed, or None (its length aside)."""
    for char in value:
        if _not_text(char):
            return f"{what} holds a character that is not text ({code_point(char)})."
    for index, char in enumerate(value):
        if _hidden(value, index):
            return (
                f"{what} holds an invisible character ({code_point(char)}) that reverses or hides text: "
                "type it plainly."
            )
    return None


def text_problem(value: str, what: str, limit: int) -> str | None:
    """Why a typed text cannot be stored, or None."""
    too_long = f"{what} is longer than {limit} characters." if len(value) > limit else None
    return characters_problem(value, what) or too_long


def text_checked(value: str, *, what: str, limit: int, field: str = "") -> str:
    """``value`` with its runs of spaces made one and its ends trimmed, or a refusal beside ``field``: the one
    check of every text a person types (names, cities, reasons, notes, announcements)."""
    value = " ".join(value.split())
    problem = text_problem(value, what, limit)
    if problem:
        raise ServiceError(problem, field=field or None)
    return value


def text_shown(value: str) -> str:
    """Text as it may be shown, whoever typed it (a login name tried by a stranger is stored as typed): each
    character the check refuses written as its code point in brackets, "adm[U+202E]in", so nothing is hidden
    or reordered."""
    if value.isascii() and value.isprintable():
        return value  # the common case, read at C speed: printable ASCII holds nothing hidden
    return "".join(
        f"[U+{ord(char):04X}]" if _not_text(char) or _hidden(value, index) else char for index, char in enumerate(value)
    )


def whole_number(value: str, *, digits: int) -> int | None:
    """``value`` as a whole number of 1 to ``digits`` ASCII digits, else None: "²" and "٣" pass ``isdigit()``
    yet are no number ``int()`` reads, and a query's length is the sender's to choose."""
    return int(value) if re.fullmatch(rf"[0-9]{{1,{digits}}}", value or "") else None


def address_slug(value: str) -> str | None:
    """A slug typed in an address as the pages' addresses take one (ASCII letters, digits, "-" and "_", at most as
    long as a stored slug), else None: NUL, which PostgreSQL refuses in a query, never reaches one."""
    return value if re.fullmatch(r"[-a-zA-Z0-9_]{1,80}", value or "") else None


def number_within(value: str, *, low: int, high: int, default: int) -> int:
    """A setting typed in an address (?seconds=, ?quiet=): brought within ``low`` to ``high``, or ``default``
    when it is no whole number of at most as many digits as ``high``."""
    number = whole_number(value, digits=len(str(high)))
    return default if number is None else min(max(number, low), high)
