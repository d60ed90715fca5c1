"""What the standings rank, stored: each team's record over the signed qualifying rounds."""

from django.db import models

from tournament.models.events import Tournament


class TeamRecords(models.Model):
    """Each team's record over the tournament's signed qualifying rounds (byes credited), kept by every change
    that can move it (``services.standings``), so the standings read one row and rank it rather than
    aggregating every signed sheet and hand on each rendering.

    ``records`` maps a team's id to its wins, losses, ties, points for, points against, hands won, bostons and
    byes; a team absent from it has none of them yet. ``meetings`` lists who met whom at a signed table and
    who won (``[north-south team, east-west team, winner or null]``), for the head-to-head criterion.
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="team_records")
    records = models.JSONField(default=dict)
    meetings = models.JSONField(default=list)

    def __str__(self):
        return f"Team records of {self.tournament}"
