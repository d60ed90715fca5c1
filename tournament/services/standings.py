"""Keeping the stored team records (``TeamRecords``) equal to what the signed sheets give, change by change."""

from collections.abc import Iterable

from django.db import transaction

from tournament.models import TeamRecords, Tournament
from tournament.selectors.standings import team_meetings, team_tallies


@transaction.atomic
def standings_store(*, tournament: Tournament, team_ids: Iterable[int] | None = None) -> None:
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
