"""The prefetches pages share, so a page's query count does not grow with the field."""

from django.db.models import Prefetch

from tournament.models import Penalty, Seating, TeamMember


def members(path: str = "memberships") -> Prefetch:
    """A team's two players in seat order; ``path`` leads from the records fetched to their team's members."""
    return Prefetch(path, queryset=TeamMember.objects.select_related("player").order_by("position"))


def seatings() -> Prefetch:
    """A table's (or round's) seatings with each team and its players."""
    return Prefetch(
        "seatings", queryset=Seating.objects.select_related("team").prefetch_related(members("team__memberships"))
    )


def penalties() -> Prefetch:
    """A hand's penalties in the order they were entered."""
    return Prefetch("penalties", queryset=Penalty.objects.order_by("created_at", "pk"))
