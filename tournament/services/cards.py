"""Table cards: one per table number, printed once and left on the table for the whole event."""

from django.db import transaction
from django.db.models import Count, Max

from tournament.errors import ServiceError
from tournament.models import Table, TableCard, Tournament

MAX_TABLE_NUMBER = 999


def table_card_count(tournament: Tournament) -> int:
    """How many tables the tournament needs: the most any drawn round uses, else one per two active teams."""
    drawn = Table.objects.filter(round__tournament=tournament).aggregate(highest=Max("number"))["highest"] or 0
    teams = tournament.teams.filter(withdrawn=False).aggregate(n=Count("pk"))["n"]
    return max(drawn, (teams + 1) // 2)


@transaction.atomic
def table_cards_issue(*, tournament: Tournament, count: int | None = None) -> list:
    """The cards for tables 1 to ``count`` (by default as many as the tournament needs), making the missing
    ones; cards already printed keep their links."""
    count = table_card_count(tournament) if count is None else count
    if count == 0:
        raise ServiceError("There are no tables yet: register the teams (or draw a round) first.")
    if not 1 <= count <= MAX_TABLE_NUMBER:
        raise ServiceError(f"Print cards for 1 to {MAX_TABLE_NUMBER} tables.", field="count")
    have = set(tournament.table_cards.values_list("number", flat=True))
    TableCard.objects.bulk_create(
        [TableCard(tournament=tournament, number=n) for n in range(1, count + 1) if n not in have]
    )
    return list(tournament.table_cards.filter(number__lte=count).order_by("number"))
