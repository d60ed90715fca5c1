"""Keeping the stored team records (``TeamRecords``) equal to what the signed sheets give, change by change."""

from django.db import transaction
from django.db.models import Q

from tournament.models import Event, Round, Seating, Table, Team, TeamRecords, Tournament
from tournament.selectors.standings import team_meetings, team_tallies


@transaction.atomic
def standings_store(*, tournament: Tournament, team_ids=None) -> None:
    """Store the tallies and meetings of the teams of ``team_ids`` as the sheets give them now; all of the
    tournament's when ``team_ids`` is None or nothing is stored yet. Runs in the change's transaction, after
    the change."""
    stored = TeamRecords.objects.select_for_update().filter(tournament=tournament).first()
    if stored is None or team_ids is None:
        records = {str(team_id): tally for team_id, tally in team_tallies(tournament).items()}
        TeamRecords.objects.update_or_create(
            tournament=tournament, defaults={"records": records, "meetings": team_meetings(tournament)}
        )
        return
    team_ids = set(team_ids)
    if not team_ids:
        return
    tallies = team_tallies(tournament, team_ids)
    for team_id in team_ids:
        if team_id in tallies:
            stored.records[str(team_id)] = tallies[team_id]
        else:
            stored.records.pop(str(team_id), None)
    kept = [meeting for meeting in stored.meetings if meeting[0] not in team_ids and meeting[1] not in team_ids]
    stored.meetings = kept + team_meetings(tournament, team_ids)
    stored.save(update_fields=["records", "meetings"])


def standings_after_change(
    *, event: Event | None, tournament: Tournament | None, table: Table | None, team: Team | None
) -> None:
    """After a logged change that can move the results: store again the tallies it can touch. A change to a
    qualifying sheet touches its two teams and the byes and forfeits of its round (credited once the round is
    signed); a change to one team, that team; anything else (rules, draws, an import), the whole tournament, or every
    tournament of the event when none is named."""
    if table is not None:
        if table.round.kind != Round.Kind.QUALIFYING:
            return
        seated = Seating.objects.filter(
            Q(table=table) | Q(table__isnull=True) | ~Q(table__forfeit=""), round_id=table.round_id
        )
        touched = set(seated.values_list("team_id", flat=True))
        standings_store(tournament=tournament or table.round.tournament, team_ids=touched)
    elif team is not None:
        standings_store(tournament=tournament or team.tournament, team_ids={team.pk})
    elif tournament is not None:
        standings_store(tournament=tournament)
    elif event is not None:
        for each in Tournament.objects.filter(event=event):
            standings_store(tournament=each)
