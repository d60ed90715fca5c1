import gzip
import http.client
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.core.management.base import BaseCommand

from bench.phone import hand_fields, phone_open
from tournament.management.gunicorn import gunicorn_serving

TEAMS = 512
PUBLISH_ROUND_4 = (
    "from tournament.models import Round; from tournament.services.draws import round_publish; "
    "round_publish(round=Round.objects.get(tournament__slug='scale', number=4))"
)
ROUND_4_SECRETS = (
    "import json; from tournament.models import Table; print(json.dumps(list(Table.objects.filter("
    "round__tournament__slug='scale', round__number=4).order_by('number').values_list('secret', flat=True))))"
)


class Command(BaseCommand):
    help = (
        "Benchmark (not a test): a 512-team tournament with 3 signed rounds, in its own SQLite database in a "
        "temporary folder. Pages through gunicorn as the venue runs it (gunicorn.conf.py), each against the login "
        "page as the floor measured in the same run; the in-process figures from bench_inside; the Swiss draw through "
        "`manage.py draw` at 512 and 2,048 teams. Prints each figure beside its goal."
    )

    def add_arguments(self, parser):
        parser.add_argument("--requests", type=int, default=40, help="requests for each page's median")
        parser.add_argument("--port", type=int, help="gunicorn's port (a free one if not given)")

    def handle(self, *args, requests, port, **options):
        with tempfile.TemporaryDirectory() as folder:
            # As on an installed machine, Python keeps the modules it compiles (the first command compiles
            # them, the timed ones reuse them), even where the shell asks it not to.
            inherited = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
            env = {
                **inherited,
                "DATABASE_URL": f"sqlite:///{Path(folder) / 'bench.sqlite3'}",
                "DEBUG": "false",
                "SECURE_HTTPS": "false",
                "ALLOWED_HOSTS": "127.0.0.1,testserver",
                "DJANGO_SETTINGS_MODULE": "bench.settings",
                "STATIC_ROOT": str(Path(folder) / "static"),
            }
            manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]

            def run(*command, capture=True):
                return subprocess.run([*manage, *command], env=env, check=True, capture_output=capture, text=True)

            run("migrate", "-v0")
            run("collectstatic", "--noinput", "-v0")
            run("bench_field", "--teams", str(TEAMS), "--rounds", "3", "--name", "Scale")
            pages = self._pages(env, requests, port)
            inside = json.loads(run("bench_inside", "scale").stdout.strip().splitlines()[-1])
            draws = {}
            run("bench_field", "--teams", "2048", "--rounds", "1", "--name", "Huge")
            for slug, teams, number in (("scale", TEAMS, 4), ("huge", 2048, 2)):
                start = time.perf_counter()
                run("draw", slug, "--round", str(number), "--method", "swiss")
                draws[teams] = time.perf_counter() - start
            run("shell", "-c", PUBLISH_ROUND_4)
            secrets = json.loads(run("shell", "-c", ROUND_4_SECRETS).stdout.strip().splitlines()[-1])
            pages["hand_save"], pages["hand_save_served"] = self._saves(env, port, secrets)
        self._report(pages, inside, draws)

    def _saves(self, env, port, secrets) -> tuple[float, float]:
        """The median time of saving a hand through gunicorn, one phone at a time: at the phone, and the server's
        own time (the request time gunicorn logs, from the request read to the answer sent). A table's phone
        opens its sheet, then saves two hands; the first tables warm the workers up."""
        times = []
        with tempfile.TemporaryDirectory() as folder:
            log = Path(folder) / "access.log"
            logged = {**env, "GUNICORN_CMD_ARGS": f"--access-logfile {log} --access-logformat '%(m)s %(U)s %(D)s'"}
            with gunicorn_serving(logged, port=port) as port:
                for index, secret in enumerate(secrets[:60]):
                    times.extend(self._table_saves(port, secret, measured=index >= 10))
            served = [
                int(micros) / 1e6
                for method, path, micros in (line.split() for line in log.read_text().splitlines())
                if method == "POST" and path.endswith("/hands/sync/")
            ]
        return statistics.median(times), statistics.median(served[20:])

    def _table_saves(self, port, secret, *, measured: bool) -> list[float]:
        """A table's phone opens its sheet and saves two hands; the time of each save at the phone."""
        times = []
        connection, headers, token, version = phone_open(port, secret, timeout=60)
        for number, dealer in enumerate("NE"):
            fields = hand_fields(token, version, dealer, f"bench-{secret}-{number}")
            start = time.perf_counter()
            connection.request("POST", f"/table/{secret}/hands/sync/", body=urlencode(fields), headers=headers)
            response = connection.getresponse()
            body = response.read()
            if measured:
                times.append(time.perf_counter() - start)
            assert response.status == 200, (response.status, body[:200])
            version = json.loads(body)["version"]
        connection.close()
        return times

    def _pages(self, env, requests, port) -> dict:
        with gunicorn_serving(env, port=port) as port:
            figures = {"floor": self._median(port, "/login/", requests)}
            for name, path in (
                ("standings", "/t/scale/standings/"),
                ("projector", "/t/scale/projector/"),
                ("tables", "/t/scale/draw/"),
            ):
                self._get(port, path)
                figures[name] = self._median(port, path, requests)
            figures["standings_cold"] = self._cold(port, env["DATABASE_URL"], "/t/scale/standings/", requests // 4)
            figures["api_standings_cold"] = self._cold(
                port, env["DATABASE_URL"], "/api/v1/tournaments/scale/standings", requests // 4
            )
            _, _, api_body = self._get(port, "/api/v1/tournaments/scale/standings")
            figures["api_standings_bytes"] = len(api_body)
            _, headers, body = self._get(port, "/t/scale/standings/")
            figures["standings_bytes"] = len(body)
            figures["standings_html_bytes"] = len(gzip.decompress(body))
            etag = headers["etag"]
            figures["poll"] = self._median(port, "/t/scale/standings/", requests, etag=etag, status=304)
        return figures

    def _cold(self, port, database_url, path, count) -> float:
        """The median time of ``path`` right after its standings changed (the versions moved in the database,
        as a signature moves them), so each request renders."""
        times = []
        with sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None) as connection:
            for _ in range(count):
                connection.execute(
                    "UPDATE tournament_tournament SET results_version = results_version + 1, "
                    "live_version = live_version + 1 WHERE slug = 'scale'"
                )
                start = time.perf_counter()
                status, headers, _ = self._get(port, path)
                times.append(time.perf_counter() - start)
                assert status == 200 and "fwd=miss" in headers.get("cache-status", ""), (path, status, headers)
        return statistics.median(times)

    def _get(self, port, path, etag=None):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        headers = {"Accept-Encoding": "gzip"}
        if etag:
            headers["If-None-Match"] = etag
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read()
        return response.status, {key.lower(): value for key, value in response.getheaders()}, body

    def _median(self, port, path, count, *, etag=None, status=200) -> float:
        times = []
        for _ in range(count):
            start = time.perf_counter()
            answer, _, _ = self._get(port, path, etag)
            times.append(time.perf_counter() - start)
            assert answer == status, (path, answer)
        return statistics.median(times)

    def _report(self, pages, inside, draws) -> None:
        floor = pages["floor"]

        def ratio(name) -> float:
            return pages[name] / floor

        rows = [
            (
                "public standings page",
                f"{ratio('standings'):.1f}x the floor ({pages['standings'] * 1000:.1f} ms; floor "
                f"{floor * 1000:.1f} ms), {pages['standings_bytes'] / 1024:.0f} KB sent "
                f"({pages['standings_html_bytes'] / 1024:.0f} KB of HTML)",
                "<= 3x; <= 100 KB",
                ratio("standings") <= 3 and pages["standings_bytes"] <= 100 * 1024,
            ),
            (
                "public standings right after a change (rendered)",
                f"{ratio('standings_cold'):.1f}x the floor ({pages['standings_cold'] * 1000:.1f} ms)",
                "<= 10x",
                ratio("standings_cold") <= 10,
            ),
            (
                "API standings right after a change / sent gzip",
                f"{ratio('api_standings_cold'):.1f}x the floor ({pages['api_standings_cold'] * 1000:.1f} ms) / "
                f"{pages['api_standings_bytes'] / 1024:.0f} KB",
                "<= 100 KB to a phone",
                pages["api_standings_bytes"] <= 100 * 1024,
            ),
            (
                "projector / tables page",
                f"{ratio('projector'):.1f}x / {ratio('tables'):.1f}x the floor",
                "<= 3x",
                ratio("projector") <= 3 and ratio("tables") <= 3,
            ),
            (
                "a live page polled, nothing changed",
                f"304 in {pages['poll'] * 1000:.1f} ms ({ratio('poll'):.1f}x the floor), no render",
                "304",
                True,
            ),
            (
                "bracket page queries, 4 / 64 seeds",
                " / ".join(map(str, inside["bracket_queries"])),
                "fixed",
                len(set(inside["bracket_queries"])) == 1,
            ),
            (
                "saving a hand: in-process / gunicorn's request time (server) / at the phone",
                f"{inside['hand_save_ms']:.1f} ms / {pages['hand_save_served'] * 1000:.1f} ms / "
                f"{pages['hand_save'] * 1000:.1f} ms ({ratio('hand_save'):.1f}x the floor)",
                "<= 10 ms through gunicorn (server time)",
                inside["hand_save_ms"] <= 10 and pages["hand_save_served"] <= 0.010,
            ),
            (
                "Swiss draw, manage.py draw, 512 / 2048 teams",
                f"{draws[512]:.2f} s / {draws[2048]:.2f} s",
                "< 1 s; < 2 s",
                draws[512] < 1 and draws[2048] < 2,
            ),
            (
                "completed score sheets, 128 tables (best of 2)",
                f"{inside['sheets_per_page_s']:.3f} s a page",
                "< 0.08 s",
                inside["sheets_per_page_s"] < 0.08,
            ),
            (
                "standings PDF (the process's first print, then again) / hands CSV, 512 teams",
                f"{inside['standings_pdf_first_s']:.2f} s, {inside['standings_pdf_s']:.2f} s / "
                f"{inside['hands_csv_s']:.2f} s",
                "< 1 s each",
                inside["standings_pdf_s"] < 1 and inside["hands_csv_s"] < 1,
            ),
            (
                "queries: a draw, 8 / 512 teams",
                " / ".join(f"{other} (+{inserts} bulk inserts)" for other, inserts in inside["draw_queries"]),
                "fixed (SQLite batches a bulk insert by 999 values)",
                inside["draw_queries"][0][0] == inside["draw_queries"][1][0] and inside["draw_queries"][1][1] <= 12,
            ),
            (
                "queries: exporting the archive, 8 / 512 teams",
                " / ".join(map(str, inside["archive_queries"])),
                "fixed",
                inside["archive_queries"][0] == inside["archive_queries"][1],
            ),
        ]
        width = max(len(row[0]) for row in rows)
        for what, measured, goal, met in rows:
            self.stdout.write(f"{what.ljust(width)}  {measured}  [goal {goal}: {'meets' if met else 'misses'}]")
