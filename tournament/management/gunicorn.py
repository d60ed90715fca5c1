"""The app served by gunicorn: the venue's server, and a free local port for the benchmarks and the tests that
reach it as phones do."""

import http.client
import signal
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


def gunicorn_command(*, bind: str, workers: int | None = None) -> list[str]:
    """gunicorn serving the app on ``bind`` (host:port) with the recipes' settings (``gunicorn.conf.py``), with
    ``workers`` processes if given; several servers may run side by side."""
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    config = str(settings.BASE_DIR / "gunicorn.conf.py")
    command = [gunicorn, "tournament.wsgi", "--config", config, "--bind", bind, "--no-control-socket"]
    return command + (["--workers", str(workers)] if workers else [])


def gunicorn_stop(server: subprocess.Popen) -> int:
    """Ask gunicorn to finish the requests in hand and stop (its graceful shutdown); wait for it."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
    return server.wait()


@contextmanager
def gunicorn_serving(
    env: dict, *, workers: int | None = None, port: int | None = None, output=subprocess.DEVNULL
) -> Iterator[int]:
    """Serve the app as the venue and hosted recipes do (``gunicorn.conf.py``) until the block ends; yields the
    port, once it answers. ``workers`` overrides the configuration's count."""
    port = port or free_port()
    server = subprocess.Popen(
        gunicorn_command(bind=f"127.0.0.1:{port}", workers=workers),
        env=env,
        cwd=settings.BASE_DIR,
        stdout=output,
        stderr=output,
    )
    try:
        gunicorn_wait(server, "127.0.0.1", port)
        yield port
    finally:
        gunicorn_stop(server)


def gunicorn_wait(server: subprocess.Popen, host: str, port: int) -> None:
    """Return once the server answers on host:port (it stopped, or 30 seconds passed: an error)."""
    for _ in range(300):
        if server.poll() is not None:
            break
        try:
            http.client.HTTPConnection(host, port, timeout=1).request("GET", "/login/")
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("gunicorn did not start")
