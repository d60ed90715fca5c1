"""The refusals services raise, and the one way the engine's refusal becomes a service's."""

from collections.abc import Iterator
from contextlib import contextmanager

from scoring import ScoringError


class ServiceError(Exception):
    """A request the rules of the event refuse; the message is shown to the person who made it.

    ``field`` names the form field the message belongs beside, when there is one. ``about_the_form`` is false
    for a refusal about the whole page (it changed since it was loaded): said above the page, not in the form.
    """

    about_the_form = True

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class ImportRejected(ServiceError):
    """A file with problems; ``problems`` lists (line number, message) and nothing was imported."""

    def __init__(self, problems: list[tuple[int, str]]):
        super().__init__(f"The file has {len(problems)} problem(s); nothing was imported.")
        self.problems = problems


@contextmanager
def engine_refusal(field: str | None = None) -> Iterator[None]:
    """Run the engine: its refusal (``ScoringError``) is the service's, shown beside the field the engine names,
    else beside ``field``."""
    try:
        yield
    except ScoringError as error:
        raise ServiceError(str(error), field=error.field or field) from None
