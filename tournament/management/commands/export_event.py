import json

from django.core.management.base import BaseCommand, CommandError

from tournament.models import Event
from tournament.services.archive import event_export


class Command(BaseCommand):
    help = "Write a whole event (rules, players, teams, rounds, hands, penalties, signatures, history) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("event_slug")

    def handle(self, *args, event_slug, **options):
        event = Event.objects.filter(slug=event_slug).first()
        if event is None:
            raise CommandError(f"There is no event {event_slug!r}.")
        self.stdout.write(json.dumps(event_export(event), indent=1, ensure_ascii=False))
