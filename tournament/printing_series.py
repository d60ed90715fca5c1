"""A series' standings as a PDF (WeasyPrint, the same fixed-width report as the tournament standings)."""

from tournament.printing import pdf_render, report_lines
from tournament.selectors.series import SeriesStandings

SERIES_COLUMNS = [("Place", 5, False), ("Player", 32, False), ("City", 14, False), ("Points", 7, True)]
TOURNAMENT_WIDTH = 9
LANDSCAPE_AFTER = 4


def series_standings_pdf(standings: SeriesStandings) -> bytes:
    tournaments = standings.tournaments
    columns = SERIES_COLUMNS + [(f"T{index}", TOURNAMENT_WIDTH, True) for index in range(1, len(tournaments) + 1)]
    lines = report_lines(
        columns,
        [
            [str(row.place), row.name + ("" if row.linked else " *"), row.city, row.total_text, *row.cells]
            for row in standings.rows
        ],
    )
    context = {"standings": standings, "lines": lines, "tournaments": tournaments}
    paper = tournaments[0].paper_size if tournaments else "letter"
    return pdf_render("print/series.html", context, paper=paper, landscape=len(tournaments) > LANDSCAPE_AFTER)
