"""The suite's own set-up (tests/conftest.py): what a run of the engine's tests alone costs."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_engines_tests_run_without_static_files_or_a_database(tmp_path):
    """``pytest tests/scoring`` on a fresh clone: no static files collected (that took most of a minute), no test
    database made. Both would land in the temporary folder the settings name (tests/settings.py)."""
    env = dict(os.environ, TMPDIR=str(tmp_path))
    env.pop("PYTEST_XDIST_WORKER", None)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "tests/scoring/test_words.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert sorted(path.name for path in tmp_path.glob("bidwhist-test-*")) == []
