class ServiceError(Exception):
    """A request the rules of the event refuse; the message is shown to the person who made it.

    ``field`` names the form field the message belongs beside, when there is one.
    """

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class ImportRejected(ServiceError):
    """A file with problems; ``problems`` lists (line number, message) and nothing was imported."""

    def __init__(self, problems: list[tuple[int, str]]):
        super().__init__(f"The file has {len(problems)} problem(s); nothing was imported.")
        self.problems = problems
