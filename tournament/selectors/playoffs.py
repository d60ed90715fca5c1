"""The bracket as columns of matches, the seeds, and the champion."""

from dataclasses import dataclass

from django.db.models import QuerySet

from scoring.bracket import stage_name
from tournament.models import PlayoffMatch, PlayoffSeed, Team, Tournament
from tournament.selectors.prefetch import members


@dataclass(frozen=True)
class BracketColumn:
    title: str
    matches: list


def playoff_bracket(tournament: Tournament) -> list[BracketColumn]:
    """The bracket's matches in columns (winners' rounds, then losers' rounds, then the finals)."""
    matches = list(
        PlayoffMatch.objects.filter(tournament=tournament)
        .select_related("top_team", "bottom_team", "winner", "table")
        .prefetch_related(
            members("top_team__memberships"), members("bottom_team__memberships"), members("winner__memberships")
        )
        .order_by("bracket_round", "position")
    )
    columns: list[BracketColumn] = []
    groups: dict[tuple, list] = {}
    for match in matches:
        groups.setdefault((match.bracket, match.bracket_round), []).append(match)
    order = {"winners": 0, "losers": 1, "third": 2, "final": 3}
    for (bracket, round_number), group in sorted(groups.items(), key=lambda item: (order[item[0][0]], item[0][1])):
        title = f"Losers' round {round_number}" if bracket == "losers" else stage_name(group[0].label)
        columns.append(BracketColumn(title=title, matches=group))
    return columns


def playoff_matches(tournament: Tournament) -> list[PlayoffMatch]:
    """Every match of the bracket in playing order, with its teams and table, for the projector."""
    return list(
        PlayoffMatch.objects.filter(tournament=tournament, not_needed=False)
        .select_related("top_team", "bottom_team", "winner", "table")
        .prefetch_related(members("top_team__memberships"), members("bottom_team__memberships"))
        .order_by("stage", "bracket_round", "position")
    )


def playoff_seeds(tournament: Tournament) -> QuerySet[PlayoffSeed]:
    return (
        PlayoffSeed.objects.filter(tournament=tournament)
        .select_related("team")
        .prefetch_related(members("team__memberships"))
    )


def playoff_champion(matches: list[PlayoffMatch]) -> Team | None:
    """The winner of the final; in double elimination the reset decides when it is played."""
    finals = {m.code: m for m in matches if m.bracket == PlayoffMatch.Bracket.FINAL}
    if "GF" in finals:
        reset = finals.get("GF2")
        if reset is not None and reset.not_needed:
            return finals["GF"].winner
        return reset.winner if reset is not None else None
    final = next(iter(finals.values()), None)
    return final.winner if final else None


def tournament_champion(tournament: Tournament) -> Team | None:
    """The champion once the final is decided, else None."""
    if tournament.status != Tournament.Status.FINISHED:
        return None
    finals = list(PlayoffMatch.objects.filter(tournament=tournament, bracket="final").select_related("winner"))
    return playoff_champion(finals)
