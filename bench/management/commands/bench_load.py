import http.client
import json
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bench.phone import FormPhone, hand_fields, phone_open
from tournament.management.gunicorn import gunicorn_serving

HANDS = 20
RESEND = 0.05
TIMEOUT = 30
WARM_UP = 15
DEALERS = ["N", "E", "S", "W"]
LONE = 12  # hands one table saves before the load starts, alone: the floor each phase is compared with
LONE_WARM = 4  # saved first and not timed: each of gunicorn's workers past its first requests
FORM_GOAL = 10  # the form path's p95 under load at most this many times a lone save's


@dataclass
class Phase:
    name: str
    spectators: int
    saves: list = field(default_factory=list)
    polls: list = field(default_factory=list)
    hits: int = 0
    renders: int = 0
    stale: int = 0
    timeouts: int = 0
    errors: list = field(default_factory=list)


class Command(BaseCommand):
    help = (
        "Load benchmark (not a test): the tables of a round save a hand every --think seconds on average through "
        "gunicorn as the venue runs it (gunicorn.conf.py), first alone (phase A), then while 200 and then 500 "
        "spectators poll the standings every 15 s with If-None-Match (phases B). Prints the saves' p50/p95/p99 at "
        "the phone per phase and B/A, the polls' latency, the cache's hit rate and timeouts, and checks that every "
        "acknowledged save is stored exactly once with its values. It writes nothing it did not create: on SQLite "
        "in a temporary folder (the database is the cache), or on PostgreSQL in a database it creates under a new "
        "name on the --postgres server and drops at the end; in the --cache-url cache (Redis) under a key prefix of "
        "its own, whose keys alone it deletes at the end (it never empties the Redis database); gunicorn on a free "
        "port found at run time unless --port names one."
    )

    def add_arguments(self, parser):
        parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
        parser.add_argument(
            "--postgres",
            default="postgres://postgres@127.0.0.1:5432/postgres",
            help="a PostgreSQL server and a database to connect to there, only to create and drop the run's own",
        )
        parser.add_argument(
            "--cache-url",
            default="",
            help="CACHE_URL for the run (e.g. redis://127.0.0.1:6379/0), used under the run's own key prefix; "
            "the database's if not given",
        )
        parser.add_argument(
            "--path",
            choices=["queue", "form"],
            default="queue",
            help="queue: the phone's script posts each hand to the queue's address; form: no JavaScript, the hand "
            "form posted, the check page confirmed and the sheet opened again after each save",
        )
        parser.add_argument("--teams", type=int, default=512)
        parser.add_argument("--port", type=int, help="gunicorn's port (a free one if not given)")
        parser.add_argument("--think", type=float, default=10.0, help="mean seconds between a phone's hands")
        parser.add_argument("--seconds", type=float, default=40.0, help="length of each phase")
        parser.add_argument("--spectators", default="200,500", help="spectators of each phase B")
        parser.add_argument("--poll", type=float, default=15.0, help="seconds between a spectator's polls")
        parser.add_argument(
            "--change",
            type=float,
            default=10.0,
            help="seconds between changes to the standings (as a sheet signed somewhere), each one rendered again",
        )

    def handle(self, *args, path, **options):
        database, postgres, cache_url, port = (options[key] for key in ("database", "postgres", "cache_url", "port"))
        teams, think, seconds, spectators, poll, change = (
            options[key] for key in ("teams", "think", "seconds", "spectators", "poll", "change")
        )
        self.path = path
        crowds = [int(n) for n in spectators.split(",") if n.strip()]
        run_name = f"bench_load_{os.getpid()}_{secrets.token_hex(4)}"
        with tempfile.TemporaryDirectory() as folder:
            if database == "sqlite":
                url, drop = f"sqlite:///{Path(folder) / 'load.sqlite3'}", None
            else:
                url, drop = self._postgres_database(postgres, run_name)
            try:
                self._run(url, folder, teams, port, think, seconds, crowds, poll, change, database, cache_url, run_name)
            finally:
                if cache_url.startswith(("redis://", "rediss://")):
                    self._redis_keys_delete(cache_url, run_name)
                if drop:
                    drop()

    def _redis_keys_delete(self, cache_url: str, prefix: str) -> None:
        """Delete the run's keys (``prefix:...``, as Django's cache names them), and no other."""
        import redis

        client = redis.Redis.from_url(cache_url)
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.delete(*keys[start : start + 1000])
        self.stdout.write(f"  cache: {len(keys)} keys of this run deleted from {cache_url}")

    def _postgres_database(self, admin_url: str, name: str):
        """A database made for the run under a name no other has (CREATE DATABASE fails on one that exists, so
        none is reused), and its drop."""
        import psycopg

        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')

        def drop():
            with psycopg.connect(admin_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        return admin_url.rsplit("/", 1)[0] + f"/{name}", drop

    def _run(self, url, folder, teams, port, think, seconds, crowds, poll, change, database, cache_url, run_name):
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "CACHE_URL": cache_url,
            # The run's own keys in a shared cache: nothing of another's is read, overwritten or deleted.
            "CACHE_KEY_PREFIX": run_name,
            "DEBUG": "false",
            "SECURE_HTTPS": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "STATIC_ROOT": str(Path(folder) / "static"),
        }
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]

        def run(*command) -> str:
            """A manage.py command's last line of output."""
            done = subprocess.run([*manage, *command], env=env, check=True, capture_output=True, text=True)
            return (done.stdout.strip().splitlines() or [""])[-1]

        run("migrate", "-v0")
        run("collectstatic", "--noinput", "-v0")
        run("bench_field", "--teams", str(teams), "--rounds", "3", "--name", "Load", "--hands", str(HANDS))
        run("draw", "load", "--round", "4", "--method", "swiss", "--publish")
        secrets = json.loads(
            run(
                "shell",
                "-c",
                "import json; from tournament.models import Table; print(json.dumps(list("
                "Table.objects.filter(round__tournament__slug='load', round__number=4)"
                ".values_list('secret', flat=True))))",
            )
        )
        phases = [Phase("A", 0)] + [Phase(f"B{n}", n) for n in crowds]
        acknowledged = {}
        lock = threading.Lock()
        with gunicorn_serving(env, port=port) as port:
            lone_secret, *secrets = secrets
            lone = self._lone_saves(port, lone_secret, acknowledged, lock)
            clock = Clock(phases, seconds)
            # The phases start once every phone has its sheet open (256 pages opened at once are no save).
            ready = threading.Barrier(len(secrets), action=clock.begin)
            phone = self._form_phone if self.path == "form" else self._phone
            phones = [
                threading.Thread(target=phone, args=(port, secret, think, clock, ready, acknowledged, lock))
                for secret in secrets
            ]
            watchers = [
                threading.Thread(target=self._spectator, args=(port, poll, clock, lock, index, len(phases)))
                for index in range(max(crowds, default=0))
            ]
            changes = threading.Thread(target=self._standings_change, args=(url, change, clock))
            for thread in [*phones, *watchers, changes]:
                thread.start()
            for thread in [*phones, *watchers, changes]:
                thread.join()
        stored = json.loads(
            run(
                "shell",
                "-c",
                "import json; from tournament.models import Hand; print(json.dumps(list(Hand.objects.filter("
                "table__round__tournament__slug='load', table__round__number=4).values_list("
                "'entry_id', 'dealer', 'bidder', 'level', 'kind', 'books'))))",
            )
        )
        self.lone = lone
        self._report(
            database, cache_url, len(secrets), think, seconds, poll, change, clock.warm_up, phases, acknowledged, stored
        )

    def _report(self, database, cache_url, tables, think, seconds, poll, change, warm_up, phases, acknowledged, stored):
        lone = self.lone
        cache = "Redis" if cache_url.startswith("redis") else "the database"
        path = "the hand form, its check page and the sheet reloaded" if self.path == "form" else "the phone's queue"
        lone_p95 = statistics.quantiles(lone, n=100)[94]
        self.stdout.write(
            f"{database} ({cache} as the cache), through {path}: {tables} tables saving a hand every {think:.0f} s "
            f"on average, phases of {seconds:.0f} s, spectators polling the standings every {poll:.0f} s, the "
            f"standings changing every {change:.0f} s; gunicorn.conf.py; after a {WARM_UP} s warm-up"
        )
        self.stdout.write(
            f"  a lone save ({LONE} hands at one table before the load, after {LONE_WARM} not timed): "
            f"p50 {statistics.median(lone) * 1000:.0f} ms, p95 {lone_p95 * 1000:.0f} ms"
        )
        base = None
        failures = []
        if warm_up.timeouts or warm_up.errors:
            failures.append(f"warm-up: {warm_up.timeouts} timeouts, errors {warm_up.errors[:2]}")
        for phase in phases:
            if len(phase.saves) < 20:
                failures.append(f"phase {phase.name}: only {len(phase.saves)} saves")
                continue
            cut = statistics.quantiles(phase.saves, n=100)
            p95 = cut[94]
            base = base or p95
            line = (
                f"  {phase.name:>4} ({phase.spectators} spectators): {len(phase.saves)} saves, p50 "
                f"{statistics.median(phase.saves) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
                f"p99 {cut[98] * 1000:.0f} ms, p95 {p95 / lone_p95:.1f}x a lone save's"
            )
            if self.path == "form" and p95 / lone_p95 > FORM_GOAL:
                failures.append(f"phase {phase.name}: save p95 {p95 / lone_p95:.1f}x a lone save's (goal {FORM_GOAL}x)")
            if phase.spectators:
                ratio = p95 / base
                polls = sorted(phase.polls)
                line += (
                    f"; p95 B/A {ratio:.2f}; {len(polls)} polls, p50 {statistics.median(polls) * 1000:.0f} ms, "
                    f"p95 {statistics.quantiles(polls, n=100)[94] * 1000:.0f} ms, cache hits "
                    f"{phase.hits / len(polls):.0%} ({phase.renders} renders, {phase.stale} served stale while "
                    "one rendered)"
                    if len(polls) >= 2
                    else f"; p95 B/A {ratio:.2f}; no polls"
                )
                if ratio > 3:
                    failures.append(f"phase {phase.name}: save p95 {ratio:.1f}x phase A's")
            line += f"; timeouts {phase.timeouts}; errors {len(phase.errors)}"
            self.stdout.write(line)
            if phase.timeouts or phase.errors:
                failures.append(f"phase {phase.name}: {phase.timeouts} timeouts, errors {phase.errors[:2]}")
        rows = {}
        for entry_id, *values in stored:
            rows.setdefault(entry_id, []).append(values)
        lost = [entry for entry in acknowledged if entry not in rows]
        twice = [entry for entry, found in rows.items() if len(found) > 1]
        changed = [entry for entry, values in acknowledged.items() if entry in rows and rows[entry][0] != values]
        self.stdout.write(
            f"  stored: {len(acknowledged)} saves acknowledged, {len(stored)} hands in the database; "
            f"{len(lost)} lost, {len(twice)} stored twice, {len(changed)} with other values"
        )
        if lost or twice or changed:
            failures.append(f"saves not stored exactly once: lost {lost[:3]}, twice {twice[:3]}, changed {changed[:3]}")
        if failures:
            raise CommandError("; ".join(failures))

    def _phone(self, port, secret, think, clock, ready, acknowledged, lock) -> None:
        """One table's phone: open the sheet, then enter a hand every ``think`` seconds on average until the
        last phase ends, now and then sending one twice (an answer lost on the Wi-Fi)."""
        connection, headers, token, version = phone_open(port, secret, timeout=TIMEOUT)
        connection.close()
        ready.wait()
        time.sleep(random.uniform(0, 2 * think))
        for number in range(HANDS):
            if clock.phase() is None:
                return
            dealer = DEALERS[number % 4]
            fields = hand_fields(token, version, dealer, f"load-{secret}-{number}")
            for _ in range(2 if random.random() < RESEND else 1):
                phase = clock.phase()
                start = time.perf_counter()
                try:
                    connection.request("POST", f"/table/{secret}/hands/sync/", body=urlencode(fields), headers=headers)
                    response = connection.getresponse()
                    body = response.read()
                except TimeoutError:
                    with lock:
                        (phase or clock.phases[-1]).timeouts += 1
                    return
                took = time.perf_counter() - start
                with lock:
                    if phase is not None:
                        phase.saves.append(took)
                    if response.status != 200:
                        (phase or clock.phases[-1]).errors.append(f"{response.status} {body[:120]!r}")
                        return
                    acknowledged[fields["entry_id"]] = [dealer, dealer, 3, "high", 9]
                version = json.loads(body)["version"]
            # A phone idle for seconds finds its connection closed (gunicorn keeps one open 20 s): it opens anew.
            connection.close()
            time.sleep(random.uniform(0, 2 * think))

    def _lone_saves(self, port, secret, acknowledged, lock) -> list[float]:
        """``LONE`` hands saved at one table while nothing else runs: each save's time at the phone."""
        took = []
        if self.path == "form":
            phone = FormPhone(port, secret, timeout=TIMEOUT)
            for number in range(LONE_WARM + LONE):
                start = time.perf_counter()
                entry = phone.save(DEALERS[number % 4])
                took.append(time.perf_counter() - start)
                acknowledged[entry] = [DEALERS[number % 4], DEALERS[number % 4], 3, "high", 9]
            return took[LONE_WARM:]
        connection, headers, token, version = phone_open(port, secret, timeout=TIMEOUT)
        for number in range(LONE_WARM + LONE):
            dealer = DEALERS[number % 4]
            fields = hand_fields(token, version, dealer, f"lone-{secret}-{number}")
            start = time.perf_counter()
            connection.request("POST", f"/table/{secret}/hands/sync/", body=urlencode(fields), headers=headers)
            version = json.loads(connection.getresponse().read())["version"]
            took.append(time.perf_counter() - start)
            acknowledged[fields["entry_id"]] = [dealer, dealer, 3, "high", 9]
        connection.close()
        return took[LONE_WARM:]

    def _form_phone(self, port, secret, think, clock, ready, acknowledged, lock) -> None:
        """One table's phone without JavaScript (``FormPhone``): a hand every ``think`` seconds on average, each
        timed from the form's post to the sheet open again."""
        phone = FormPhone(port, secret, timeout=TIMEOUT)
        ready.wait()
        time.sleep(random.uniform(0, 2 * think))
        for number in range(HANDS):
            phase = clock.phase()
            if phase is None:
                return
            dealer = DEALERS[number % 4]
            start = time.perf_counter()
            try:
                entry = phone.save(dealer)
            except (TimeoutError, RuntimeError, ValueError) as error:
                with lock:
                    if isinstance(error, TimeoutError):
                        phase.timeouts += 1
                    else:
                        phase.errors.append(str(error)[:120])
                return
            with lock:
                phase.saves.append(time.perf_counter() - start)
                acknowledged[entry] = [dealer, dealer, 3, "high", 9]
            time.sleep(random.uniform(0, 2 * think))

    def _standings_change(self, url, every, clock) -> None:
        """Every ``every`` seconds the standings change, as when a sheet is signed: the tournament's versions
        move straight in the database (a signature through the site would add a save to phase B alone), so
        each spectator's next poll finds a new version and one worker renders it."""
        if url.startswith("sqlite:///"):
            import sqlite3

            connection = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=20, isolation_level=None)
        else:
            import psycopg

            connection = psycopg.connect(url, autocommit=True)
        clock.started.wait()
        while True:
            time.sleep(every)
            if clock.phase() is None:
                break
            connection.execute(
                "UPDATE tournament_tournament SET results_version = results_version + 1, "
                "live_version = live_version + 1 WHERE slug = 'load'"
            )
        connection.close()

    def _spectator(self, port, poll, clock, lock, index, phase_count) -> None:
        """A spectator's phone on the standings: polls every ``poll`` seconds with the ETag it holds, in the
        phases whose crowd counts it."""
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
        etag = ""
        clock.started.wait()
        time.sleep(random.uniform(0, poll))
        while (phase := clock.phase()) is not None:
            if index < phase.spectators:
                headers = {"Accept-Encoding": "gzip"}
                if etag:
                    headers["If-None-Match"] = etag
                start = time.perf_counter()
                try:
                    connection.request("GET", "/t/load/standings/", headers=headers)
                    response = connection.getresponse()
                    response.read()
                except TimeoutError:
                    with lock:
                        phase.timeouts += 1
                    connection.close()
                    continue
                took = time.perf_counter() - start
                with lock:
                    phase.polls.append(took)
                    status = response.getheader("Cache-Status") or ""
                    if response.status == 304 or "hit" in status:
                        phase.hits += 1
                    phase.renders += "fwd=miss" in status
                    phase.stale += "updating" in status
                    if response.status not in (200, 304):
                        phase.errors.append(f"poll {response.status}")
                if response.status == 200:
                    etag = response.getheader("ETag") or ""
            connection.close()
            time.sleep(poll * random.uniform(0.9, 1.1))


class Clock:
    """Which phase the run is in: a warm-up of ``WARM_UP`` seconds (every worker past its first requests; not
    reported), then each phase for ``seconds``, then the run is over (None)."""

    def __init__(self, phases, seconds):
        self.warm_up = Phase("warm-up", 0)
        self.phases = phases
        self.seconds = seconds
        self.start = 0.0
        self.started = threading.Event()

    def begin(self) -> None:
        self.start = time.monotonic()
        self.started.set()

    def phase(self) -> Phase | None:
        elapsed = time.monotonic() - self.start - WARM_UP
        if elapsed < 0:
            return self.warm_up
        index = int(elapsed // self.seconds)
        return self.phases[index] if index < len(self.phases) else None
