import time

from django.core.management.base import BaseCommand
from django.db import transaction

from bench.fields import tournament_of_today
from tournament.factories import TeamFactory
from tournament.printing import round_sheets_pdf
from tournament.services.draws import round_draw, round_publish

BASE_URL = "http://192.168.1.20:8000/"


class Command(BaseCommand):
    help = (
        "Benchmark (not a test): time the blank score sheets PDF of a round of N tables against WeasyPrint's "
        "time for a one-page document of the same template (the floor). Builds its data in a transaction it "
        "rolls back, so the database is left as it was."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=int, default=128)
        parser.add_argument("--repeat", type=int, default=3, help="take the best of this many runs")

    def handle(self, *args, tables, repeat, **options):
        with transaction.atomic():
            big = self._round(tables, "Benchmark field")
            small = self._round(1, "Benchmark floor")
            floor = min(self._time(small) for _ in range(repeat))
            total = min(self._time(big) for _ in range(max(1, repeat - 1)))
            transaction.set_rollback(True)
        per_page = total / tables
        ratio = per_page / floor
        self.stdout.write(f"one-page document (floor): {floor:.3f} s")
        self.stdout.write(f"{tables} tables: {total:.2f} s in all, {per_page:.3f} s per page, {ratio:.2f} x the floor")
        goal_ratio, goal_seconds = 1.5, 0.1
        verdict = "meets" if ratio <= goal_ratio and per_page < goal_seconds else "misses"
        self.stdout.write(f"goal (at most {goal_ratio} x the floor and under {goal_seconds} s per page): {verdict}")

    def _round(self, tables: int, name: str):
        tournament = tournament_of_today(name)
        TeamFactory.create_batch(2 * tables, tournament=tournament, label="Bench")
        return round_publish(round=round_draw(tournament=tournament, method="random", seed=1))

    def _time(self, round_) -> float:
        start = time.perf_counter()
        round_sheets_pdf(round_, blank=True, base_url=BASE_URL)
        return time.perf_counter() - start
