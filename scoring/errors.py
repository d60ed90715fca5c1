"""The single error type of the rules engine."""


class ScoringError(ValueError):
    """An impossible input, worded for the scorekeeper who typed it.

    ``field`` names the entry it concerns (``"dealer"``, ``"level"``, ``"books"``, ``"suit"``...) when
    there is one, so a form can show the message beside it.
    """

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.field = field
