"""The public, read-only JSON API (docs at /api/v1/docs)."""

from tournament.api import across  # noqa: F401 (registers the answers across events)
from tournament.api.routes import api

__all__ = ["api"]
