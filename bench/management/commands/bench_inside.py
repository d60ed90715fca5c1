import json
import statistics
import time

from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.fields import field_build
from tournament.models import Tournament
from tournament.printing import round_sheets_pdf, standings_pdf
from tournament.selectors import tournament_hand_rows
from tournament.services.archive import event_export
from tournament.services.draws import draw_discard, round_draw, round_publish
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.tables import HandExport


def _timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _queries(call) -> int:
    with CaptureQueriesContext(connection) as captured:
        call()
    return len(captured)


def _statements(call) -> list[int]:
    """The queries other than inserts, and the inserts (SQLite splits a bulk insert into batches)."""
    with CaptureQueriesContext(connection) as captured:
        call()
    inserts = sum(1 for query in captured.captured_queries if query["sql"].startswith("INSERT"))
    return [len(captured) - inserts, inserts]


class Command(BaseCommand):
    help = (
        "Benchmark (not a test), run by bench_scale in its own database: the in-process figures of the scale "
        "table (saving a hand, the draw, the PDFs and exports, query counts), as JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="a tournament built by bench_field (512 teams, 3 signed rounds)")

    def handle(self, *args, slug, **options):
        scale = Tournament.objects.select_related("event").get(slug=slug)
        figures = {
            "hand_save_ms": self._hand_save(scale) * 1000,
            # The first print of a process also loads WeasyPrint's fonts; a director's next print does not.
            "standings_pdf_first_s": _timed(lambda: standings_pdf(scale)),
            "standings_pdf_s": _timed(lambda: standings_pdf(scale)),
            "hands_csv_s": _timed(lambda: HandExport(tournament_hand_rows(scale)).response("csv", "hands.csv")),
        }
        figures["archive_queries"] = [
            _queries(lambda t=t: event_export(t.event)) for t in (field_build(teams=8, rounds=3, name="Small"), scale)
        ]
        small = field_build(teams=8, rounds=3, name="Drawn")
        figures["draw_queries"] = [self._draw_queries(small), self._draw_queries(scale)]
        figures["bracket_queries"] = [self._bracket_queries(seeds) for seeds in (4, 64)]
        sheets = field_build(teams=256, rounds=1, name="Sheets").rounds.get()
        figures["sheets_per_page_s"] = (
            min(_timed(lambda: round_sheets_pdf(sheets, blank=False, base_url="http://x/")) for _ in range(2)) / 128
        )
        self.stdout.write(json.dumps(figures))

    def _hand_save(self, tournament) -> float:
        """The median server time of saving a hand through the phone's queue, at 60 tables of a new round."""
        round_ = round_publish(round=round_draw(tournament=tournament, method="swiss"))
        client = Client()
        times = []
        for table in round_.tables.order_by("number")[:60]:
            data = {
                "hand-version": table.version,
                "hand-dealer": "N",
                "hand-bidder": "N",
                "hand-bid": "3:high",
                "hand-books": "9",
                "entry_id": f"bench-{table.pk}",
            }
            address = reverse("table_hand_sync", args=[table.secret])
            times.append(_timed(lambda address=address, data=data: client.post(address, data)))
        round_.delete()
        return statistics.median(times[5:])

    def _draw_queries(self, tournament) -> list[int]:
        draft = tournament.rounds.filter(status="draft").first()
        if draft:
            draw_discard(round=draft)
        count = _statements(lambda: round_draw(tournament=tournament, method="swiss"))
        draw_discard(round=tournament.rounds.get(status="draft"))
        return count

    def _bracket_queries(self, seeds: int) -> int:
        tournament = field_build(teams=2 * seeds, rounds=1, name=f"Bracket {seeds}")
        tournament.qualifying_rounds = 1
        tournament.save()
        playoff_seed(tournament=tournament, teams=seeds)
        playoff_publish(tournament=tournament)
        client = Client()
        return _queries(lambda: client.get(reverse("public:bracket", args=[tournament.slug])))
