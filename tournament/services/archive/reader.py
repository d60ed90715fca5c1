"""Reading the archive's plain data, refusing the first problem with its place in the file."""

from django.utils.dateparse import parse_date, parse_datetime

from tournament.errors import ServiceError


class Reader:
    """Reads the archive, refusing the first problem with its path in the file."""

    def __init__(self, data):
        self.data = data

    def fail(self, path: str, message: str):
        raise ServiceError(f"{path}: {message}")

    def mapping(self, value, path: str) -> dict:
        if not isinstance(value, dict):
            self.fail(path, "expected an object")
        return value

    def entries(self, parent: dict, key: str, path: str):
        """Each object of the list ``parent[key]``, with its place in the file: ("rounds[2]", {...})."""
        for index, item in enumerate(self.items(parent, key, path)):
            where = f"{path}.{key}[{index}]" if path else f"{key}[{index}]"
            yield where, self.mapping(item, where)

    def items(self, parent: dict, key: str, path: str) -> list:
        value = parent.get(key)
        if not isinstance(value, list):
            self.fail(f"{path}.{key}", "expected a list")
        return value

    def field(self, parent: dict, key: str, path: str, kind, *, required=True, choices=None, low=None, high=None):
        where = f"{path}.{key}" if path else key
        if key not in parent:
            if required:
                self.fail(where, "missing")
            return None
        value = parent[key]
        if value is None and not required:
            return None
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            self.fail(where, f"expected a whole number, not {value!r}")
        if kind is bool and not isinstance(value, bool):
            self.fail(where, f"expected true or false, not {value!r}")
        if kind is str and not isinstance(value, str):
            self.fail(where, f"expected text, not {value!r}")
        if kind == "date":
            if not isinstance(value, str) or parse_date(value) is None:
                self.fail(where, f"expected a date like 2026-07-10, not {value!r}")
            return parse_date(value)
        if kind == "datetime":
            parsed = parse_datetime(value) if isinstance(value, str) else None
            if parsed is None:
                self.fail(where, f"expected a date and time, not {value!r}")
            return parsed
        if choices is not None and value not in choices:
            self.fail(where, f"{value!r} is not one of {', '.join(map(str, choices))}")
        if (low is not None and value < low) or (high is not None and value > high):
            self.fail(where, f"{value} is outside {low} to {high}")
        return value
