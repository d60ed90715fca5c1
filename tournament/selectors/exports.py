"""What the exports read: every hand of a tournament."""

from django.db.models import Prefetch, QuerySet

from tournament.models import Hand, Round, Seating, Tournament
from tournament.selectors.prefetch import penalties


def tournament_hands(tournament: Tournament) -> QuerySet[Hand]:
    """Every hand of the tournament's published rounds, in play order, for the exports (fixed queries)."""
    return (
        Hand.objects.filter(table__round__tournament=tournament)
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("table__round", "table__playoff_match")
        .prefetch_related(penalties(), Prefetch("table__seatings", queryset=Seating.objects.select_related("team")))
        .order_by("table__round__number", "table__number", "sequence")
    )
