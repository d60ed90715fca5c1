import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import segno
from django.conf import settings
from django.core import checks
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournament.checks import ACCOUNTS
from tournament.management.gunicorn import gunicorn_command, gunicorn_stop, gunicorn_wait
from tournament.management.venue import lan_address, static_collect, venue_environment

DEFAULT_DATABASE = Path("~/whist/venue.sqlite3")
# Set in the environment the command runs itself again in, once the venue's settings are in place.
IN_VENUE = "WHIST_VENUE_SERVER"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def database_url(database: str) -> str:
    """A database URL as given, or an SQLite file's path (its folder is made if missing)."""
    if "://" in database:
        return database
    path = Path(database).expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


class Command(BaseCommand):
    help = (
        "Run the event at a venue: the production configuration (DEBUG off, collected static files, gunicorn) "
        "on the laptop's address on the local network, with its own database (kept between runs). The first "
        "run creates the director account and prints its password once. Prints the address phones open, as "
        "text and as a QR code. Ctrl-C stops it."
    )
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("--host", help="the address phones use (default: the laptop's address on the LAN)")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--workers", type=int, help="gunicorn worker processes (default: gunicorn.conf.py's, two a core)"
        )
        parser.add_argument(
            "--database",
            default=os.environ.get("VENUE_DATABASE") or str(DEFAULT_DATABASE),
            help=f"an SQLite file, or a database URL (default: $VENUE_DATABASE, else {DEFAULT_DATABASE})",
        )
        parser.add_argument("--username", default="director", help="the director account made on the first run")

    def handle(self, *args, host, port, workers, database, username, **options):
        host = host or lan_address()
        if os.environ.get(IN_VENUE) != f"{host}:{port}":
            # This process's settings came from the shell: start again with the venue's.
            env = venue_environment(host=host, port=port, database_url=database_url(database))
            env[IN_VENUE] = f"{host}:{port}"
            again = [sys.executable, str(settings.BASE_DIR / "manage.py"), "venue", "--host", host]
            again += ["--port", str(port), "--database", database, "--username", username]
            again += ["--workers", str(workers)] if workers else []
            self.stdout.flush()
            os.execve(sys.executable, again, env)
        self.prepare(username)
        self.serve(host, port, workers)

    def prepare(self, username):
        self.say(f"Database: {settings.DATABASES['default']['NAME']}")
        call_command("migrate", interactive=False, verbosity=0)
        call_command("ensure_director", username=username, password=None, stdout=self.stdout)
        if static_collect():
            self.say(f"Static files collected into {settings.STATIC_ROOT}")
        found = checks.run_checks(tags=[ACCOUNTS], include_deployment_checks=True)
        errors = [message for message in found if message.is_serious()]
        if errors:
            lines = [f"  {error.msg} {error.hint}" for error in errors]
            raise CommandError("Not serving: anyone who read the docs could log in.\n" + "\n".join(lines))

    def serve(self, host, port, workers):
        address = f"http://{host}:{port}/"
        # Its own process group: Ctrl-C reaches this command only, which stops gunicorn gracefully.
        server = subprocess.Popen(
            gunicorn_command(bind=f"{host}:{port}", workers=workers), cwd=settings.BASE_DIR, start_new_session=True
        )
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            gunicorn_wait(server, host, port)
            qr = io.StringIO()
            segno.make(address, micro=False).terminal(out=qr, compact=True)
            self.stdout.write(qr.getvalue())
            self.say(f"Phones open {address}  (staff log in at {address}login/; stop with Ctrl-C)")
            if host in LOOPBACK:
                self.say("Only this laptop reaches that address: join the venue's network, or give it with HOST=.")
            status = server.wait()
        except KeyboardInterrupt:
            gunicorn_stop(server)
            self.say(f"Stopped. The event stays in {settings.DATABASES['default']['NAME']}: run it again to carry on.")
            return
        except RuntimeError:
            status = server.poll()
        finally:
            gunicorn_stop(server)
        raise CommandError(f"gunicorn stopped serving on {host}:{port} (exit status {status}; its message is above).")

    def say(self, text):
        """A line for the director, shown at once even when the output goes to a pipe or a log."""
        self.stdout.write(f"== {text}")
        self.stdout.flush()
