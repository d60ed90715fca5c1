"""`make run` as a newcomer sees it: a few lines saying what it does, then the director's one-time password set
apart as the last thing before the server starts; a later run never prints it again."""

import os
import stat
import subprocess
import sys

from django.conf import settings

SERVING = "(the development server would start here)"


def make_run(tmp_path) -> list[str]:
    """What ``make run`` prints, on a database of its own in ``tmp_path``, the server replaced by a line saying it
    would start (the installed packages taken as they are)."""
    python = tmp_path / "python"
    serve = f'[ "$2" = runserver ] && {{ echo "{SERVING}"; exit 0; }}'
    python.write_text(f'#!/bin/sh\n{serve}\nexec {sys.executable} "$@"\n')
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}"}
    env.pop("DIRECTOR_PASSWORD", None)
    done = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/.installed", "run", f"PY={python}"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def test_make_run_prints_the_password_last_set_apart_and_once(tmp_path):
    lines = make_run(tmp_path)
    assert lines[-1] == SERVING
    block = lines[lines.index("=" * 72) : -1]
    assert block[-2] == "=" * 72 and block[-1] == "", "closed by a rule and a blank line"
    assert any(line.startswith("Log in as director with the password ") for line in block)
    assert any("changepassword director" in line for line in block), "with how to change it"
    before = lines[: lines.index("=" * 72)]
    assert len(before) <= 6, f"no install or migration output before it: {before}"
    again = make_run(tmp_path)
    assert "=" * 72 not in again and not any("with the password " in line and "given" not in line for line in again)
    assert any("changepassword director" in line for line in again)
