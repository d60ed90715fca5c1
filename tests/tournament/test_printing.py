import io

import pytest
import segno
from django.conf import settings
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import round_published
from tournament.printing import local_fetcher, qr_svg, round_sheets_pdf, standings_pdf, table_link
from tournament.services.log import Actor
from tournament.services.sheets import ChangeContext, HandEntry, hand_update

BASE = "http://192.168.1.20:8000/"


def pdf_pages(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


@pytest.fixture
def round_with_tables(tournament, make_teams):
    make_teams(tournament, 6)
    return round_published(tournament)


def test_blank_sheets_one_page_per_table_with_teams_players_and_the_link(round_with_tables):
    pages = pdf_pages(round_sheets_pdf(round_with_tables, blank=True, base_url=BASE))
    tables = list(round_with_tables.tables.order_by("number"))
    assert len(pages) == len(tables) == 3
    for page, table in zip(pages, tables, strict=True):
        ns, ew = table.team_ns, table.team_ew
        assert "Main Event · Round 1" in page and "Spring Classic" in page
        assert f"#{ns.number} {ns.display_name}" in page and f"#{ew.number} {ew.display_name}" in page
        for member, seat in zip(ns.members + ew.members, ["North", "South", "East", "West"], strict=True):
            assert f"{seat}: {member.player.name}" in page
        assert "KEEPS THE SCORE SHEET" in page.upper()
        assert "North–South signature" in page and "Table scorekeeper" in page
        assert table_link(table, BASE).replace("http://", "") in page.replace("\n", "")


def test_the_qr_code_holds_the_tables_link(round_with_tables):
    table = round_with_tables.tables.first()
    link = table_link(table, BASE)
    assert link == f"http://192.168.1.20:8000/table/{table.secret}/"
    svg = qr_svg(link)
    assert svg.startswith("<svg") and f"<title>{link}</title>" in svg
    assert svg == segno.make(link, error="m").svg_inline(scale=3, border=2, title=link)


def text_heights(page) -> list[tuple[float, str]]:
    """Each piece of text on a PDF page with its height above the page's foot."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            found.append((cm[5] + tm[5] * cm[3], text.strip()))

    page.extract_text(visitor_text=visit)
    return found


@pytest.mark.parametrize("blank", [True, False])
def test_a_sheets_parts_stand_one_below_the_other(round_with_tables, sheet, blank):
    """The teams' boxes sit side by side under the heading, the hands below them, the signatures below the
    penalties: nothing is drawn over anything else."""
    table = round_with_tables.tables.get(number=1)
    sheet.play(table, "NS")
    heights = text_heights(
        PdfReader(io.BytesIO(round_sheets_pdf(round_with_tables, blank=blank, base_url=BASE))).pages[0]
    )

    def height(words: str) -> float:
        return next(height for height, text in heights if words in text)

    assert height("North:") == height("East:")
    assert height("North–South signature") == height("East–West signature")
    top_to_bottom = ["Main Event", "http://", "North:", "Dealer", "Penalties and rulings", "North–South signature"]
    assert [height(start) for start in top_to_bottom] == sorted((height(s) for s in top_to_bottom), reverse=True)
    assert height("North–South signature") > height("Scoring.")


def test_completed_sheets_hold_each_hands_bid_and_points(round_with_tables, sheet):
    table = round_with_tables.tables.get(number=1)
    table = sheet.full_round(table)
    page = pdf_pages(round_sheets_pdf(round_with_tables, blank=False, base_url=BASE))[0]
    assert "Completed score sheet" in page
    for hand in table.hands.all():
        assert hand.get_bidder_display() in page
    assert "1 No Trump" in page and "4 Downtown" in page and "3 Uptown" in page
    assert "KEEPS THE SCORE SHEET" in page.upper() and "Special" not in page
    assert "Total 3 10" in page.replace("\n", " ")


def test_a_penalty_and_a_correction_show_on_the_completed_sheet(round_with_tables, sheet, director):
    table = sheet.full_round(round_with_tables.tables.get(number=2))
    sheet.sign_both(table)
    hand_update(
        hand=table.hands.get(sequence=2),
        entry=HandEntry("E", "E", 4, "low", 9, "hearts"),
        context=ChangeContext(
            version=sheet.version(table),
            actor=Actor.staff(director),
            reason="Nine books, not ten",
            director_ruling=True,
        ),
    )
    sheet.penalty(
        table,
        kind="play_out_of_turn",
        team="NS",
        hand=table.hands.get(sequence=3),
        user=director,
        reason="Seen by the director",
        director_ruling=True,
    )
    page = pdf_pages(round_sheets_pdf(round_with_tables, blank=False, base_url=BASE))[1]
    assert "Play out of turn by North–South" in page
    assert "Corrected by staff after signing" in page and "Nine books, not ten" in page
    assert "2✱" in page.replace(" ", "")
    assert "Player 2a" in page and "signed" in page


def test_paper_size_follows_the_tournament(round_with_tables):
    letter = PdfReader(io.BytesIO(round_sheets_pdf(round_with_tables, blank=True, base_url=BASE))).pages[0]
    assert round(float(letter.mediabox.width)) == 612
    tournament = round_with_tables.tournament
    tournament.paper_size = "a4"
    tournament.save()
    a4 = PdfReader(io.BytesIO(round_sheets_pdf(round_with_tables, blank=True, base_url=BASE))).pages[0]
    assert round(float(a4.mediabox.width)) == 595


def test_printing_reads_the_static_files_and_nothing_else_through_weasyprint(caplog, tmp_path):
    """WeasyPrint itself fetches through the fetcher: a static file loads, the network and other files do not."""
    from weasyprint import HTML

    outside = tmp_path / "secret.svg"
    outside.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>')
    html = (
        '<img src="img/favicon.svg"><img src="http://127.0.0.1:9/tracker.png">'
        f'<img src="{outside.as_uri()}"><img src="file:///etc/passwd">'
    )
    fetched = []
    fetcher = local_fetcher()
    original = fetcher.fetch

    def recording(url, headers=None):
        response = original(url, headers)
        fetched.append(url)
        return response

    fetcher.fetch = recording
    with caplog.at_level("WARNING", logger="weasyprint"):
        pdf = HTML(string=html, base_url=str(settings.BASE_DIR / "static") + "/", url_fetcher=fetcher).write_pdf()
    assert pdf.startswith(b"%PDF")
    assert [url.rsplit("/", 1)[-1] for url in fetched] == ["favicon.svg"]
    refusals = caplog.text
    assert "reads nothing from the network (http://127.0.0.1:9/tracker.png)" in refusals
    assert "reads only the app's static files" in refusals and "secret.svg" in refusals and "passwd" in refusals


def test_standings_pdf(round_with_tables, sheet):
    sheet.play(round_with_tables.tables.get(number=1), "EW")
    text = "\n".join(pdf_pages(standings_pdf(round_with_tables.tournament)))
    assert "Main Event: standings" in text and "#2 Player 1a & Player 1b" in text and "1-0-0" in text


def test_print_buttons_are_for_staff(client, round_with_tables, player_user, scorekeeper):
    slug = round_with_tables.tournament.slug
    urls = [
        reverse("director:round_sheets_pdf", args=[slug, 1]) + "?blank=1",
        reverse("director:round_sheets_pdf", args=[slug, 1]),
        reverse("director:standings_pdf", args=[slug]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302
    client.force_login(player_user)
    for url in urls:
        assert client.get(url).status_code == 403
    client.force_login(scorekeeper)
    for url in urls:
        response = client.get(url)
        assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    page = pdf_pages(client.get(urls[0]).content)[0]
    assert "http://testserver/table/" in page.replace("\n", "")


def test_score_sheets_command(round_with_tables, tmp_path):
    from django.core.management import call_command

    output = tmp_path / "sheets.pdf"
    out = io.StringIO()
    call_command(
        "score_sheets", round_with_tables.tournament.slug, "--round", "1", "--blank", "-o", str(output), stdout=out
    )
    assert "3 sheets" in out.getvalue()
    assert len(PdfReader(str(output)).pages) == 3


def test_the_qr_codes_point_where_phones_can_reach(client, round_with_tables, director, settings):
    client.force_login(director)
    url = reverse("director:round_sheets_pdf", args=[round_with_tables.tournament.slug, 1]) + "?blank=1"
    assert "http://testserver/table/" in pdf_pages(client.get(url).content)[0].replace("\n", "")
    settings.SITE_URL = "http://10.0.0.5:8000"
    assert "http://10.0.0.5:8000/table/" in pdf_pages(client.get(url).content)[0].replace("\n", "")
    page = client.get(reverse("director:round", args=[round_with_tables.tournament.slug, 1])).content.decode()
    assert "QR codes will open http://10.0.0.5:8000" in page
