"""The single error type of the rules engine."""


class ScoringError(ValueError):
    """An impossible input, worded for the scorekeeper who typed it."""
