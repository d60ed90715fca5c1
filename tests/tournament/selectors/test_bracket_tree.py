"""The bracket drawn as a tree: every match once, every line from a match to the one its winner (or loser)
goes to, byes shown as byes, and the printed bracket on one landscape page up to 32 seeds."""

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.bracket import Source
from tournament import printing
from tournament.models import PlayoffMatch, Tournament
from tournament.selectors.bracket_tree import bracket_tree
from tournament.services.playoffs import playoff_publish, playoff_seed

CASES = [(n, "single") for n in (2, 3, 5, 8, 13, 16, 32, 64)]
CASES += [(n, "third") for n in (5, 8, 13, 16, 32, 64)]
CASES += [(n, "double") for n in (2, 3, 5, 8, 13, 16)]


@pytest.fixture
def published(tournament, big_field):
    def publish(seeds: int, style: str) -> Tournament:
        Tournament.objects.filter(pk=tournament.pk).update(qualifying_rounds=1)
        big_field(tournament, max(seeds, 2) + seeds % 2)
        tournament.refresh_from_db()
        playoff_seed(tournament=tournament, teams=seeds, third_place=style == "third", double=style == "double")
        playoff_publish(tournament=tournament)
        tournament.refresh_from_db()
        return tournament

    return publish


@pytest.mark.parametrize(("seeds", "style"), CASES)
def test_every_match_once_and_every_line_to_where_its_winner_goes(published, seeds, style):
    tournament = published(seeds, style)
    tree = bracket_tree(tournament)
    drawn = [box.match.code for section in tree.sections for box in section.boxes]
    expected = [m.code for m in PlayoffMatch.objects.filter(tournament=tournament) if not m.conditional]
    assert sorted(drawn) == sorted(expected) and len(drawn) == len(set(drawn))
    for section in tree.sections:
        codes = {box.match.code for box in section.boxes}
        joined = {(line.source, line.to) for line in section.lines if line.source}
        for box in section.boxes:
            for side, text in ((box.top, box.match.top_source), (box.bottom, box.match.bottom_source)):
                source = Source.parse(text)
                if source.kind == "winner" and source.value in codes:
                    assert (source.value, box.match.code) in joined, (box.match.code, source)
                elif source.kind == "loser" and box.match.bracket == "third":
                    assert side.text.startswith("Loser of Semifinal"), "drawn apart: no line, its sides named"
        for box in section.boxes:
            assert (
                box.x >= 0 and box.x + section.box_width <= section.width and box.y > 0 and box.y + 48 <= section.height
            )
    byes = [leaf for section in tree.sections for leaf in section.leaves if leaf.text.endswith("(bye)")]
    size = 1 << (seeds - 1).bit_length()
    assert len(byes) == size - seeds, "each bye is shown as a bye"


PATH = re.compile(r"M(\d+),(\d+) H(\d+) V(\d+) H(\d+)")


@pytest.mark.parametrize("seeds", [3, 5, 8, 13, 16, 32, 64])
def test_every_team_dropping_into_the_losers_bracket_comes_in_on_a_line_of_its_own(published, seeds):
    tree = bracket_tree(published(seeds, "double"))
    (losers,) = [section for section in tree.sections if section.title == "Losers' bracket"]
    leaves = {(leaf.x + leaf.width, leaf.y + 12): leaf for leaf in losers.leaves}
    ends = {}
    for line in losers.lines:
        start_x, start_y, _, end_y, end_x = map(int, PATH.fullmatch(line.path).groups())
        ends[(line.to, end_x, end_y)] = leaves.get((start_x, start_y))
    drops = 0
    for box in losers.boxes:
        for row, text in enumerate((box.match.top_source, box.match.bottom_source)):
            source = Source.parse(text)
            if source.kind != "loser":
                continue
            drops += 1
            leaf = ends.get((box.match.code, box.x, box.y + 12 + row * 24))
            assert leaf is not None, f"{box.match.code}: the loser of {source.value} comes in with no line"
            assert leaf.text.startswith("Loser of ") and leaf.x + leaf.width < box.x, (box.match.code, leaf.text)
    assert drops == seeds - 1, "every team but the champion of the winners' bracket drops in once"
    for leaf in losers.leaves:
        assert leaf.x >= 0 and leaf.x + leaf.width <= losers.width and leaf.y > 0 and leaf.y + 24 <= losers.height


def test_a_match_sits_between_the_two_it_is_fed_by(published):
    tree = bracket_tree(published(8, "single"))
    boxes = {box.match.code: box for box in tree.sections[0].boxes}
    final, semis = boxes["W3-1"], (boxes["W2-1"], boxes["W2-2"])
    assert final.y == (semis[0].y + semis[1].y) // 2 and semis[0].x < final.x


def test_a_teams_path_is_marked(client, published, sheet):
    tournament = published(4, "single")
    first = PlayoffMatch.objects.get(tournament=tournament, code="W1-1")
    sheet.play(first.table, "NS")
    html = client.get(reverse("public:bracket", args=[tournament.slug]), {"team": first.top_team.number})
    page = html.content.decode()
    assert page.count('class="match on-path') == 2, "its first match and the final it went on to"
    assert 'class="bracket-line on-path" d="' in page


@pytest.mark.parametrize(("seeds", "pages"), [(8, 1), (32, 1), (64, 2)])
def test_the_printed_bracket_fills_one_landscape_page_up_to_32_seeds(published, seeds, pages):
    tournament = published(seeds, "third")
    drawn = printing.bracket_pages(tournament)
    width, height = printing.LANDSCAPE_MM[tournament.paper_size]
    for page in drawn:
        assert max(s.print_width for s in page) <= width - printing.PAGE_MARGINS_MM[0] + 0.1
        assert max(s.print_width for s in page) >= width - printing.PAGE_MARGINS_MM[0] - 5, "no width left empty"
        used = sum(s.print_height for s in page) + printing.CAPTION_MM * (len(page) > 1) * len(page)
        assert used <= height - printing.PAGE_MARGINS_MM[1] - printing.BRACKET_HEADER_MM + 0.1
    pdf = PdfReader(io.BytesIO(printing.bracket_pdf(tournament)))
    assert len(pdf.pages) == pages == len(drawn)
    text = "".join(page.extract_text() for page in pdf.pages)
    assert "Printed" in text and re.search(r"Final", text)
