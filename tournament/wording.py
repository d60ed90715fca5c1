"""Lists and numbers in messages that read as sentences: "tables 5, 6 and 7 have not signed"."""


def in_words(items) -> str:
    """ "5", "5 and 6", "5, 6 and 7"."""
    items = [str(item) for item in items]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def counted(count: int, one: str, many: str | None = None) -> str:
    """ "1 table", "3 tables"."""
    return f"{count} {one if count == 1 else many or one + 's'}"


def tables_phrase(numbers) -> str:
    """ "table 5", "tables 5, 6 and 7"."""
    numbers = list(numbers)
    return f"{'table' if len(numbers) == 1 else 'tables'} {in_words(numbers)}"


def have(numbers) -> str:
    return "has" if len(list(numbers)) == 1 else "have"
