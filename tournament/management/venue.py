"""The production configuration as a venue runs it, shared by ``manage.py venue`` and the tests that serve it.

Static files are collected by the production storage (hashed names, compressed copies); since that takes
a while, a collection is reused while the source files it was made from are unchanged.
"""

import hashlib
import importlib.metadata
import os
import socket
import subprocess
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command

COLLECTED_FROM = ".collected-from"
# No internet at a venue: this address is never reached, it only makes the system pick the LAN interface.
ROUTE_PROBE = ("192.0.2.1", 80)


def static_fingerprint() -> str:
    """Every source static file (name and content), the storage, and the versions of what processes them."""
    digest = hashlib.sha256()
    digest.update(repr(settings.STORAGES["staticfiles"]).encode())
    for package in ("Django", "whitenoise"):
        digest.update(f"{package} {importlib.metadata.version(package)}\n".encode())
    found: dict[str, str] = {}
    for finder in get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            found.setdefault(path, storage.path(path))
    for path in sorted(found):
        digest.update(path.encode() + b"\0" + Path(found[path]).read_bytes())
    return digest.hexdigest()


def static_collect() -> bool:
    """Collect the static files into STATIC_ROOT unless they are already collected from these sources."""
    root = Path(settings.STATIC_ROOT)
    stamp = root / COLLECTED_FROM
    fingerprint = static_fingerprint()
    if stamp.is_file() and stamp.read_text() == fingerprint:
        return False
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(fingerprint)
    return True


def lan_address() -> str:
    """The laptop's address on the local network (the interface a route out would use), else loopback."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(ROUTE_PROBE)
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def code_release() -> str:
    """The commit the code was checked out at (marked "-dirty" when files differ from it), or "" outside git: the
    venue's release, so pages rendered by an earlier checkout are not served after an upgrade."""
    try:
        found = subprocess.run(
            ["git", "describe", "--always", "--dirty"], cwd=settings.BASE_DIR, capture_output=True, text=True
        )
    except OSError:
        return ""
    return found.stdout.strip() if found.returncode == 0 else ""


def venue_environment(*, host: str, port: int, database_url: str, base: dict | None = None) -> dict:
    """The environment of the venue's server: production settings (DEBUG off) over plain HTTP on ``host``."""
    site = f"http://{host}:{port}"
    env = dict(os.environ if base is None else base)
    env.update(
        DATABASE_URL=database_url,
        DEBUG="false",
        SECURE_HTTPS="false",
        ALLOWED_HOSTS=",".join(dict.fromkeys([host, "127.0.0.1", "localhost", "[::1]"])),
        SITE_URL=site,
    )
    env.setdefault("RELEASE", code_release())
    return env
