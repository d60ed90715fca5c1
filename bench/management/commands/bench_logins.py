import http.client
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from tournament.management.gunicorn import gunicorn_serving

ATTACKERS = 6


class Command(BaseCommand):
    help = (
        "Benchmark (not a test): the table page's median time through gunicorn (gunicorn.conf.py, SQLite) alone, then "
        f"while {ATTACKERS} clients, each from its own loopback address, loop guessing a staff password. "
        "Builds its own database in a temporary folder."
    )

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=200, help="table page requests for each median")

    def handle(self, *args, requests, **options):
        with tempfile.TemporaryDirectory() as folder:
            env = {
                **os.environ,
                "DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
                "DEBUG": "false",
                "SECURE_HTTPS": "false",
                "ALLOWED_HOSTS": "127.0.0.1",
                "DJANGO_SETTINGS_MODULE": "bench.settings",
                "DIRECTOR_PASSWORD": "Bench-Director-Password-1",
                "STATIC_ROOT": str(Path(folder) / "static"),
            }
            manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
            for command in (
                ["migrate", "-v0"],
                ["seed_demo"],
                ["ensure_director"],
                ["collectstatic", "--noinput", "-v0"],
            ):
                subprocess.run([*manage, *command], env=env, check=True, capture_output=True)
            query = "Table.objects.filter(round__status='published', locked_at__isnull=True).first().secret"
            secret = subprocess.run(
                [*manage, "shell", "-c", f"from tournament.models import Table; print({query})"],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()[-1]
            with gunicorn_serving(env) as port:
                alone = self._median(port, f"/table/{secret}/", requests)
                guesses = [0] * ATTACKERS
                refused = [0] * ATTACKERS
                browsing = self._under_load(port, secret, requests, self._browse, guesses, refused)
                guesses = [0] * ATTACKERS
                refused = [0] * ATTACKERS
                attacked = self._under_load(port, secret, requests, self._guess, guesses, refused)
        self.stdout.write(f"table page median, alone: {alone * 1000:.1f} ms")
        self.stdout.write(
            f"table page median, {ATTACKERS} clients loading the login page in a loop: {browsing * 1000:.1f} ms "
            f"({browsing / alone:.2f} x alone; the cost of any flood of requests)"
        )
        self.stdout.write(
            f"table page median, {ATTACKERS} clients guessing passwords: {attacked * 1000:.1f} ms "
            f"({attacked / alone:.2f} x alone)"
        )
        self.stdout.write(f"password guesses sent: {sum(guesses)}, refused as locked out (429): {sum(refused)}")

    def _under_load(self, port, secret, requests, client, guesses, refused) -> float:
        """The table page's median while ATTACKERS threads, each from its own address, run ``client``."""
        stop = threading.Event()
        threads = [
            threading.Thread(target=client, args=(port, f"127.0.0.{10 + i}", stop, guesses, refused, i))
            for i in range(ATTACKERS)
        ]
        for thread in threads:
            thread.start()
        time.sleep(2)
        median = self._median(port, f"/table/{secret}/", requests)
        stop.set()
        for thread in threads:
            thread.join()
        return median

    def _browse(self, port: int, address: str, stop, guesses, refused, index: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(address, 0))
        while not stop.is_set():
            connection.request("GET", "/login/")
            connection.getresponse().read()

    def _median(self, port: int, path: str, count: int) -> float:
        times = []
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(count):
            start = time.perf_counter()
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            times.append(time.perf_counter() - start)
            assert response.status == 200, response.status
        return statistics.median(times)

    def _guess(self, port: int, address: str, stop, guesses, refused, index: int) -> None:
        while not stop.is_set():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(address, 0))
            connection.request("GET", "/login/")
            page = connection.getresponse()
            html = page.read().decode()
            cookie = page.getheader("Set-Cookie", "").split(";")[0]
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
            body = f"csrfmiddlewaretoken={token}&username=director&password=guess{guesses[index]}"
            headers = {
                "Cookie": cookie,
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": "http://127.0.0.1/",
            }
            connection.request("POST", "/login/", body=body, headers=headers)
            answer = connection.getresponse()
            answer.read()
            guesses[index] += 1
            refused[index] += answer.status == 429
            connection.close()
