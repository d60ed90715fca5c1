import gzip
import http.client
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
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
BURST_CLIENTS = 64
DRAW_TIMED = (
    "import time; from tournament.models import Tournament; from tournament.services.draws import round_draw; "
    "tournament = Tournament.objects.get(slug='{slug}'); start = time.perf_counter(); "
    "round_draw(tournament=tournament, method='swiss'); print(time.perf_counter() - start)"
)
ROUND_4_SECRETS = (
    "import json; from tournament.models import Table; print(json.dumps(list(Table.objects.filter("
    "round__tournament__slug='scale', round__number=4).order_by('number').values_list('secret', flat=True))))"
)


class Command(BaseCommand):
    help = (
        "Benchmark (not a test): a 512-team tournament with 3 signed rounds (and 2,048 and 4,096-team ones), in "
        "its own SQLite database in a temporary folder. Pages through gunicorn as the venue runs it "
        "(gunicorn.conf.py), each against the login page as the floor measured in the same run: the standings "
        "cached and right after a change, the draw's release (every table link and team page at once, then asked "
        "again with their ETags) against a burst of login pages, the server's CPU a team and table page, a hand's "
        "save; the in-process figures from bench_inside; the Swiss draw's own work at 512, 2,048 and 4,096 teams. "
        "Prints each figure beside its goal."
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
            run("bench_field", "--teams", "2048", "--rounds", "3", "--name", "Huge")
            pages = self._pages(env, requests, port)
            inside = json.loads(run("bench_inside", "scale").stdout.strip().splitlines()[-1])
            run("bench_field", "--teams", "4096", "--rounds", "1", "--name", "Giant")
            # The draw's own work, in a process already started (as the director's desk asks it).
            draws = {
                teams: float(run("shell", "-c", DRAW_TIMED.format(slug=slug)).stdout.strip().splitlines()[-1])
                for slug, teams in (("scale", TEAMS), ("huge", 2048), ("giant", 4096))
            }
            run("shell", "-c", PUBLISH_ROUND_4)
            secrets = json.loads(run("shell", "-c", ROUND_4_SECRETS).stdout.strip().splitlines()[-1])
            pages.update(self._release(env, port, secrets))
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
            database = env["DATABASE_URL"]
            figures["standings_cold"] = self._cold(port, database, "scale", "/t/scale/standings/", requests // 4)
            figures["standings_cold_2048"] = self._cold(port, database, "huge", "/t/huge/standings/", requests // 4)
            figures["api_standings_cold"] = self._cold(
                port, database, "scale", "/api/v1/tournaments/scale/standings", requests // 4
            )
            _, _, api_body = self._get(port, "/api/v1/tournaments/scale/standings")
            figures["api_standings_bytes"] = len(api_body)
            _, headers, body = self._get(port, "/t/scale/standings/")
            figures["standings_bytes"] = len(body)
            figures["standings_html_bytes"] = len(gzip.decompress(body))
            etag = headers["etag"]
            figures["poll"] = self._median(port, "/t/scale/standings/", requests, etag=etag, status=304)
        return figures

    def _release(self, env, port, secrets) -> dict:
        """The draw's release: every table's link and every team's page asked at once by BURST_CLIENTS clients,
        then asked again by clients holding them (If-None-Match with the ETag they were given), each burst
        against a burst of as many login pages (the floor) in the same server; and the server's CPU a page of
        each kind, asked one at a time."""
        tables = [f"/table/{secret}/" for secret in secrets]
        teams = [f"/t/scale/teams/{number}/" for number in range(1, TEAMS + 1)]
        # Interleaved, as phones arrive: a table's link, then its two teams' pages.
        release = [path for index, table in enumerate(tables) for path in (table, *teams[2 * index : 2 * index + 2])]
        with gunicorn_serving(env, port=port) as port:
            self._burst(port, ["/login/"] * BURST_CLIENTS)
            floor, _ = self._burst(port, ["/login/"] * len(release))
            first, etags = self._burst(port, release)
            reload, _ = self._burst(port, release, etags=etags)
            cpu = {"login": self._cpu(port, ["/login/"] * 128)}
            cpu["team"] = self._cpu(port, teams[-64:], change=env["DATABASE_URL"])
            cpu["table"] = self._cpu(port, tables[-64:])
        return {"burst_floor": floor, "burst_release": first, "burst_reload": reload, "cpu": cpu}

    def _burst(self, port, paths, *, etags=None) -> tuple[float, dict]:
        """The time until every path is answered, asked by BURST_CLIENTS clients at once, each on its own
        connection; the ETag and the cookies each answer gave (a phone asking again sends both, as a browser
        does: a table's page is its phone's own, told by its CSRF cookie)."""
        given = {}
        lock = threading.Lock()
        queue = iter(paths)

        def client():
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            while True:
                with lock:
                    path = next(queue, None)
                if path is None:
                    break
                headers = {"Accept-Encoding": "gzip"}
                etag, held = (etags or {}).get(path) or (None, "")
                if etag:
                    headers["If-None-Match"] = etag
                if held:
                    headers["Cookie"] = held
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
                assert response.status in (200, 304), (path, response.status)
                set_cookies = [
                    value.split(";")[0] for key, value in response.getheaders() if key.lower() == "set-cookie"
                ]
                given[path] = (response.getheader("ETag"), "; ".join(set_cookies))
            connection.close()

        start = time.perf_counter()
        with ThreadPoolExecutor(BURST_CLIENTS) as pool:
            for _ in range(BURST_CLIENTS):
                pool.submit(client)
        return time.perf_counter() - start, given

    def _cpu(self, port, paths, *, change=None) -> float:
        """The server's CPU time a page (every gunicorn process of the port, from /proc), the paths asked one
        at a time; with ``change`` (the database's URL) the tournament's results move before each, as during
        play."""
        connection = None
        if change:
            connection = sqlite3.connect(change.removeprefix("sqlite:///"), isolation_level=None)
        before = _server_cpu(port)
        for path in paths:
            if connection:
                connection.execute("UPDATE tournament_tournament SET results_version = results_version + 1")
            status, _, _ = self._get(port, path)
            assert status == 200, (path, status)
        spent = _server_cpu(port) - before
        if connection:
            connection.close()
        return spent / len(paths)

    def _cold(self, port, database_url, slug, path, count) -> float:
        """The median time of ``path`` right after its standings changed (the versions moved in the database,
        as a signature moves them), so each request renders."""
        times = []
        with sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None) as connection:
            for _ in range(count):
                connection.execute(
                    "UPDATE tournament_tournament SET results_version = results_version + 1, "
                    "live_version = live_version + 1 WHERE slug = ?",
                    [slug],
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

        release = pages["burst_release"] / pages["burst_floor"]
        reload = pages["burst_reload"] / pages["burst_floor"]
        cpu = pages["cpu"]

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
                "public standings right after a change (rendered), 512 / 2048 teams",
                f"{ratio('standings_cold'):.1f}x / {ratio('standings_cold_2048'):.1f}x the floor "
                f"({pages['standings_cold'] * 1000:.1f} / {pages['standings_cold_2048'] * 1000:.1f} ms)",
                "<= 5x / <= 10x",
                ratio("standings_cold") <= 5 and ratio("standings_cold_2048") <= 10,
            ),
            (
                f"the draw's release: {TEAMS // 2} table links + {TEAMS} team pages at once "
                f"({BURST_CLIENTS} clients) / asked again",
                f"{pages['burst_release']:.2f} s ({release:.1f}x a burst of as many login pages, "
                f"{pages['burst_floor']:.2f} s) / {pages['burst_reload']:.2f} s ({reload:.1f}x)",
                "<= 1.5x / <= 0.5x",
                release <= 1.5 and reload <= 0.5,
            ),
            (
                "server CPU a page during play: public team page / table page",
                f"{cpu['team'] * 1000:.1f} ms ({cpu['team'] / cpu['login']:.1f}x) / {cpu['table'] * 1000:.1f} ms "
                f"({cpu['table'] / cpu['login']:.1f}x the login page's {cpu['login'] * 1000:.1f} ms)",
                "<= 3x",
                cpu["team"] <= 3 * cpu["login"] and cpu["table"] <= 3 * cpu["login"],
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
                "<= 2x the floor at the phone",
                ratio("hand_save") <= 2,
            ),
            (
                "Swiss draw (the service's work), 512 / 2048 / 4096 teams",
                f"{draws[512]:.2f} s / {draws[2048]:.2f} s / {draws[4096]:.2f} s",
                "< 1 s at 4096",
                draws[4096] < 1,
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


def _server_cpu(port: int) -> float:
    """The CPU seconds used so far by the processes serving ``port`` (gunicorn's workers are forked from its
    master: each holds the bind in its command line)."""
    ticks = os.sysconf("SC_CLK_TCK")
    bind = f"127.0.0.1:{port}".encode()
    total = 0
    for process in Path("/proc").iterdir():
        if not process.name.isdigit():
            continue
        try:
            if bind not in (process / "cmdline").read_bytes():
                continue
            fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / ticks
