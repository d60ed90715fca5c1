"""The API's answers, built from the selectors the pages use (a fixed number of queries each).

The `standings` and `playoff` commands print the same answers as JSON.
"""

from typing import TYPE_CHECKING, TypedDict, overload

from django.http import Http404
from django.shortcuts import get_object_or_404

from scoring import Pair, Result, TeamOutcome
from tournament import selectors
from tournament.api import schemas
from tournament.models import Event, Hand, Penalty, Round, Seating, Substitute, Table, Team, Tournament
from tournament.selectors.prefetch import members, seatings
from tournament.selectors.standings import StandingRow, StandingTeam, credits_attach, tournament_standings

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from tournament.selectors.rounds import SheetRecords

IN_PLAY = [Round.Status.PUBLISHED, Round.Status.CLOSED]


@overload
def team_ref(team: Team) -> schemas.TeamRef: ...
@overload
def team_ref(team: Team | None) -> schemas.TeamRef | None: ...
def team_ref(team: Team | None) -> schemas.TeamRef | None:
    return schemas.TeamRef.model_validate(team) if team is not None else None


def players_of(team: Team | StandingTeam) -> list[str]:
    return team.player_name_list


def team_out(team: Team) -> schemas.TeamOut:
    return schemas.TeamOut.model_validate(team)


def events() -> list[schemas.EventOut]:
    return [event_out(event) for event in selectors.events_list().prefetch_related("tournaments")]


def event_out(event: Event) -> schemas.EventOut:
    return schemas.EventOut.model_validate(event)


def _playoff_options(tournament: Tournament) -> schemas.PlayoffOptions:
    """A draft playoff (seeded, not published) is the director's: nothing of it shows until it is published."""
    if tournament.playoff_published_at is None:
        return schemas.PlayoffOptions(seeded=False, published=False, third_place=False, double_elimination=False)
    return schemas.PlayoffOptions(
        seeded=True,
        published=True,
        third_place=tournament.playoff_third_place,
        double_elimination=tournament.playoff_double,
    )


def tournament_out(tournament: Tournament) -> schemas.TournamentOut:
    return schemas.TournamentOut(
        slug=tournament.slug,
        name=tournament.name,
        event=schemas.EventRef(slug=tournament.event.slug, name=tournament.event.name),
        status=tournament.status,
        qualifying_rounds=tournament.qualifying_rounds,
        standings_order=list(tournament.criteria),
        rules=tournament.rules.to_dict(),
        playoff=_playoff_options(tournament),
        teams=tournament.teams.count(),
    )


def teams(tournament: Tournament) -> list[schemas.TeamOut]:
    return [team_out(team) for team in selectors.teams_with_players(tournament)]


def penalty_out(penalty: Penalty) -> schemas.PenaltyOut:
    return schemas.PenaltyOut.model_validate(penalty)


def hand_out(hand: Hand) -> schemas.HandOut:
    return schemas.HandOut.model_validate(hand)


class RoundResultFields(TypedDict):
    points_for: int
    points_against: int
    result: Result
    counted: bool
    provisional: bool
    line: str


def round_result_out(outcome: TeamOutcome) -> RoundResultFields:
    """A team's round as the API gives it (``RoundResultOut``'s fields)."""
    return {
        "points_for": outcome.points_for,
        "points_against": outcome.points_against,
        "result": outcome.result,
        "counted": outcome.counted,
        "provisional": outcome.provisional,
        "line": outcome.line,
    }


def table_out(table: Table) -> schemas.TableOut:
    """A table as the rounds' list gives it: no hands (see ``table_sheet_out``)."""
    winner = None
    if table.signed and table.winner_pair:
        winner = table.team_at(table.winner_pair).number
    return schemas.TableOut(
        number=table.number,
        stage=table.stage,
        north_south=team_ref(table.team_ns),
        east_west=team_ref(table.team_ew),
        sitting=table.sitting_pair,
        hands_played=table.hands_played,
        complete=table.complete,
        time_called_after=table.time_called_after,
        forfeit=table.forfeit,
        signed=table.signed,
        signed_at=table.locked_at,
        ns_total=table.ns_total,
        ew_total=table.ew_total,
        winner=winner,
        north_south_round=schemas.RoundResultOut(**round_result_out(table.side_outcome(Pair.NORTH_SOUTH))),
        east_west_round=schemas.RoundResultOut(**round_result_out(table.side_outcome(Pair.EAST_WEST))),
    )


def table_sheet_out(table: "WithAnnotations[Table, SheetRecords]") -> schemas.TableOut:
    """A table with its hands and the round-level rulings, as one round's record gives it."""
    hands = [hand_out(hand) for hand in table.hands.all()]
    return table_out(table).model_copy(update={"hands": hands, "rulings": [penalty_out(p) for p in table.rulings]})


def rounds(tournament: Tournament) -> list[schemas.RoundOut]:
    """The published rounds with their tables (no hands: see one round)."""
    in_play = list(tournament.rounds.filter(status__in=IN_PLAY).order_by("number"))
    tables: dict[int, list[Table]] = {}
    for table in (
        Table.objects.filter(round__in=in_play)
        .select_related("round", "playoff_match")
        .prefetch_related(seatings())
        .order_by("number")
    ):
        tables.setdefault(table.round_id, []).append(table)
    byes: dict[int, list[Seating]] = {}
    for seating in (
        Seating.objects.filter(round__in=in_play, table__isnull=True)
        .select_related("team")
        .prefetch_related(members("team__memberships"))
    ):
        byes.setdefault(seating.round_id, []).append(seating)
    substitutes: dict[int, list[Substitute]] = {}
    for substitute in Substitute.objects.filter(round__in=in_play).select_related("team", "replaces"):
        substitutes.setdefault(substitute.round_id, []).append(substitute)
    sitting_out = selectors.rounds_sitting_out(tournament, [round_.number for round_ in in_play])
    credits_attach(
        tournament,
        tables=[table for found in tables.values() for table in found],
        byes=[bye for found in byes.values() for bye in found],
    )
    return [
        round_out(
            round_,
            [table_out(table) for table in tables.get(round_.pk, [])],
            byes.get(round_.pk, []),
            substitutes.get(round_.pk, []),
            sitting_out.get(round_.number, []),
        )
        for round_ in in_play
    ]


# The round's own fields the API gives as the model holds them.
ROUND_OWN = ("number", "kind", "title", "status", "method", "published_at")


def round_out(
    round_: Round,
    tables: list[schemas.TableOut],
    byes: list[Seating],
    substitutes: list[Substitute],
    sitting_out: list[Team],
) -> schemas.RoundOut:
    return schemas.RoundOut(
        **{name: getattr(round_, name) for name in ROUND_OWN},
        tables=tables,
        byes=[team_ref(seating.team) for seating in byes],
        bye_credit=byes[0].credit.points if byes and byes[0].credit else None,
        bye_credit_provisional=bool(byes and byes[0].credit and byes[0].credit.provisional),
        sitting_out=[team_ref(team) for team in sitting_out],
        substitutes=[
            schemas.SubstituteOut(team=sub.team.number, replaces=sub.replaces.name, name=sub.name)
            for sub in substitutes
        ],
    )


def round_with_hands(tournament: Tournament, number: int) -> schemas.RoundOut:
    round_ = get_object_or_404(Round, tournament=tournament, number=number, status__in=IN_PLAY)
    substitutes = list(round_.substitutes.select_related("team", "replaces"))
    sitting_out = selectors.rounds_sitting_out(tournament, [number]).get(number, [])
    return round_out(
        round_,
        [table_sheet_out(table) for table in selectors.round_sheets(round_)],
        selectors.round_byes(round_),
        substitutes,
        sitting_out,
    )


def standing_out(row: StandingRow) -> schemas.StandingOut:
    """A standings row as the API gives it, built without validation: every value is already of its field's type
    (ranked records of whole numbers, the teams' own fields), and validating 512 rows through django-ninja's
    attribute getter cost as much as ranking them."""
    record = row.record
    return schemas.StandingOut.model_construct(
        **schemas.place_out(row.place),
        team_number=row.team.number,
        team=row.team.display_name,
        players=players_of(row.team),
        city=row.team.city,
        wins=record.wins,
        losses=record.losses,
        ties=record.ties,
        won_lost_tied=row.won_lost_tied,
        rounds_won=record.rounds_won,
        points_for=record.points_for,
        points_for_provisional=row.provisional,
        points_against=record.points_against,
        difference=record.difference,
        hands_won=record.hands_won,
        bostons=record.bostons,
        byes=row.byes,
        withdrawn=row.team.withdrawn,
    )


def standings(tournament: Tournament) -> list[schemas.StandingOut]:
    """Over signed qualifying rounds only, as on the standings page."""
    return [standing_out(row) for row in tournament_standings(tournament)]


def team_record(tournament: Tournament, number: int) -> schemas.TeamRecordOut:
    team = get_object_or_404(selectors.teams_with_players(tournament), number=number)
    standing = next((row for row in tournament_standings(tournament) if row.team.pk == team.pk), None)
    played = [
        schemas.TeamRoundOut(
            round=entry.round.number,
            stage=entry.table.stage if entry.table else entry.round.title,
            table=entry.table.number if entry.table else None,
            pair=entry.pair or None,
            opponent=team_ref(entry.opponent),
            **round_result_out(entry.outcome),
        )
        for entry in selectors.team_rounds(team)
    ]
    return schemas.TeamRecordOut(
        team=team_out(team), standing=standing_out(standing) if standing else None, rounds=played
    )


def bracket(tournament: Tournament) -> schemas.BracketOut:
    if tournament.playoff_published_at is None:
        return schemas.BracketOut(
            tournament=tournament.slug,
            published=False,
            double_elimination=False,
            third_place=False,
            seeds=[],
            matches=[],
            champion=None,
        )
    matches = [match for column in selectors.playoff_bracket(tournament) for match in column.matches]
    return schemas.BracketOut(
        tournament=tournament.slug,
        published=tournament.playoff_published_at is not None,
        double_elimination=tournament.playoff_double,
        third_place=tournament.playoff_third_place,
        seeds=[schemas.SeedOut(seed=s.seed, team=team_ref(s.team)) for s in selectors.playoff_seeds(tournament)],
        matches=[schemas.MatchOut.model_validate(match) for match in matches],
        champion=team_ref(selectors.tournament_champion(tournament)),
    )


def placings(tournament: Tournament) -> list[schemas.PlacingOut]:
    found = selectors.tournament_placings(tournament)
    if found is None:
        raise Http404("No final placings yet: the tournament is not over.")
    return [
        schemas.PlacingOut(
            **schemas.place_out(placing.place),
            team=schemas.TeamRef.model_validate(placing.team),
            players=players_of(placing.team),
            how=placing.reached,
        )
        for placing in found
    ]


def announcements(tournament: Tournament) -> list[schemas.AnnouncementOut]:
    return [
        schemas.AnnouncementOut(text=a.text, created_at=a.created_at, expires_at=a.expires_at)
        for a in selectors.announcements_active(tournament)
    ]
