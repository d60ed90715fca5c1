"""Addresses of a page's many rows from one route reversed once: below the views, so listings
(``tournament.tables``) and templates share it."""

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString


class Addresses:
    """One route's addresses for each of a page's many rows (a round's 256 tables, a desk's 512 teams), reversed
    once: ``of(*parts)`` gives the address whose last ``parts`` arguments are those (``{{ addresses|address_of:part }}``
    in a template), escaped for an ``href``. One ``reverse`` a row cost more than the rest of the row."""

    MARK = 987654321

    def __init__(self, name: str, *args, parts: int = 1):
        marks = [str(self.MARK + i) for i in range(parts)]
        rest = reverse(name, args=[*args, *map(int, marks)])
        self.afters: list[str] = []
        for mark in reversed(marks):
            rest, _, after = rest.rpartition(mark)
            self.afters.insert(0, escape(after))
        self.before = escape(rest)

    def of(self, *parts) -> SafeString:
        return SafeString(
            self.before + "".join(f"{escape(part)}{after}" for part, after in zip(parts, self.afters, strict=True))
        )
