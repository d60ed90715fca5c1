"""Reading an archive: its JSON parsed and checked against the schema (``schema.py``) before anything is loaded.

A file too large, too deep, not JSON or not of the schema is refused at its first problem, named by its place in
the file.
"""

import json
from typing import Any

from pydantic import ValidationError

from tournament.errors import ServiceError
from tournament.services.archive import schema

MAX_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 40
MAX_VALUES = 5_000_000


def archive_parse(raw: bytes | str) -> Any:
    """The archive's JSON, refused plainly when it is not JSON, too large or too deeply nested."""
    if len(raw) > MAX_BYTES:
        raise ServiceError(f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB: not an event archive.")
    try:
        return json.loads(raw)
    except json.JSONDecodeError as error:
        raise ServiceError(f"The file is not JSON: line {error.lineno}, column {error.colno}: {error.msg}.") from None
    except (RecursionError, UnicodeDecodeError, ValueError):
        raise ServiceError("The file is not JSON an event archive can hold (too deeply nested, or not text).") from None


def _shape_check(data: Any) -> None:
    """Refuse input nested deeper or larger than any archive, or text no database keeps (a NUL character),
    before reading it (without recursion)."""
    pending, seen = [(data, 1)], 0
    while pending:
        value, depth = pending.pop()
        seen += 1
        if depth > MAX_DEPTH or seen > MAX_VALUES:
            raise ServiceError("The file is nested too deeply or is too large to be an event archive.")
        if isinstance(value, str) and "\x00" in value:
            raise ServiceError("The file's text holds a NUL character, which no archive written here has.")
        if isinstance(value, dict):
            pending.extend((key, depth + 1) for key in value)
            pending.extend((item, depth + 1) for item in value.values())
        elif isinstance(value, list):
            pending.extend((item, depth + 1) for item in value)


def _where(location: tuple) -> str:
    """A pydantic error's place as the archive's path: tournaments[0].rounds[1].tables[0].hands[2].books."""
    path = ""
    for part in location:
        if isinstance(part, int):
            path += f"[{part}]"
        elif part.replace("_", "").isalpha():
            path += f".{part}" if path else part
    return path or "(file)"


def archive_checked(data: Any) -> schema.Archive:
    """The archive's document checked against the schema, refused at its first problem, named by its place."""
    if not isinstance(data, dict):
        raise ServiceError("(file): expected an object: this is not a Bid Whist event archive")
    if data.get("format") != schema.FORMAT:
        raise ServiceError(f"format: expected {schema.FORMAT!r}: this is not a Bid Whist event archive")
    if data.get("version") not in schema.READS:
        versions = ", ".join(map(str, schema.READS))
        raise ServiceError(f"version: this app reads versions {versions}, not {data.get('version')!r}")
    _shape_check(data)
    try:
        return schema.Archive.model_validate(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        message = "not a key of the archive (a typo?)" if first["type"] == "extra_forbidden" else first["msg"]
        raise ServiceError(f"{_where(first['loc'])}: {message}") from None
