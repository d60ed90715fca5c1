"""Registering the teams of a CSV file (docs/teams-csv.md): all of them, or none with every problem listed."""

import csv
import io
import re

from django.db import transaction

from tournament.errors import ImportRejected, ServiceError
from tournament.models import LogEntry, Team, Tournament
from tournament.services.changes import Changed, changed
from tournament.services.log import Actor, actor_of, log_write
from tournament.services.teams.entries import (
    PlayerEntry,
    number_problem,
    registration_clashes,
    team_entry_problems,
)
from tournament.services.teams.register import register

CSV_COLUMNS = {
    "player1": "first player's name (required)",
    "player1_city": "first player's city or club",
    "player1_phone": "first player's phone",
    "player2": "second player's name (required)",
    "player2_city": "second player's city or club",
    "player2_phone": "second player's phone",
    "team_name": "team name (blank: the players' names)",
    "team_city": "team's city (blank: the players' city when they share one)",
    "team_number": "team number (blank: the next free number)",
    "fee_paid": "yes or no",
    "side_pot": "yes or no",
    "checked_in": "yes or no",
}
REQUIRED_COLUMNS = ("player1", "player2")
FLAGS = ("fee_paid", "side_pot", "checked_in")
_YES = {"yes", "y", "true", "1", "x", "paid"}
_NO = {"no", "n", "false", "0", ""}
_NUMBER = re.compile(r"[0-9]{1,9}")


def _read_rows(text: str) -> tuple[list[tuple[int, dict[str, str]]], list[tuple[int, str]]]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [(name or "").strip().lower() for name in (reader.fieldnames or [])]
    problems = []
    if not header:
        return [], [(1, "The file is empty: the first line must name the columns.")]
    unknown = [name[:40] for name in header if name not in CSV_COLUMNS]
    if unknown:
        problems.append((1, f"Unknown column(s): {', '.join(unknown)}."))
    repeated = sorted({name[:40] for name in header if header.count(name) > 1})
    if repeated:
        problems.append((1, f"Column(s) named twice: {', '.join(repeated)}: which one holds the value?"))
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    if missing:
        problems.append((1, f"Missing required column(s): {', '.join(missing)}."))
    if problems:
        return [], problems
    reader.fieldnames = header
    rows = []
    for row in reader:
        if None in row:
            problems.append((reader.line_num, "The line has more values than the header has columns."))
            continue
        values = {key: (value or "").strip() for key, value in row.items()}
        if any(values.values()):
            rows.append((reader.line_num, values))
    return rows, problems


class _Line:
    """One line of the file, read the way the registration form reads a team, every problem kept."""

    def __init__(self, values: dict[str, str]):
        self.players = [
            PlayerEntry(
                values.get(f"player{i}", ""), values.get(f"player{i}_city", ""), values.get(f"player{i}_phone", "")
            )
            for i in (1, 2)
        ]
        self.name = values.get("team_name", "")
        self.city = values.get("team_city", "")
        self.problems = [problem.message for problem in team_entry_problems(self.players, self.name, self.city)]
        self.number = self._number(values.get("team_number", ""))
        self.flags = {flag: self._yes_no(values.get(flag, ""), flag) for flag in FLAGS}

    def _number(self, text: str) -> int | None:
        if not text:
            return None
        if not _NUMBER.fullmatch(text):
            self.problems.append(f"The team number must be a whole number, not {text[:20]!r}.")
            return None
        number = int(text)
        problem = number_problem(number)
        if problem:
            self.problems.append(problem)
            return None
        return number

    def _yes_no(self, text: str, column: str) -> bool:
        value = text.strip().lower()
        if value not in _YES | _NO:
            self.problems.append(f"The {column} column must be yes or no, not {value[:20]!r}.")
        return value in _YES


def teams_import_csv(*, tournament: Tournament, text: str, actor: Actor | None = None) -> list[Team]:
    """Register every team of a CSV file, or none: each bad line is reported with its number."""
    try:
        rows, problems = _read_rows(text)
    except csv.Error as error:
        raise ImportRejected([(1, f"This is not a readable CSV file ({error}).")]) from None
    if not rows and not problems:
        problems.append((2, "The file names the columns but has no teams."))
    teams = []
    seen_players: dict[tuple[str, str], int] = {}
    seen_numbers: dict[int, int] = {}
    with transaction.atomic():
        for line_number, values in rows:
            line = _Line(values)
            number_repeated = line.number is not None and line.number in seen_numbers
            if number_repeated:
                line.problems.append(f"Team number {line.number} is also on line {seen_numbers[line.number or 0]}.")
            if line.number is not None:
                seen_numbers.setdefault(line.number, line_number)
            keys = [(entry.cleaned().name.casefold(), entry.cleaned().city.casefold()) for entry in line.players]
            repeated = [key[0] and key in seen_players for key in keys]
            for entry, key, again in zip(line.players, keys, repeated, strict=True):
                if again:
                    line.problems.append(f"{entry.cleaned().name} is also on the team on line {seen_players[key]}.")
            # Only what is not already said of an earlier line of the file (whose team may be registered by now).
            line.problems += registration_clashes(
                tournament,
                [entry for entry, again in zip(line.players, repeated, strict=True) if not again],
                None if number_repeated else line.number,
            )
            if not line.problems:
                try:
                    with transaction.atomic():
                        teams.append(
                            register(tournament, line.players, line.name, line.city, line.number, **line.flags)
                        )
                except ServiceError as error:
                    line.problems.append(error.message)
            for key in keys:
                seen_players.setdefault(key, line_number)
            problems.extend((line_number, problem) for problem in dict.fromkeys(line.problems))
        if problems:
            raise ImportRejected(sorted(problems, key=lambda problem: problem[0]))
        log_write(
            actor=actor_of(actor),
            action=LogEntry.Action.TEAMS_IMPORTED,
            summary=f"{len(teams)} teams imported from CSV: #" + ", #".join(str(team.number) for team in teams),
            tournament=tournament,
            after={"teams": [team.number for team in teams]},
        )
        changed(Changed.TEAMS, tournament)
    return teams
