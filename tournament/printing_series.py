"""A series' standings as a PDF (WeasyPrint, the same fixed-width report as the tournament standings)."""

from tournament.printing import pdf_render, report_lines
from tournament.selectors.series import SERIES_RECENT, SeriesStandings

SERIES_COLUMNS = [("Place", 5, False), ("Player", 32, False), ("City", 14, False), ("Points", 7, True)]
TOURNAMENT_WIDTH = 9
LANDSCAPE_AFTER = 4


def series_standings_pdf(standings: SeriesStandings) -> bytes:
    """Every row with its points per tournament; a series of more than ``SERIES_RECENT`` tournaments prints its
    totals only, with the number of tournaments each played (each person's page has the rest)."""
    tournaments = standings.tournaments
    totals_only = len(tournaments) > SERIES_RECENT
    if totals_only:
        columns = [*SERIES_COLUMNS, ("Played", 7, True)]
        cells = [[str(len(row.points_shown)) if not row.hidden else ""] for row in standings.rows]
    else:
        columns = SERIES_COLUMNS + [(f"T{index}", TOURNAMENT_WIDTH, True) for index in range(1, len(tournaments) + 1)]
        ids = [tournament.pk for tournament in tournaments]
        cells = [row.cells(ids) for row in standings.rows]
    lines = report_lines(
        columns,
        [
            [str(row.place), row.name + ("" if row.linked else " *"), row.city, row.total_text, *more]
            for row, more in zip(standings.rows, cells, strict=True)
        ],
    )
    context = {"standings": standings, "lines": lines, "tournaments": tournaments, "totals_only": totals_only}
    if totals_only:
        context["listing"] = "\n".join(lines[1])
    paper = tournaments[0].paper_size if tournaments else "letter"
    landscape = not totals_only and len(tournaments) > LANDSCAPE_AFTER
    return pdf_render("print/series.html", context, paper=paper, landscape=landscape)
