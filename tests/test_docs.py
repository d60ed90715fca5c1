"""The docs' commands and paths are checked against the repository, so a stale one fails here: a path in
backticks that is no more, a ``make`` target or a ``manage.py`` command the project does not have, a ``pip install``
of a package beside the pinned requirements."""

import re
from pathlib import Path

import pytest
from django.core.management import get_commands

from scoring.money import MONEY_SETTINGS

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A span in backticks is taken for a path of the repository when it starts at one of its top-level entries.
TOP = {path.name for path in ROOT.iterdir() if not path.name.startswith(".")}
PATH = re.compile(r"[\w.-]+(?:/[\w.-]*)*")
MAKE = re.compile(r"^make ((?:[a-z][\w-]*(?: |$))+)", re.MULTILINE)
MANAGE = re.compile(r"manage\.py ([a-z_]*[a-z])\b(?!\*)")
PIP = re.compile(r"\bpip install ([^\n]+)")


def _texts():
    return [pytest.param(path.read_text(), id=path.relative_to(ROOT).as_posix()) for path in DOCS]


def _code(text: str) -> str:
    """What the text shows as code, one piece a line: its spans in backticks and its fenced blocks' lines."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    return "\n".join(
        [*re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)), *blocks]
    )


def _pinned() -> set[str]:
    names = set()
    for requirements in ROOT.glob("requirements*.txt"):
        names.update(re.findall(r"^([A-Za-z0-9_.-]+)==", requirements.read_text(), re.MULTILINE))
    return {re.sub(r"[-_.]+", "-", name).lower() for name in names}


@pytest.mark.parametrize("text", _texts())
def test_every_path_named_exists(text):
    words = {word.split("::")[0].rstrip(",.;:)") for word in _code(text).split()}
    named = {word for word in words if PATH.fullmatch(word) and word.split("/")[0] in TOP and "/" in word}
    assert sorted(path for path in named if not (ROOT / path).exists()) == []


@pytest.mark.parametrize("text", _texts())
def test_every_make_target_named_exists(text):
    targets = set(re.findall(r"^([\w.-]+):", (ROOT / "Makefile").read_text(), re.MULTILINE))
    named = {word for words in MAKE.findall(_code(text)) for word in words.split() if not word.startswith("-")}
    assert sorted(named - targets) == []


@pytest.mark.parametrize("text", _texts())
def test_every_manage_py_command_named_exists(text):
    bench = {path.stem for path in (ROOT / "bench" / "management" / "commands").glob("[a-z]*.py")}
    assert sorted(set(MANAGE.findall(_code(text))) - set(get_commands()) - bench) == []


@pytest.mark.parametrize("text", _texts())
def test_pip_installs_only_the_pinned_requirements(text):
    """``pip install -r`` a requirements file that exists. A package named alone is stale either way: pinned,
    ``make`` installs it already (with its hash); not pinned, the project does not use it."""
    stale = []
    for line in PIP.findall(_code(text)):
        words = iter(line.split())
        for word in words:
            if word in ("-r", "--requirement"):
                file = next(words)
                if not (ROOT / file).is_file():
                    stale.append(f"{file}: no such file")
            elif not word.startswith("-"):
                pinned = re.sub(r"[-_.]+", "-", word).lower() in _pinned()
                stale.append(f"{word}: {'pinned already' if pinned else 'not pinned'}")
    assert stale == []


def test_the_money_docs_list_every_declared_money_setting():
    """A money setting is declared once (``scoring.money.MONEY_SETTINGS``); the docs say it in two places: the
    settings table of ``docs/money.md`` by its label, and the archive's format of ``docs/archive.md`` by its key."""
    table = re.findall(r"^\| ([^|]+?) \|", (ROOT / "docs" / "money.md").read_text(), re.MULTILINE)
    money_format = re.search(r'"money": \{(.*?)"payments"', (ROOT / "docs" / "archive.md").read_text(), re.S)
    assert money_format is not None
    assert [setting.label for setting in MONEY_SETTINGS.values() if setting.label not in table] == []
    assert [name for name in MONEY_SETTINGS if not re.search(rf"\b{name}\b", money_format.group(1))] == []
