import json

from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.management.commands.demo_build import DEMO_EVENT, DEMO_FIXTURE
from tournament.models import Event
from tournament.services.archive import event_import
from tournament.services.log import Actor


class Command(BaseCommand):
    help = (
        "Load the demo event from fixtures/demo-event.json (does nothing if it is there): a 1st tournament of "
        "8 teams played to a champion (three rounds and a four-team playoff), and a Main Event of 16 teams "
        "with two signed rounds and a third in play. Its tables get new private links."
    )

    @transaction.atomic
    def handle(self, *args, **options):
        if Event.objects.filter(name=DEMO_EVENT).exists():
            self.stdout.write("The demo event is already loaded.")
            return
        data = json.loads(DEMO_FIXTURE.read_text(encoding="utf-8"))
        event = event_import(data=data, as_copy=True, actor=Actor.command("seed_demo"))
        self.stdout.write(
            f"Loaded {event.name}: 1st tournament (8 teams, played to a champion) and Main Event (16 teams, "
            "rounds 1 and 2 signed, round 3 in play)."
        )
