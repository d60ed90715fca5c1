import time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from bench.fields import across_build
from tournament.roles import DIRECTORS, role_groups_ensure
from tournament.services.ratings import ratings_recompute


class Rollback(Exception):
    """Leaves the benchmark's data out of the database."""


def _pages(series, tournaments, persons) -> list[tuple[str, bool, str]]:
    shown = next(person for person in persons if not person.hidden)
    tournament = tournaments[-1]
    return [
        ("person page", False, reverse("public:person", args=[shown.pk])),
        ("series standings", False, reverse("public:series", args=[series.slug])),
        ("statistics and awards", False, reverse("public:statistics", args=[tournament.slug])),
        ("projector", False, reverse("public:projector", args=[tournament.slug])),
        ("API person", False, f"/api/v1/persons/{shown.pk}"),
        ("API series", False, f"/api/v1/series/{series.slug}"),
        ("API statistics", False, f"/api/v1/tournaments/{tournament.slug}/statistics"),
        ("director: link an event's players", True, reverse("director:event_persons", args=[tournament.event.slug])),
        ("director: persons", True, reverse("director:persons")),
        ("director: series", True, reverse("director:series_edit", args=[series.slug])),
        ("director: series PDF", True, reverse("director:series_pdf", args=[series.slug])),
    ]


def _within(times: int):
    return lambda seconds, floor: (f"<= {times}x cold", seconds <= times * floor)


# Each page's goal rendered cold (issue figures: a season's pages at most 10 times the floor, a staff page 20, the
# series printed in under a second).
GOALS = {
    "person page": _within(10),
    "series standings": _within(10),
    "statistics and awards": _within(10),
    "API person": _within(10),
    "API series": _within(10),
    "API statistics": _within(10),
    "director: link an event's players": _within(20),
    "director: persons": _within(20),
    "director: series": _within(20),
    "director: series PDF": lambda seconds, floor: ("< 1 s", seconds < 1),
}


class Command(BaseCommand):
    help = (
        "Benchmark (not a test): the pages across events, first with 2 events of 8 teams, then with EVENTS more "
        "events of TEAMS teams whose players are the same persons (all in one series, every round signed), in a "
        "transaction rolled back at the end. Prints each page's queries at both sizes (the goal: the same) and "
        "its time rendered without a cache."
    )

    def add_arguments(self, parser):
        parser.add_argument("--events", type=int, default=50)
        parser.add_argument("--teams", type=int, default=512)

    def handle(self, *args, events, teams, **options):
        # Pages rendered every time, outside any shared cache; static files named without a collected manifest.
        caches = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        with override_settings(ALLOWED_HOSTS=["testserver"], CACHES=caches, STORAGES=storages):
            try:
                with transaction.atomic():
                    self._run(events, teams)
                    raise Rollback
            except Rollback:
                pass

    def _run(self, events: int, teams: int) -> None:
        director = get_user_model().objects.create_user(username=f"bench-across-{time.time_ns()}", is_staff=True)
        director.groups.add(role_groups_ensure()[DIRECTORS])
        client = Client()
        client.force_login(director)
        small = self._measure(client, across_build(events=2, teams=8, name="Bench small"))
        start = time.perf_counter()
        built = across_build(events=events, teams=teams, name="Bench large")
        built_in = time.perf_counter() - start
        start = time.perf_counter()
        rated = ratings_recompute()
        rated_in = time.perf_counter() - start
        self.stdout.write(
            f"{events} events of {teams} teams built in {built_in:.1f} s; ratings recomputed in {rated_in:.1f} s "
            f"({rated} persons rated)"
        )
        large = self._measure(client, built)
        floor = self._floor()
        self.stdout.write(f"the floor: the login page rendered in this process, median {floor * 1000:.1f} ms")
        width = max(len(name) for name in small)
        for name, (queries, _) in small.items():
            big_queries, seconds = large[name]
            verdict = "meets" if queries == big_queries else "misses"
            line = (
                f"{name.ljust(width)}  queries {queries} / {big_queries} at {events}x{teams}  "
                f"[goal fixed: {verdict}]  {seconds * 1000:.0f} ms rendered, {seconds / floor:.0f}x the floor"
            )
            if name in GOALS:
                goal, met = GOALS[name](seconds, floor)
                line += f"  [goal {goal}: {'meets' if met else 'misses'}]"
            self.stdout.write(line)

    def _floor(self) -> float:
        """The median time of the login page rendered here, as the pages are: what every figure is set against."""
        anonymous = Client()
        times = []
        for _ in range(21):
            start = time.perf_counter()
            assert anonymous.get("/login/", secure=True).status_code == 200
            times.append(time.perf_counter() - start)
        return sorted(times)[len(times) // 2]

    def _measure(self, client, built) -> dict[str, tuple[int, float]]:
        figures = {}
        for name, _, address in _pages(*built):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                response = client.get(address, secure=True)
                elapsed = time.perf_counter() - start
            assert response.status_code == 200, (address, response.status_code)
            figures[name] = (len(captured), elapsed)
        return figures
