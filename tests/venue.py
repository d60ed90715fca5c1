"""``manage.py venue`` (what ``make venue`` runs) started and stopped as a director does, for the tests."""

import os
import signal
import subprocess
import sys

import pytest
from django.conf import settings


def venue_command(*, port: int, database: str, workers: int = 2, username: str = "director") -> subprocess.Popen:
    """``manage.py venue`` (what ``make venue`` runs) on 127.0.0.1:``port``, in its own process group."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "DATABASE_URL"))}
    env["STATIC_ROOT"] = str(settings.STATIC_ROOT)
    command = [sys.executable, "manage.py", "venue", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--database", database, "--workers", str(workers), "--username", username]
    return subprocess.Popen(
        command,
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def venue_said_until_serving(server: subprocess.Popen) -> str:
    """What the venue command printed up to the address phones open (it then answers there)."""
    lines = []
    for line in server.stdout:
        lines.append(line)
        if line.startswith("== Phones open"):
            return "".join(lines)
    server.wait()
    pytest.fail("the venue command stopped before serving:\n" + "".join(lines))


def venue_ctrl_c(server: subprocess.Popen) -> str:
    """Ctrl-C as a terminal sends it (SIGINT to the command's process group); what the command said then."""
    os.killpg(server.pid, signal.SIGINT)
    rest, _ = server.communicate(timeout=60)
    assert server.returncode == 0, rest
    return rest
