"""`make bench` and `make bench-load` call the benchmark commands: each call, as make gives it, starts."""

import shlex
import subprocess

from django.conf import settings


def _bench_calls(target: str) -> list[str]:
    """The shell lines ``make <target>`` runs that call a benchmark command (``make -n`` prints them)."""
    printed = subprocess.run(
        ["make", "-n", target], cwd=settings.BASE_DIR, capture_output=True, text=True, check=True
    ).stdout
    return [line for line in printed.splitlines() if " bench_" in line]


def test_every_benchmark_make_calls_starts():
    """Each line of ``make bench`` and ``make bench-load`` finds its command (``--help`` stops it there): a
    settings option before the command's name, as ``manage.py --settings … bench_scale``, was not one."""
    calls = _bench_calls("bench") + _bench_calls("bench-load")
    names = {word for call in calls for word in shlex.split(call) if word.startswith("bench_")}
    assert names == {"bench_scale", "bench_printing", "bench_logins", "bench_bulk", "bench_across", "bench_load"}
    for call in calls:
        started = subprocess.run(
            f"{call} --help", shell=True, cwd=settings.BASE_DIR, capture_output=True, text=True, timeout=120
        )
        assert started.returncode == 0 and "usage:" in started.stdout, (call, started.stderr[-500:])
