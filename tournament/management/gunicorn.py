"""The app served by gunicorn on a free local port, for the benchmarks that measure it as phones reach it."""

import http.client
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def gunicorn_serving(env: dict) -> Iterator[int]:
    """Serve the app as the venue and hosted recipes do (``gunicorn.conf.py``) until the block ends; yields the
    port, once it answers."""
    port = free_port()
    server = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("gunicorn")),
            "tournament.wsgi",
            "--config",
            str(settings.BASE_DIR / "gunicorn.conf.py"),
            "--bind",
            f"127.0.0.1:{port}",
        ],
        env=env,
        cwd=settings.BASE_DIR,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait(port)
        yield port
    finally:
        server.terminate()
        server.wait()


def _wait(port: int) -> None:
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/login/")
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")
