"""Printed score sheets and standings: ordinary templates rendered to PDF by WeasyPrint.

Stylesheets and images come from the app's own static files on disk; the URL fetcher refuses anything
else, so rendering never makes a network request (not even to the app itself), never reads a file
outside the static folders, and a venue without internet prints the same.
"""

import gc
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit
from urllib.request import url2pathname

import segno
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.urls import reverse

from tournament import selectors
from tournament.models import Hand, LogEntry, Penalty, Round, Signature, Table, Team, Tournament
from tournament.selectors.bracket_tree import GAP
from tournament.selectors.money import payout_sheet
from tournament.selectors.standings import tournament_standings
from tournament.selectors.tables import SeatView

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from tournament.selectors.rounds import SheetRecords

SPARE_ROWS = 3
PAGE_SIZES: dict[str, str] = {Tournament.PaperSize.LETTER: "letter", Tournament.PaperSize.A4: "A4"}


def static_roots() -> list[Path]:
    """The folders printing may read: the static folders the finders search, and STATIC_ROOT."""
    roots = [Path(location).resolve() for location in settings.STATICFILES_DIRS]
    if settings.STATIC_ROOT:
        roots.append(Path(settings.STATIC_ROOT).resolve())
    return roots


def local_fetcher():
    """A WeasyPrint URL fetcher for ``data:`` URLs and files of the static folders, refusing everything else."""
    from weasyprint.urls import URLFetcher

    class LocalOnly(URLFetcher):
        def fetch(self, url, headers=None):
            parts = urlsplit(url)
            if parts.scheme == "file":
                path = Path(url2pathname(parts.path)).resolve()
                if not any(path.is_relative_to(root) for root in static_roots()):
                    raise ValueError(f"Printing reads only the app's static files, not {path}.")
            elif parts.scheme != "data":
                raise ValueError(f"Printing reads nothing from the network ({url}); every asset comes from disk.")
            return super().fetch(url, headers)

    return LocalOnly(allowed_protocols={"file", "data"}, allow_redirects=False)


def _stylesheet_path() -> Path:
    found = finders.find("css/sheet.css")
    if not found:
        raise FileNotFoundError("static/css/sheet.css is missing.")
    return Path(found)


@contextmanager
def rare_collections():
    """Run Python's cycle collector rarely while WeasyPrint lays out a document.

    Laying out a round of sheets creates millions of short-lived objects; at the default threshold the
    collector scans the growing heap over and over: about a third of the time of a 128-page round. Measured
    for such a round, peak memory stayed the same (reference counting frees those objects anyway).
    """
    before = gc.get_threshold()
    gc.set_threshold(100_000, 50, 100)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def pdf_render(template: str, context: dict, *, paper: str, landscape: bool = False) -> bytes:
    """Render a template to PDF with the print stylesheet and the tournament's paper size."""
    # Imported here: WeasyPrint needs Pango, and every other page works without it.
    from weasyprint import CSS, HTML

    html = render_to_string(template, context)
    fetcher = local_fetcher()
    stylesheets = [
        CSS(filename=str(_stylesheet_path()), url_fetcher=fetcher),
        CSS(string=f"@page {{ size: {PAGE_SIZES.get(paper, 'letter')} {'landscape' if landscape else 'portrait'}; }}"),
    ]
    document = HTML(string=html, base_url=str(settings.BASE_DIR / "static") + "/", url_fetcher=fetcher)
    with rare_collections():
        return document.write_pdf(stylesheets=stylesheets)


def link_base(request) -> str:
    """Where the printed QR codes point: SITE_URL when set, else the address the director is using."""
    return settings.SITE_URL or request.build_absolute_uri("/")


def table_link(table: Table, base_url: str) -> str:
    return base_url.rstrip("/") + reverse("table", args=[table.secret])


def qr_svg(url: str) -> str:
    """The table's link as a vector QR code, with the link itself as the SVG's title."""
    return segno.make(url, error="m").svg_inline(scale=3, border=2, title=url)


@dataclass
class SheetRow:
    """One printed row: a hand or a re-deal, or an empty row to fill in by hand."""

    hand: Hand | None
    corrected: bool = False


@dataclass
class PrintedSheet:
    table: Table
    link: str
    qr: str
    seats: list[SeatView]
    rows: list[SheetRow]
    penalties: list[Penalty]
    signatures: dict[str, Signature]
    corrections: list[LogEntry]


def _sheet(
    table: "WithAnnotations[Table, SheetRecords]",
    seats: list[SeatView],
    base_url: str,
    blank: bool,
    hands_per_round: int,
) -> PrintedSheet:
    link = table_link(table, base_url)
    if blank:
        rows = [SheetRow(None) for _ in range(hands_per_round + SPARE_ROWS)]
        return PrintedSheet(table, link, qr_svg(link), seats, rows, [], {}, [])
    hands = list(table.hands.all())
    corrected = _corrected_hand_numbers(table.corrections)
    rows = [SheetRow(hand, corrected=hand.hand_number in corrected) for hand in hands]
    rows += [SheetRow(None) for _ in range(max(0, hands_per_round + 1 - len(rows)))]
    penalties = [penalty for hand in hands for penalty in hand.penalties.all()] + list(table.rulings)
    signatures = {signature.pair: signature for signature in table.signatures.all()}
    return PrintedSheet(table, link, qr_svg(link), seats, rows, penalties, signatures, list(table.corrections))


def _corrected_hand_numbers(corrections: list[LogEntry]) -> set[int]:
    """The hands that staff corrections after signing touched, from the changes' old and new values."""
    numbers: set[int] = set()
    for change in corrections:
        for snapshot in (change.before or {}, change.after or {}):
            number = snapshot.get("hand_number", snapshot.get("hand"))
            if isinstance(number, int):
                numbers.add(number)
    return numbers


def round_sheets_pdf(round_: Round, *, blank: bool, base_url: str) -> bytes:
    """One page per table of the round: blank to score on paper, or completed from the records."""
    tournament = round_.tournament
    rules = tournament.rules
    tables = selectors.round_sheets(round_)
    substitutes = selectors.round_substitutes(round_.pk)
    sheets = [
        _sheet(table, selectors.table_seats(table, substitutes), base_url, blank, rules.hands_per_round)
        for table in tables
    ]
    context = {
        "round": round_,
        "tournament": tournament,
        "event": tournament.event,
        "rules": rules,
        "sheets": sheets,
        "blank": blank,
    }
    return pdf_render("print/sheets.html", context, paper=tournament.paper_size)


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def report_lines(columns: list[tuple[str, int, bool]], rows: list[list]) -> tuple[str, list[str]]:
    """A report's heading and rows as fixed-width text lines (``columns``: title, width, right-aligned).

    A long report (512 teams) prints in well under a second as one line of text per row; a table with an
    element per cell takes WeasyPrint several seconds to lay out.
    """

    def line(cells) -> str:
        return " ".join(
            (str(cell).rjust(width) if right else _fit(str(cell), width).ljust(width))
            for cell, (_, width, right) in zip(cells, columns, strict=True)
        ).rstrip()

    return line([title for title, _, _ in columns]), [line(row) for row in rows]


STANDINGS_COLUMNS = [
    ("Place", 5, False),
    ("Team", 40, False),
    ("City", 12, False),
    ("W-L-T", 7, False),
    ("For", 5, True),
    ("Against", 7, True),
    ("Diff.", 5, True),
    ("Hands", 5, True),
    ("Bostons", 7, True),
    ("Byes", 4, True),
]
PLACING_COLUMNS = [("Place", 5, False), ("Team", 44, False), ("How", 45, False)]


def standings_columns(rows) -> list[tuple[str, int, bool]]:
    """The standings' columns, the points for widened to hold a provisional mark ("31 (provisional)") and the
    team's narrowed as much, so the line keeps its width."""
    points, width = STANDINGS_COLUMNS[4], max((len(row.points_shown) for row in rows), default=0)
    extra = max(0, width - points[1])
    team = STANDINGS_COLUMNS[1]
    widened = {1: (team[0], team[1] - extra, team[2]), 4: (points[0], points[1] + extra, points[2])}
    return [widened.get(index, column) for index, column in enumerate(STANDINGS_COLUMNS)]


def standings_pdf(tournament: Tournament) -> bytes:
    """The standings; once the playoff is decided, the final placings first (for the prize-giving)."""
    rows = tournament_standings(tournament)
    standings = report_lines(
        standings_columns(rows),
        [
            [
                str(row.place),
                f"#{row.team.number} {row.team.display_name}" + (" (withdrawn)" if row.team.withdrawn else ""),
                row.team.city,
                row.won_lost_tied,
                row.points_shown,
                row.record.points_against,
                f"{row.record.difference:+d}",
                row.record.hands_won,
                row.record.bostons,
                row.byes,
            ]
            for row in rows
        ],
    )
    placings = selectors.tournament_placings(tournament)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "standings": standings,
        "placings": report_lines(
            PLACING_COLUMNS,
            [[str(p.place), f"#{p.team.number} {p.team.display_name}", p.reached] for p in placings],
        )
        if placings
        else None,
    }
    return pdf_render("print/standings.html", context, paper=tournament.paper_size)


LANDSCAPE_MM: dict[str, tuple[float, float]] = {
    Tournament.PaperSize.LETTER: (279.4, 215.9),
    Tournament.PaperSize.A4: (297.0, 210.0),
}
PAGE_MARGINS_MM = (24.0, 22.0)
BRACKET_HEADER_MM = 24.0
CAPTION_MM = 7.0
MAX_PRINT_BOX = 480


def bracket_pages(tournament: Tournament) -> list[list]:
    """The bracket's drawing on landscape pages: one page up to 32 seeds, a larger bracket split at its
    semifinals over two; each page's sections scaled alike to fill it (sizes in millimetres). A tree that
    fills the page's height before its width is drawn again with wider boxes: the names take the spare width."""
    tree = selectors.bracket_tree(tournament, split=True)
    if tree is None:
        return []
    width, height = LANDSCAPE_MM.get(tournament.paper_size, LANDSCAPE_MM[Tournament.PaperSize.LETTER])
    room = (width - PAGE_MARGINS_MM[0], height - PAGE_MARGINS_MM[1] - BRACKET_HEADER_MM)
    pages = _bracket_paged(tree)
    for index, page in enumerate(pages):
        spare = min(_widest_box_fitting(page, room), MAX_PRINT_BOX)
        if spare > page[0].box_width:
            pages[index] = _bracket_paged(selectors.bracket_tree(tournament, split=True, box_width=spare))[index]
    for page in pages:
        scale = _page_scale(page, room)
        for section in page:
            section.print_width = round(section.width * scale, 2)
            section.print_height = round(section.height * scale, 2)
    return pages


def _bracket_paged(tree) -> list[list]:
    sections = [section for section in tree.sections if section.boxes]
    return [sections[:1], sections[1:]] if sections and sections[0].title == "Top half" else [sections]


def _page_scale(page: list, room: tuple[float, float]) -> float:
    caption = CAPTION_MM if len(page) > 1 else 0
    return min(
        room[0] / max(section.width for section in page),
        (room[1] - caption * len(page)) / sum(section.height for section in page),
    )


def _widest_box_fitting(page: list, room: tuple[float, float]) -> int:
    """The widest box with which the page's widest section still fits the page's width at its scale."""
    widest = max(page, key=lambda section: section.width)
    step = widest.box_width + GAP
    columns = round((widest.width - 4 + GAP) / step)
    return int((room[0] / _page_scale(page, room) - 4 + GAP) / columns - GAP)


def bracket_pdf(tournament: Tournament) -> bytes:
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "pages": bracket_pages(tournament),
        "champion": selectors.tournament_champion(tournament),
    }
    return pdf_render("print/bracket.html", context, paper=tournament.paper_size, landscape=True)


@dataclass
class Slip:
    """A team's slip; the printed ``address`` is short enough to type on one line, the QR code's ``link`` holds
    the code too."""

    team: object
    code: str
    link: str
    qr: str
    address: str


def checkin_slips_pdf(tournament: Tournament, teams, *, base_url: str) -> bytes:
    """The check-in slips: each team's code, to sign its sheets and open its page (a QR code opens it)."""
    slips = []
    for team in teams:
        address = base_url.rstrip("/") + reverse("team_open")
        link = f"{address}?code={team.code}"
        slips.append(Slip(team, team.code, link, qr_svg(link), address.split("://", 1)[-1]))
    context = {"tournament": tournament, "event": tournament.event, "slips": slips}
    return pdf_render("print/slips.html", context, paper=tournament.paper_size)


@dataclass
class PrintedCard:
    number: int
    link: str
    qr: str


def table_cards_pdf(tournament: Tournament, cards, *, base_url: str) -> bytes:
    """The table cards: one per table, its number large and a QR code that opens whichever round's table of
    that number is being played. Two to a page, folded as a tent or laid flat."""
    printed = []
    for card in cards:
        link = base_url.rstrip("/") + reverse("table_card", args=[card.secret])
        printed.append(PrintedCard(card.number, link, segno.make(link, error="m").svg_inline(scale=5, border=2)))
    context = {"tournament": tournament, "event": tournament.event, "cards": printed}
    return pdf_render("print/table_cards.html", context, paper=tournament.paper_size)


PAYOUT_COLUMNS = [("Place", 6, False), ("Team", 52, False), ("Amount", 12, True), ("Paid", 6, False)]


def payouts_pdf(tournament: Tournament) -> bytes:
    """The payout sheet for the prize-giving: each place's prize, the side pot's, the house's share."""
    sheet = payout_sheet(tournament)

    def lines(prizes):
        return report_lines(
            PAYOUT_COLUMNS,
            [
                [
                    str(line.place),
                    f"#{line.team.number} {line.team.display_name}",
                    line.amount,
                    "yes" if line.paid else "",
                ]
                for line in prizes
            ],
        )

    context = {
        "tournament": tournament,
        "event": tournament.event,
        "sheet": sheet,
        "prizes": lines(sheet.prizes),
        "side_prizes": lines(sheet.side_prizes),
    }
    return pdf_render("print/payouts.html", context, paper=tournament.paper_size)


@dataclass
class Pairing:
    """A team's place in a round, for the wall: its table and side, or a bye (``table`` None)."""

    team: Team
    table: int | None = None
    side: str = ""


def pairings_pdf(round_: Round) -> bytes:
    """The round's table assignments for the wall, in large print on one page for a day's field: the tables in
    order with each side's team, then the teams in order with their table and side (byes included)."""
    tables = selectors.round_tables(round_)
    by_team = [
        Pairing(team, table.number, side.label) for table in tables for side, team in table.sides if team is not None
    ]
    by_team += [Pairing(bye.team) for bye in selectors.round_byes(round_)]
    by_team.sort(key=lambda pairing: pairing.team.number)
    tournament = round_.tournament
    context = {"tournament": tournament, "event": tournament.event, "round": round_, "tables": tables}
    return pdf_render("print/pairings.html", {**context, "by_team": by_team}, paper=tournament.paper_size)
