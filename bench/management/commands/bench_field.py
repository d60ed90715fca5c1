import time

from django.core.management.base import BaseCommand

from bench.fields import field_build


class Command(BaseCommand):
    help = "Benchmark data (not for an event): a tournament of N teams with R played and signed rounds."

    def add_arguments(self, parser):
        parser.add_argument("--teams", type=int, default=512)
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--name", default="Scale")
        parser.add_argument("--hands", type=int, help="hands a round (the rules' default if not given)")

    def handle(self, *args, teams, rounds, name, hands, **options):
        start = time.perf_counter()
        tournament = field_build(teams=teams, rounds=rounds, name=name, hands=hands)
        self.stdout.write(
            f"{tournament.slug}: {teams} teams, {rounds} signed rounds in {time.perf_counter() - start:.1f} s"
        )
