import json
import time

from django.core.management.base import BaseCommand
from django.db import connection, transaction

from bench.fields import field_build, tournament_of_today
from tournament.factories import TeamFactory
from tournament.models import Event
from tournament.services.archive import event_export, event_import


class Rollback(Exception):
    """Leaves the benchmark's data out of the database."""


def _measured(call) -> tuple[float, float, int]:
    """Seconds (wall clock, and this process's CPU: the machine may be busy with others), and queries of
    ``call``, in a transaction rolled back afterwards."""
    queries = 0

    def counted(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    try:
        with transaction.atomic(), connection.execute_wrapper(counted):
            start, cpu = time.perf_counter(), time.process_time()
            call()
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
            raise Rollback
    except Rollback:
        return elapsed, cpu, queries


def _register(teams: int) -> None:
    tournament = tournament_of_today(f"Registration {teams}")
    TeamFactory.create_batch(teams, tournament=tournament, checked_in=False, label="P")


class Command(BaseCommand):
    help = (
        "Benchmark (not a test): registering teams one by one through the services, and importing an archive "
        "of a played 512-team tournament; prints seconds and queries. Nothing it makes is kept."
    )

    def add_arguments(self, parser):
        parser.add_argument("--sizes", default="512,2048", help="fields to register, comma-separated")
        parser.add_argument("--archive-teams", type=int, default=512)

    def handle(self, *args, sizes, archive_teams, **options):
        for teams in [int(size) for size in sizes.split(",")]:
            seconds, cpu, queries = _measured(lambda teams=teams: _register(teams))
            self.stdout.write(
                f"registering {teams} teams through team_register: {seconds:.1f} s ({cpu:.1f} s CPU here), "
                f"{seconds / teams * 1000:.2f} ms and {queries / teams:.1f} queries a team"
            )
        try:
            with transaction.atomic():
                tournament = field_build(teams=archive_teams, rounds=3, name="Archive")
                data = json.loads(json.dumps(event_export(tournament.event)))
                Event.objects.filter(pk=tournament.event_id).delete()
                seconds, cpu, queries = _measured(lambda: event_import(data=data))
                raise Rollback
        except Rollback:
            pass
        self.stdout.write(
            f"importing the archive of {archive_teams} teams, 3 played rounds: {seconds:.2f} s "
            f"({cpu:.2f} s CPU here), {queries} queries"
        )
