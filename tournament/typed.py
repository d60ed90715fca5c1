"""What people type, read one way wherever it arrives (a form, an address's query, a command): text the app
stores and shows is refused when it holds control characters (PostgreSQL refuses NUL), characters that
reverse or hide what is shown, or more than its field holds; a number is ASCII digits only."""

import re
import unicodedata

from tournament.errors import ServiceError

# Characters that reorder or hide what is shown: right-to-left and left-to-right overrides, embeddings and
# isolates (a name could show as another team's on every page).
HIDDEN_FORMATTING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# The longest reason a change to a sheet keeps in its log (the longest the sheet's forms take).
REASON_LIMIT = 500


def text_problem(value: str, what: str, limit: int) -> str | None:
    """Why a typed text cannot be stored, or None."""
    if any(unicodedata.category(char) == "Cc" and not char.isspace() for char in value):
        return f"{what} holds a character that is not text."
    if any(char in HIDDEN_FORMATTING for char in value):
        return f"{what} holds an invisible character that reverses or hides text: type it plainly."
    if len(value) > limit:
        return f"{what} is longer than {limit} characters."
    return None


def text_checked(value: str, *, what: str, limit: int, field: str = "") -> str:
    """``value`` with its runs of spaces made one and its ends trimmed, or a refusal beside ``field``."""
    value = " ".join(value.split())
    problem = text_problem(value, what, limit)
    if problem:
        raise ServiceError(problem, field=field or None)
    return value


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
