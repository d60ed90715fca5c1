"""The action log as the director reads it: a tournament's entries, narrowed to a round or a team."""

from django.db.models import Q, QuerySet

from tournament.models import LogEntry, Team, Tournament


def log_entries(
    tournament: Tournament, *, round_number: int | None = None, team: Team | None = None
) -> QuerySet[LogEntry]:
    """Newest first. A team's entries are those about the team and those of the tables it played at."""
    entries: QuerySet[LogEntry] = LogEntry.objects.filter(tournament=tournament).select_related(
        "team", "table__round", "table__playoff_match"
    )
    if round_number is not None:
        entries = entries.filter(round_number=round_number)
    if team is not None:
        entries = entries.filter(Q(team=team) | Q(table__seatings__team=team)).distinct()
    return entries.order_by("-created_at", "-pk")
