import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournament.management.gunicorn import gunicorn_serving

HANDS = 4
RESEND = 0.05


class Command(BaseCommand):
    help = (
        "Load benchmark (not a test): 256 tables enter their four hands at once through gunicorn (3 workers), "
        "each phone with a think time between hands and now and then sending a hand twice (an answer lost on "
        "the Wi-Fi). Prints p50/p95/p99, errors, and checks every hand is stored exactly once. On SQLite in a "
        "temporary folder, or on PostgreSQL in a database made for the run and dropped after."
    )

    def add_arguments(self, parser):
        parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
        parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
        parser.add_argument("--teams", type=int, default=512)
        parser.add_argument(
            "--think",
            type=float,
            default=8.0,
            help="mean seconds between a phone's hands (a real hand takes minutes: 8 s is a busy room, 1 s a flood)",
        )

    def handle(self, *args, database, postgres, teams, think, **options):
        with tempfile.TemporaryDirectory() as folder:
            if database == "sqlite":
                url, drop = f"sqlite:///{Path(folder) / 'load.sqlite3'}", None
            else:
                url, drop = self._postgres_database(postgres)
            try:
                self._run(url, folder, teams, think, database)
            finally:
                if drop:
                    drop()

    def _postgres_database(self, admin_url: str):
        import psycopg

        name = f"bench_load_{os.getpid()}"
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')

        def drop():
            with psycopg.connect(admin_url, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

        return admin_url.rsplit("/", 1)[0] + f"/{name}", drop

    def _run(self, url, folder, teams, think, database):
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "DEBUG": "false",
            "SECURE_HTTPS": "false",
            "ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SETTINGS_MODULE": "tournament.settings",
            "STATIC_ROOT": str(Path(folder) / "static"),
        }
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]

        def run(*command) -> str:
            """A manage.py command's last line of output."""
            done = subprocess.run([*manage, *command], env=env, check=True, capture_output=True, text=True)
            return (done.stdout.strip().splitlines() or [""])[-1]

        run("migrate", "-v0")
        run("collectstatic", "--noinput", "-v0")
        run("bench_field", "--teams", str(teams), "--rounds", "0", "--name", "Load")
        run("draw", "load", "--round", "1", "--method", "random", "--seed", "1", "--publish")
        secrets = json.loads(
            run(
                "shell",
                "-c",
                "import json; from tournament.models import Table; print(json.dumps(list("
                "Table.objects.filter(round__tournament__slug='load').values_list('secret', flat=True))))",
            )
        )
        latencies, errors, sent = [], [], [0]
        lock = threading.Lock()
        with gunicorn_serving(env) as port:
            phones = [
                threading.Thread(target=self._phone, args=(port, secret, think, latencies, errors, sent, lock))
                for secret in secrets
            ]
            start = time.perf_counter()
            for phone in phones:
                phone.start()
            for phone in phones:
                phone.join()
            elapsed = time.perf_counter() - start
        stored = json.loads(
            run(
                "shell",
                "-c",
                "import json; from django.db.models import Count; from tournament.models import Hand; "
                "hands = Hand.objects.filter(table__round__tournament__slug='load'); "
                "per = list(hands.values('table').annotate(n=Count('pk')).values_list('n', flat=True)); "
                "print(json.dumps({'hands': hands.count(), 'entries': hands.values('entry_id').distinct().count(), "
                "'per_table': sorted(set(per))}))",
            )
        )
        expected = len(secrets) * HANDS
        once = stored["hands"] == stored["entries"] == expected and stored["per_table"] == [HANDS]
        cut = statistics.quantiles(latencies, n=100)
        self.stdout.write(
            f"{database}: {len(secrets)} tables x {HANDS} hands through gunicorn (3 workers) in {elapsed:.1f} s "
            f"(think time {think:.0f} s on average); {sent[0]} saves sent ({sent[0] - expected} of them repeats), "
            f"{sent[0] / elapsed:.0f} a second"
        )
        self.stdout.write(
            f"  save latency p50 {statistics.median(latencies) * 1000:.0f} ms, p95 {cut[94] * 1000:.0f} ms, "
            f"p99 {cut[98] * 1000:.0f} ms; errors: {len(errors)}{' ' + errors[0] if errors else ''}"
        )
        self.stdout.write(
            f"  stored: {stored['hands']} hands, {stored['entries']} distinct entries, expected {expected}: "
            f"{'every hand exactly once' if once else 'NOT exactly once'}"
        )
        if errors or not once:
            raise CommandError("The load run lost, repeated or refused entries.")

    def _phone(self, port, secret, think, latencies, errors, sent, lock) -> None:
        """One table's phone: open the sheet, then enter four hands with a think time between them."""
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.request("GET", f"/table/{secret}/")
        page = connection.getresponse()
        html = page.read().decode()
        cookie = "; ".join(value.split(";")[0] for key, value in page.getheaders() if key.lower() == "set-cookie")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        version = int(re.search(r'name="[a-z-]*version" value="(\d+)"', html).group(1))
        dealers = ["N", "E", "S", "W"]
        for number in range(HANDS):
            time.sleep(random.uniform(0, 2 * think))
            fields = {
                "csrfmiddlewaretoken": token,
                "hand-version": version,
                "hand-dealer": dealers[number],
                "hand-bidder": dealers[number],
                "hand-bid": "3:high",
                "hand-books": "9",
                "entry_id": f"load-{secret}-{number}",
            }
            for _ in range(2 if random.random() < RESEND else 1):
                start = time.perf_counter()
                headers = {
                    "Cookie": cookie,
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Referer": f"http://127.0.0.1:{port}/",
                }
                connection.request("POST", f"/table/{secret}/hands/sync/", body=urlencode(fields), headers=headers)
                response = connection.getresponse()
                body = response.read()
                took = time.perf_counter() - start
                with lock:
                    sent[0] += 1
                    latencies.append(took)
                    if response.status != 200:
                        errors.append(f"{response.status} {body[:120]!r}")
                        return
                version = json.loads(body)["version"]
