"""From closed qualifying to a champion: seeding, the bracket, and each match's table as teams advance."""

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from scoring import Pair
from scoring import bracket as brackets
from tournament.errors import ServiceError
from tournament.models import LogEntry, PlayoffMatch, PlayoffSeed, Round, Seating, Table, Team, Tournament
from tournament.roles import is_director
from tournament.selectors import playoff_champion
from tournament.selectors.standings import tournament_standings
from tournament.services.changes import Changed, changed
from tournament.services.clock import round_completion_store
from tournament.services.log import Actor, actor_of, log_write


def qualifying_problems(tournament: Tournament) -> list[str]:
    """What must happen before the playoff can be seeded, in words for the director."""
    problems = []
    rounds = list(tournament.rounds.filter(kind=Round.Kind.QUALIFYING).order_by("number"))
    if not any(r.status != Round.Status.DRAFT for r in rounds):
        problems.append("No qualifying round has been played.")
    for round_ in rounds:
        if round_.status == Round.Status.DRAFT:
            problems.append(f"Round {round_.number} is a draft: publish or discard it.")
    unsigned = (
        Table.objects.filter(round__tournament=tournament, round__kind=Round.Kind.QUALIFYING, locked_at__isnull=True)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round")
        .order_by("round__number", "number")
    )
    for table in unsigned:
        problems.append(f"Round {table.round.number}, table {table.number} is not signed.")
    return problems


def seeding_changes(tournament: Tournament) -> list[str]:
    """How the standings now differ from the seeds (a qualifying sheet corrected after seeding), in words;
    empty while the seeds are the standings' top teams in order."""
    seeds = list(tournament.playoff_seeds.select_related("team").order_by("seed"))
    if not seeds:
        return []
    ranked = [row.team for row in tournament_standings(tournament) if not row.team.withdrawn][: len(seeds)]
    return [
        f"Seed {seed.seed} is #{seed.team.number}; the standings now put #{team.number} there."
        for seed, team in zip(seeds, ranked, strict=False)
        if seed.team_id != team.pk
    ]


def playoff_started(tournament: Tournament) -> bool:
    """Whether any playoff match has a hand, a penalty or a signature on its sheet."""
    return (
        Table.objects.filter(round__tournament=tournament, round__kind=Round.Kind.PLAYOFF)
        .filter(Q(hands__isnull=False) | Q(penalties__isnull=False) | Q(signatures__isnull=False))
        .exists()
    )


@transaction.atomic
def playoff_reseed(*, tournament: Tournament, actor: Actor | None = None) -> list:
    """Seed the playoff again from the standings as they are now (after a qualifying correction), with the
    same number of teams and options; a published bracket is rebuilt and published again. Refused once
    a playoff match has started."""
    actor = actor_of(actor)
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    count = tournament.playoff_seeds.count()
    if not count:
        raise ServiceError("The playoff is not seeded yet.")
    if playoff_started(tournament):
        raise ServiceError("A playoff match has started: the seeds stand. Ask the players before changing anything.")
    was_published = tournament.playoff_published_at is not None
    if was_published:
        tournament.playoff_matches.all().delete()
        tournament.rounds.filter(kind=Round.Kind.PLAYOFF).delete()
        tournament.playoff_published_at = None
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["playoff_published_at", "status"])
    seeds = playoff_seed(
        tournament=tournament,
        teams=count,
        third_place=tournament.playoff_third_place,
        double=tournament.playoff_double,
        actor=actor,
    )
    if was_published:
        playoff_publish(tournament=tournament, actor=actor)
    return seeds


def _check_not_published(tournament: Tournament) -> None:
    if tournament.playoff_published_at is not None:
        raise ServiceError("The bracket is published; the seeds can no longer change.")


@transaction.atomic
def playoff_seed(
    *, tournament: Tournament, teams: int, third_place: bool = False, double: bool = False, actor: Actor | None = None
) -> list:
    """Seed the top teams of the standings 1..N as a draft the director can still change."""
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    _check_not_published(tournament)
    problems = qualifying_problems(tournament)
    if problems:
        raise ServiceError("Qualifying is not over: " + " ".join(problems))
    ranked = [row.team for row in tournament_standings(tournament) if not row.team.withdrawn]
    if teams < 2:
        raise ServiceError("A playoff needs at least two teams.", field="teams")
    if teams > len(ranked):
        raise ServiceError(f"Only {len(ranked)} teams can play the playoff.", field="teams")
    if third_place and not double and teams < 4:
        raise ServiceError(
            f"A third-place match needs four teams or more: with {teams} there is only one semifinal loser.",
            field="third_place",
        )
    tournament.playoff_seeds.all().delete()
    seeds = PlayoffSeed.objects.bulk_create(
        PlayoffSeed(tournament=tournament, seed=number, team_id=team.pk)
        for number, team in enumerate(ranked[:teams], start=1)
    )
    tournament.playoff_third_place = third_place and not double
    tournament.playoff_double = double
    tournament.save(update_fields=["playoff_third_place", "playoff_double"])
    style = "double elimination" if double else "with a third-place match" if tournament.playoff_third_place else ""
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.PLAYOFF_SEEDED,
        summary=f"Top {teams} seeded for the playoff" + (f", {style}" if style else ""),
        tournament=tournament,
        after={"seeds": [team.number for team in ranked[:teams]], "third_place": third_place, "double": double},
    )
    changed(Changed.PLAYOFF, tournament)
    return seeds


@transaction.atomic
def playoff_seeds_swap(*, tournament: Tournament, seed_a: int, seed_b: int, actor: Actor | None = None) -> None:
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    _check_not_published(tournament)
    seeds = {s.seed: s for s in tournament.playoff_seeds.filter(seed__in=[seed_a, seed_b])}
    for field, number in (("seed_a", seed_a), ("seed_b", seed_b)):
        if number not in seeds:
            raise ServiceError(f"There is no seed {number}.", field=field)
    if seed_a == seed_b:
        raise ServiceError("Choose two different seeds.", field="seed_b")
    first, second = seeds[seed_a], seeds[seed_b]
    team_a, team_b = first.team, second.team
    PlayoffSeed.objects.filter(pk__in=[first.pk, second.pk]).delete()
    PlayoffSeed.objects.bulk_create(
        [
            PlayoffSeed(tournament=tournament, seed=seed_a, team=team_b),
            PlayoffSeed(tournament=tournament, seed=seed_b, team=team_a),
        ]
    )
    log_write(
        actor=actor_of(actor),
        action=LogEntry.Action.PLAYOFF_SEEDS_SWAPPED,
        summary=f"Seeds swapped: #{team_b.number} is seed {seed_a}, #{team_a.number} is seed {seed_b}",
        tournament=tournament,
        before={str(seed_a): team_a.number, str(seed_b): team_b.number},
        after={str(seed_a): team_b.number, str(seed_b): team_a.number},
    )
    changed(Changed.PLAYOFF, tournament)


@transaction.atomic
def playoff_publish(*, tournament: Tournament, actor: Actor | None = None) -> list[PlayoffMatch]:
    """Fix the bracket: its matches exist, and the first ones get their tables and links."""
    actor = actor_of(actor)
    tournament = Tournament.objects.select_for_update().select_related("event").get(pk=tournament.pk)
    _check_not_published(tournament)
    seeds = list(tournament.playoff_seeds.all())
    if len(seeds) < 2:
        raise ServiceError("Seed the playoff first.")
    matches = playoff_matches_create(tournament, len(seeds))
    tournament.status = Tournament.Status.PLAYOFFS
    tournament.playoff_published_at = timezone.now()
    tournament.save(update_fields=["status", "playoff_published_at"])
    log_write(
        actor=actor,
        action=LogEntry.Action.PLAYOFF_PUBLISHED,
        summary=f"Bracket of {len(seeds)} published: {len(matches)} matches",
        tournament=tournament,
    )
    playoff_resolve(tournament, actor=actor)
    changed(Changed.PLAYOFF, tournament)
    return matches


def playoff_matches_create(tournament: Tournament, teams: int, tables: dict[str, Table] | None = None) -> list:
    """The bracket's matches for the tournament's options; ``tables`` links imported sheets by match code."""
    bracket = brackets.build(teams, double=tournament.playoff_double, third_place=tournament.playoff_third_place)
    tables = tables or {}
    unknown = sorted(set(tables) - {match.code for match in bracket.matches})
    if unknown:
        raise ServiceError(f"tables name playoff matches this bracket does not have: {', '.join(unknown)}")
    return PlayoffMatch.objects.bulk_create(
        PlayoffMatch(
            tournament=tournament,
            code=match.code,
            bracket=match.bracket,
            bracket_round=match.round,
            position=match.position,
            stage=match.stage,
            label=match.label,
            top_source=str(match.top),
            bottom_source=str(match.bottom),
            conditional=match.conditional,
            table=tables.get(match.code),
        )
        for match in bracket.matches
    )


def _stage_round(tournament: Tournament, stage: int, labels: list[str]) -> Round:
    base = tournament.rounds.filter(kind=Round.Kind.QUALIFYING).aggregate(last=Max("number"))["last"] or 0
    number = max(base, tournament.qualifying_rounds) + stage
    names = sorted(dict.fromkeys(brackets.stage_name(label) for label in labels), key=lambda name: "Third" in name)
    round_, _ = Round.objects.get_or_create(
        tournament=tournament,
        number=number,
        defaults={
            "kind": Round.Kind.PLAYOFF,
            "status": Round.Status.PUBLISHED,
            "method": Round.Method.MANUAL,
            "label": " · ".join(names)[:60],
            "published_at": timezone.now(),
        },
    )
    return round_


def _open_table(tournament: Tournament, match: PlayoffMatch, labels: list[str]) -> Table:
    round_ = _stage_round(tournament, match.stage, labels)
    number = (round_.tables.aggregate(last=Max("number"))["last"] or 0) + 1
    table = Table.objects.create(round=round_, number=number, sitting_pair=Pair.NORTH_SOUTH)
    Seating.objects.bulk_create(
        [
            Seating(round=round_, team=match.top_team, table=table, pair=Pair.NORTH_SOUTH),
            Seating(round=round_, team=match.bottom_team, table=table, pair=Pair.EAST_WEST),
        ]
    )
    round_completion_store(round=round_)
    return table


def _seat_teams(table: Table, top: Team, bottom: Team) -> None:
    """After a confirmed knock-on, the corrected winner takes the place at the next match's table."""
    for pair, team in ((Pair.NORTH_SOUTH, top), (Pair.EAST_WEST, bottom)):
        Seating.objects.filter(table=table, pair=pair).exclude(team=team).update(team=team)


def playoff_resolve(tournament: Tournament, *, actor: Actor | None = None, reseat: bool = True) -> Team | None:
    """Work out every match's teams and result from the seeds and the signed sheets.

    Opens a table for each match whose two teams are known, and returns the champion once decided.
    Idempotent: run after anything that can change a playoff result; ``actor`` is whoever caused it, and says
    what changed (a playoff sheet, the bracket published, an event imported).
    ``reseat``: a match's open table takes the teams the bracket now gives it (after a knock-on); an
    archive being loaded keeps its tables as they are, and is checked instead.
    """
    actor = actor_of(actor)
    seeds = {s.seed: s.team for s in tournament.playoff_seeds.select_related("team")}
    matches = list(
        tournament.playoff_matches.select_related("table", "top_team", "bottom_team").order_by("stage", "code")
    )
    by_stage: dict[int, list[str]] = {}
    for match in matches:
        by_stage.setdefault(match.stage, []).append(match.label)
    results: dict[str, tuple[Team | None, Team | None]] = {}

    def team_from(source_text: str) -> Team | None:
        source = brackets.Source.parse(source_text)
        if source.kind == "seed":
            return seeds.get(int(source.value))
        winner, loser = results.get(str(source.value), (None, None))
        return winner if source.kind == "winner" else loser

    for match in matches:
        top, bottom = team_from(match.top_source), team_from(match.bottom_source)
        match.not_needed = False
        if match.conditional:
            first_final = next(m for m in matches if m.code == brackets.Source.parse(match.top_source).value)
            if first_final.winner is not None and first_final.winner_id == first_final.top_team_id:
                match.not_needed = True
                top = bottom = None
        match.top_team, match.bottom_team = top, bottom
        winner = loser = None
        if top is not None and bottom is not None:
            if match.table is None:
                match.table = _open_table(tournament, match, by_stage[match.stage])
                log_write(
                    actor=actor,
                    action=LogEntry.Action.PLAYOFF_MATCH_OPENED,
                    summary=f"{match.label}: #{top.number} {top.display_name} v #{bottom.number} "
                    f"{bottom.display_name} at table {match.table.number}",
                    table=match.table,
                )
            elif reseat:
                _seat_teams(match.table, top, bottom)
            table = match.table
            if table.locked_at is not None and table.winner_pair is not None:
                winner, loser = (top, bottom) if table.winner_pair == Pair.NORTH_SOUTH else (bottom, top)
        match.winner, match.loser = winner, loser
        results[match.code] = (winner, loser)
    PlayoffMatch.objects.bulk_update(matches, ["top_team", "bottom_team", "table", "winner", "loser", "not_needed"])
    champion = playoff_champion(matches)
    status = Tournament.Status.FINISHED if champion else Tournament.Status.PLAYOFFS
    if tournament.status != status:
        tournament.status = status
        Tournament.objects.filter(pk=tournament.pk).update(status=status)
        if champion is not None:
            log_write(
                actor=actor,
                action=LogEntry.Action.CHAMPION,
                summary=f"Champion: #{champion.number} {champion.display_name}",
                tournament=tournament,
                team=champion,
            )
    return champion


def _dependents(match: PlayoffMatch) -> list[PlayoffMatch]:
    """The matches a side of which is this match's winner or loser."""
    sources = [f"winner:{match.code}", f"loser:{match.code}"]
    return list(
        PlayoffMatch.objects.filter(tournament_id=match.tournament_id)
        .filter(Q(top_source__in=sources) | Q(bottom_source__in=sources))
        .select_related("table")
    )


def playoff_after_change(table: Table, *, winner_before: str | None, actor: Actor, confirm_knock_on: bool) -> None:
    """Carry a change to a playoff sheet through the bracket; refuse an unconfirmed knock-on.

    A correction that changes a signed match's winner after the next match started needs a director's
    confirmation; one that leaves such a match undecided is refused outright.
    """
    if table.round.kind != Round.Kind.PLAYOFF:
        return
    match = PlayoffMatch.objects.filter(table=table).first()
    if match is None:
        return
    table.refresh_from_db()
    winner_after = table.winner_pair if table.locked_at is not None else None
    if winner_after != winner_before:
        started = [
            dependent
            for dependent in _dependents(match)
            if dependent.table is not None and (dependent.table.hands_played or dependent.table.locked_at)
        ]
        if started:
            names = ", ".join(dependent.label for dependent in started)
            if winner_after is None:
                raise ServiceError(
                    f"This change leaves {match.label} undecided, but {names} has started. Enter the deciding "
                    "hand in the same correction."
                )
            if not (confirm_knock_on and actor.user is not None and is_director(actor.user)):
                raise ServiceError(
                    f"This correction changes the winner of {match.label}, and {names} has started. "
                    "A director must confirm the knock-on: the new winner takes that place.",
                    field="confirm_knock_on",
                )
    playoff_resolve(table.round.tournament, actor=actor)
