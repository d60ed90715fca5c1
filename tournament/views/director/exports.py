"""Printed sheets, standings and bracket as PDF; every hand as CSV or XLSX; the event archive."""

from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.utils import timezone

from tournament import printing, selectors
from tournament.errors import ServiceError
from tournament.services import archive
from tournament.services.cards import table_cards_issue
from tournament.tables import HandExport
from tournament.views.common import pdf_response, refusal_say
from tournament.views.permissions import director_required, scorekeeper_required


@scorekeeper_required
def round_sheets_pdf(request, slug, number):
    """Every table's score sheet of a round, blank (?blank=1) or completed, in one PDF."""
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    blank = request.GET.get("blank") == "1"
    content = printing.round_sheets_pdf(round_, blank=blank, base_url=printing.link_base(request))
    kind = "blank" if blank else "completed"
    return pdf_response(content, f"{tournament.slug}-round-{round_.number}-{kind}-sheets.pdf")


@scorekeeper_required
def round_pairings_pdf(request, slug, number):
    """The round's table assignments in large print, to post on the wall."""
    tournament = selectors.tournament_get(slug)
    round_ = selectors.round_get(tournament, number)
    return pdf_response(printing.pairings_pdf(round_), f"{tournament.slug}-round-{round_.number}-pairings.pdf")


@scorekeeper_required
def hands_export(request, slug, export_format):
    """Every hand of the tournament, and the rulings on whole rounds, as CSV or XLSX."""
    if export_format not in ("csv", "xlsx"):
        raise Http404("Hands export as CSV or XLSX.")
    tournament = selectors.tournament_get(slug)
    export = HandExport(selectors.tournament_hand_rows(tournament))
    return export.response(export_format, f"{tournament.slug}-hands.{export_format}")


def tournament_pdf_view(render, name: str, required):
    """The view of one tournament's PDF made by ``render(tournament)``, named <slug>-<name>.pdf, for the staff
    ``required`` lets in."""

    @required
    def view(request, slug):
        tournament = selectors.tournament_get(slug)
        return pdf_response(render(tournament), f"{tournament.slug}-{name}.pdf")

    view.__name__ = view.__qualname__ = f"{name}_pdf"
    return view


standings_pdf = tournament_pdf_view(printing.standings_pdf, "standings", scorekeeper_required)
bracket_pdf = tournament_pdf_view(printing.bracket_pdf, "bracket", scorekeeper_required)


@director_required
def table_cards_pdf(request, slug):
    """The table cards (one per table number; missing ones are made, printed ones keep their links)."""
    tournament = selectors.tournament_get(slug)
    try:
        cards = table_cards_issue(tournament=tournament)
    except ServiceError as error:
        refusal_say(request, error.message)
        return redirect("director:tournament", slug=slug)
    content = printing.table_cards_pdf(tournament, cards, base_url=printing.link_base(request))
    return pdf_response(content, f"{tournament.slug}-table-cards.pdf")


@director_required
def event_archive(request, event_slug):
    """The whole event as a JSON file that import_event loads back."""
    event = selectors.event_get(event_slug)
    response = JsonResponse(archive.event_export(event), json_dumps_params={"indent": 1, "ensure_ascii": False})
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{stamp}.json"'
    return response
