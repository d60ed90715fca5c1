"""Recompute every person's rating from scratch over all signed rounds; the same records give the same numbers."""

from django.core.management.base import BaseCommand

from tournament.services.log import Actor
from tournament.services.ratings import ratings_recompute, ratings_said


class Command(BaseCommand):
    help = "Recompute every person's Glicko-2 rating from all signed rounds, in the order played."

    def handle(self, *args, **options):
        rated = ratings_recompute(actor=Actor.command("ratings_recompute"))
        self.stdout.write(ratings_said(rated))
