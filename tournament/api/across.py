"""The API's answers across events: a series' standings, a person's record, a tournament's statistics and
awards. Public data only: a hidden person is "a player" with no number, and no phone is ever given."""

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from ninja import Schema
from pydantic import Field, TypeAdapter

from scoring.statistics import Statistics
from tournament.api.routes import api, log_cached, tournament_cached
from tournament.api.schemas import place_out
from tournament.models import Tournament
from tournament.pagecache.serving import public_cached, series_page_asked, series_version
from tournament.selectors.persons import person_page, person_public
from tournament.selectors.series import series_get, series_page
from tournament.selectors.statistics import tournament_statistics


class BidCountOut(Schema):
    level: int
    kind: str
    made: int
    set: int


class StatisticsOut(Schema):
    hands: int
    points: int
    points_per_hand: float | None
    bids_made: int
    bids_set: int
    no_trump_made: int
    bostons: int
    reneges_against: int
    by_bid: list[BidCountOut]


class SeriesPointsOut(Schema):
    tournament: str
    points: float


class SeriesRowOut(Schema):
    place: int
    shared: bool
    label: str
    name: str
    city: str
    person: int | None
    linked: bool
    points: float
    by_tournament: list[SeriesPointsOut]


class SeriesOut(Schema):
    slug: str
    name: str
    points_table: dict[str, float]
    tournaments: list[str]
    page: int = Field(description="This page of the standings, from 1.")
    pages: int
    rows: int = Field(description="The standings' rows on every page together.")
    standings: list[SeriesRowOut] = Field(description="This page's rows, 100 at the most.")


SERIES = TypeAdapter(SeriesOut)


class TeamStatisticsOut(Schema):
    number: int
    name: str
    statistics: StatisticsOut


class AwardOut(Schema):
    title: str
    teams: list[int]
    value: str


class TournamentStatisticsOut(Schema):
    minimum_bids: int
    awards: list[AwardOut]
    teams: list[TeamStatisticsOut]


class PersonTournamentOut(Schema):
    tournament: str
    event: str
    team: int | None
    partner: str
    place: str | None = Field(
        description="The playoff finish's place as the final placings write it ('1', 'T-3'); null without one."
    )
    placing: str = Field(description="How far the team went in the playoff ('Champion', 'Out in the semifinal').")
    qualifying_rounds_won: int


class PersonSeriesOut(Schema):
    series: str
    points: float
    tournaments: int


class RatingOut(Schema):
    rating: float
    deviation: float
    rounds: int


class PersonOut(Schema):
    id: int
    name: str
    city: str
    rating: RatingOut | None
    tournaments: list[PersonTournamentOut]
    series: list[PersonSeriesOut]
    statistics: StatisticsOut


def statistics_out(stats: Statistics) -> StatisticsOut:
    return StatisticsOut(
        hands=stats.hands,
        points=stats.points,
        points_per_hand=float(stats.points_per_hand) if stats.points_per_hand is not None else None,
        bids_made=stats.bids_made,
        bids_set=stats.bids_set,
        no_trump_made=stats.no_trump_made,
        bostons=stats.bostons,
        reneges_against=stats.reneges,
        by_bid=[BidCountOut(level=level, kind=kind, made=made, set=set_) for level, kind, made, set_ in stats.by_bid()],
    )


@api.get("/series/{slug}", response=SeriesOut, tags=["series"])
def get_series(request, slug: str, page: int = 1):
    """A series' standings, 100 rows a page (``page``; past the last page, the last): each person's points over
    its tournaments; equal totals share the place. Kept like the public pages until a result of one of its
    tournaments, or the series itself, changes."""
    found = series_get(slug)
    version = series_version(found)
    number, pages = series_page_asked(found, page, version)

    def answer() -> HttpResponse:
        # Rows as plain dicts, checked once against SeriesOut when the answer is written: a Schema object per
        # row and per tournament costs twice the time at 50 tournaments of 512 teams.
        shown = series_page(found, number, pages)
        standings = shown.standings
        tournaments = standings.tournaments
        built = SeriesOut.model_validate(
            {
                "slug": found.slug,
                "name": found.name,
                "points_table": found.points_data,
                "tournaments": [tournament.slug for tournament in tournaments],
                "page": number,
                "pages": pages,
                "rows": len(standings.rows),
                "standings": [
                    {
                        **place_out(row.place),
                        "name": row.name,
                        "city": row.city,
                        "person": row.person_id,
                        "linked": row.linked,
                        "points": float(row.total),
                        "by_tournament": [
                            {"tournament": tournament.slug, "points": float(row.points_shown[tournament.pk])}
                            for tournament in tournaments
                            if tournament.pk in row.points_shown
                        ],
                    }
                    for row in (page_row.row for page_row in shown.rows)
                ],
            }
        )
        return HttpResponse(SERIES.dump_json(built), content_type="application/json; charset=utf-8")

    return public_cached(request, slot=f"{request.path}?page={number}", version=version, render=answer)


@api.get("/tournaments/{slug}/statistics", response=TournamentStatisticsOut, tags=["results"])
@tournament_cached()
def get_statistics(request, slug: str):
    """Every team's statistics over its signed tables, and the event's awards (teams level share one)."""
    result = tournament_statistics(get_object_or_404(Tournament, slug=slug))
    return TournamentStatisticsOut(
        minimum_bids=result.minimum_bids,
        awards=[
            AwardOut(title=award.title, teams=[team.number for team in teams], value=award.value)
            for award, teams in result.awards
        ],
        teams=[
            TeamStatisticsOut(number=row.team.number, name=row.team.display_name, statistics=statistics_out(row.stats))
            for row in result.rows
        ],
    )


@api.get("/persons/{person_id}", response=PersonOut, tags=["series"])
@log_cached
def get_person(request, person_id: int):
    """A person's tournaments, series points, statistics and rating (404 for a person hidden at their request)."""
    page = person_page(person_public(person_id))
    return PersonOut(
        id=page.person.pk,
        name=page.person.name,
        city=page.person.city,
        rating=RatingOut(rating=page.rating.rating, deviation=page.rating.deviation, rounds=page.rating.rounds)
        if page.rating
        else None,
        tournaments=[
            PersonTournamentOut(
                tournament=row.tournament.slug,
                event=row.tournament.event.name,
                team=row.member.team.number if row.team_shown else None,
                partner=row.partner,
                place=str(row.outcome.place) if row.outcome.place else None,
                placing=row.outcome.reached,
                qualifying_rounds_won=row.outcome.qualifying_wins,
            )
            for row in page.tournaments
        ],
        series=[
            PersonSeriesOut(series=total.series.slug, points=float(total.points), tournaments=total.tournaments)
            for total in page.series
        ],
        statistics=statistics_out(page.stats),
    )
