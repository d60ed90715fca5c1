"""One fact, every surface: a whole played day with every event of the real day — a team sitting out, an odd field's
bye, a substitute, time called, a forfeit, a double forfeit, a 5-seed playoff without a third-place match, money and a
series — read back from every page, slide, sheet, export and API answer that shows a table's outcome, a team's round,
a standing, a placing or a prize. Every surface agrees with the others and with a tally worked here from the sheets
(RULES.md: Absent teams and substitutes, Standings, Playoffs, Money, Players across events).

A new surface that shows one of these facts joins this test when it is built."""

import csv
import html
import io
import json
import re
from collections import Counter, defaultdict
from decimal import Decimal
from fractions import Fraction

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse

from scoring import Pair, bye_points
from tests.tournament.test_printing import pdf_pages
from tournament.models import Player, PlayoffMatch, Round, Table
from tournament.printing import payouts_pdf, round_sheets_pdf, standings_pdf
from tournament.selectors.money import payout_sheet
from tournament.selectors.series import series_get, series_standings_of
from tournament.services.absence import substitute_approve, table_forfeit_declare, team_sit_out_set
from tournament.services.archive import event_export, event_import
from tournament.services.draws import round_draw, round_publish
from tournament.services.money import money_settings_set, payment_record
from tournament.services.persons import player_link
from tournament.services.playoffs import playoff_publish, playoff_seed
from tournament.services.series import series_create, series_tournament_add
from tournament.services.sheets import ChangeContext, table_time_call

NS, EW = Pair.NORTH_SOUTH, Pair.EAST_WEST
BASE = "http://127.0.0.1:8000/"


def visible(markup: str) -> str:
    """The text a reader sees in a piece of HTML, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def pdf_text(content: bytes) -> str:
    return "\n".join(pdf_pages(content))


# What the day should come to, worked out here from the sheets as RULES.md says.


def worked_rounds(tournament) -> dict[int, list[tuple]]:
    """Each team's rounds by team number, in order: (round number, stage, result, points for, points against).

    A signed table is won, lost or tied on its totals; a bye and a forfeit's present team win the average of the
    winners at that round's played tables (the default bye scoring); an absent team loses with 0 and 0; a round sat
    out has no result."""
    rules = tournament.rules
    rounds = defaultdict(list)
    for round_ in tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number"):
        tables = list(round_.tables.prefetch_related("seatings__team").select_related("playoff_match"))
        winners = [max(t.ns_total, t.ew_total) for t in tables if not t.forfeit and t.ns_total != t.ew_total]
        credit = bye_points(rules, winners)
        for table in tables:
            sides = {seating.pair: seating.team.number for seating in table.seatings.all()}
            for pair, number in sides.items():
                if table.forfeit:
                    absent = table.forfeit in (pair, "both")
                    row = ("lost: absent", 0, 0) if absent else ("won by forfeit", credit, 0)
                else:
                    mine, theirs = (table.ns_total, table.ew_total) if pair == NS else (table.ew_total, table.ns_total)
                    row = ("won" if mine > theirs else "lost" if mine < theirs else "tied", mine, theirs)
                rounds[number].append((round_.number, table.stage, *row))
        for seating in round_.seatings.filter(table__isnull=True).select_related("team"):
            rounds[seating.team.number].append((round_.number, round_.title, "bye", credit, 0))
        if round_.kind == Round.Kind.QUALIFYING:
            for sit_out in tournament.sit_outs.filter(round_number=round_.number).select_related("team"):
                rounds[sit_out.team.number].append((round_.number, round_.title, "sat out", 0, 0))
    return {number: sorted(entries) for number, entries in rounds.items()}


def said(result: str, mine: int, theirs: int) -> str:
    """A round as every page says it once the whole day is signed."""
    if result in ("bye", "won by forfeit"):
        return f"{result}, {mine} points"
    if result == "lost: absent":
        return "lost: absent, 0 points"
    if result == "sat out":
        return "sat out (no result)"
    return f"{result} {mine}–{theirs}"


def worked_standings(tournament, rounds) -> dict[int, tuple]:
    """Each team's qualifying record by number: (W-L-T, points for, points against, byes and forfeits won)."""
    qualifying = set(tournament.rounds.filter(kind=Round.Kind.QUALIFYING).values_list("number", flat=True))
    records = {}
    for number in tournament.teams.values_list("number", flat=True):
        counted = [entry for entry in rounds.get(number, []) if entry[0] in qualifying]
        results = Counter(entry[2] for entry in counted)
        wins = results["won"] + results["bye"] + results["won by forfeit"]
        losses = results["lost"] + results["lost: absent"]
        records[number] = (
            f"{wins}-{losses}-{results['tied']}",
            sum(entry[3] for entry in counted),
            sum(entry[4] for entry in counted),
            results["bye"] + results["won by forfeit"],
        )
    return records


def worked_placings(tournament, standings_order: list[int]) -> dict[int, str]:
    """The final places by team number: champion 1st, runner-up 2nd, the beaten semifinalists T-3 and the beaten
    quarterfinalists T-5 (whatever sitting their match was played in), then the others in standings order."""
    matches = list(
        PlayoffMatch.objects.filter(tournament=tournament, not_needed=False).select_related("loser", "winner")
    )
    final = next(match for match in matches if match.label == "Final")
    places = {final.winner.number: "1", final.loser.number: "2"}
    for stage, place in (("Semifinal", 3), ("Quarterfinal", 5)):
        beaten = [match.loser.number for match in matches if match.label.startswith(stage)]
        for number in beaten:
            places[number] = f"T-{place}" if len(beaten) > 1 else str(place)
    place = len(places) + 1
    for number in standings_order:
        if number not in places:
            places[number] = str(place)
            place += 1
    return places


# Reading each surface.


def api(client, path: str):
    response = client.get(f"/api/v1{path}")
    assert response.status_code == 200, path
    return response.json()


def team_page_lines(client, slug: str, number: int) -> list[str]:
    page = client.get(reverse("public:team", args=[slug, number])).content.decode()
    return [visible(line) for line in re.findall(r'class="round-result">(.*?)</strong>', page, re.S)]


def own_page_lines(team) -> list[str]:
    """The rounds on the team's own page, opened with its code."""
    phone = Client()
    assert phone.post(reverse("team_open"), {"code": team.code}).status_code == 302
    page = phone.get(reverse("team_page", args=[team.pk])).content.decode()
    return [visible(line) for line in re.findall(r'class="round-result">(.*?)</span>', page, re.S)]


def standings_rows(markup: str) -> dict[int, tuple]:
    """The public standings' rows by team number: (place, W-L-T, points for, byes)."""
    rows = {}
    for number, cells in re.findall(r'<tr id="team-(\d+)"[^>]*>(.*?)</tr>', markup, re.S):
        texts = [visible(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)]
        rows[int(number)] = (texts[0], texts[4], int(texts[5]), int(texts[10]))
    return rows


def export_rows(director_client, path: str, export_format: str) -> list[dict]:
    response = director_client.get(path)
    assert response.status_code == 200, path
    if export_format == "csv":
        return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header, *rows = [[("" if cell is None else str(cell)) for cell in row] for row in sheet.iter_rows(values_only=True)]
    return [dict(zip(header, row, strict=True)) for row in rows]


def team_number(cell: str) -> int:
    return int(re.match(r"#?(\d+)", cell).group(1))


def projector_lines(client, slug: str, panel: str) -> list[str]:
    page = client.get(reverse("public:projector", args=[slug])).content.decode()
    section = re.search(rf'id="panel-{panel}".*?</section>', page, re.S)
    assert section, panel
    return [visible(line) for line in re.findall(r"<li>(.*?)</li>", section.group(0), re.S)]


# The day.


def play_round(sheet, round_, plan: dict[int, str]) -> None:
    """Play and sign the round's tables not yet decided: ``plan`` gives a table's winner (NS, EW or tie)."""
    for table in round_.tables.filter(locked_at__isnull=True).order_by("number"):
        sheet.play(table, plan.get(table.number, "NS"))


def read_tables_at_round_end(client, director_client, tournament, round_) -> None:
    """While the round is the current one: the tables page, the projector's tables slide, the API's round, the
    printed sheets, the live view and the table's own page say the same of each table and each team's round, as its
    sheet holds and the standings count it."""
    slug = tournament.slug
    worked = {
        (number, entry[0]): said(*entry[2:])
        for number, entries in worked_rounds(tournament).items()
        for entry in entries
    }
    live = visible(director_client.get(reverse("director:round_live", args=[slug, round_.number])).content.decode())
    tables = {table.number: table for table in Table.objects.filter(round=round_).prefetch_related("seatings__team")}
    draw = client.get(reverse("public:draw", args=[slug])).content.decode()
    badges = dict(re.findall(r"<h2>Table (\d+)</h2>.*?<span\s+class=\"badge[^\"]*\">(.*?)</span>", draw, re.S))
    projector = {line.split()[0]: line for line in projector_lines(client, slug, "tables")}
    answer = {entry["number"]: entry for entry in api(client, f"/tournaments/{slug}/rounds/{round_.number}")["tables"]}
    sheets = pdf_pages(round_sheets_pdf(round_, blank=False, base_url=BASE))
    substitutes = {
        (s["team"], s["name"]) for s in api(client, f"/tournaments/{slug}/rounds/{round_.number}")["substitutes"]
    }
    for team, name in substitutes:
        table = next(t for t in tables.values() if team in {s.team.number for s in t.seatings.all()})
        assert name in visible(draw) and f"{name} (substitute for" in " ".join(sheets[table.number - 1].split())
    for index, (number, table) in enumerate(sorted(tables.items())):
        ns, ew = table.team_at(NS).number, table.team_at(EW).number
        figures = projector[str(number)]
        entry = answer[number]
        page = " ".join(sheets[index].split())
        assert (entry["ns_total"], entry["ew_total"], entry["forfeit"]) == (
            table.ns_total,
            table.ew_total,
            table.forfeit,
        )
        assert f"Total {table.ns_total} {table.ew_total}" in page
        lines = {pair: worked[team, round_.number] for pair, team in ((NS, ns), (EW, ew))}
        assert (entry["north_south_round"]["line"], entry["east_west_round"]["line"]) == (lines[NS], lines[EW])
        if table.forfeit:
            sides = f"North–South #{ns}: {lines[NS]} · East–West #{ew}: {lines[EW]}"
            assert sides in page and sides in visible(
                client.get(reverse("table", args=[table.secret])).content.decode()
            )
            card = draw[draw.index(f"<h2>Table {number}</h2>") :]
            assert re.findall(r'class="small round-result">(.*?)</span>', card)[:2] == [
                line[0].upper() + line[1:] for line in lines.values()
            ]
            for pair, team in ((NS, ns), (EW, ew)):
                assert f"#{team} {table.team_at(pair).display_name}: {lines[pair]}" in live
            absent = {"NS": "North–South absent", "EW": "East–West absent", "both": "Both teams absent"}[table.forfeit]
            assert badges[str(number)] == f"Forfeit: {absent}"
            assert figures.endswith("Forfeit") and "✓" not in figures, figures
            present = {"NS": ew, "EW": ns, "both": None}[table.forfeit]
            assert entry["winner"] == present
            assert f"Forfeit: {absent}" in page
        else:
            assert badges[str(number)] == f"Signed {table.ns_total}–{table.ew_total}"
            assert figures.endswith(f"{table.ns_total}–{table.ew_total} ✓"), figures
            winner = ns if table.ns_total > table.ew_total else ew if table.ew_total > table.ns_total else None
            assert entry["winner"] == winner
            assert entry["time_called_after"] == table.time_called_after
            if table.time_called_after is not None:
                said_so = f"Time called after hand {table.time_called_after}"
                assert said_so in page and said_so in visible(draw[draw.index(f"<h2>Table {number}</h2>") :])
                team_page = visible(client.get(reverse("public:team", args=[slug, ns])).content.decode())
                assert said_so.lower() in team_page
    byes = list(round_.seatings.filter(table__isnull=True).select_related("team"))
    credit = api(client, f"/tournaments/{slug}/rounds/{round_.number}")["bye_credit"]
    assert credit == (int(worked[byes[0].team.number, round_.number].split()[1]) if byes else None)
    for bye in byes:
        line = worked[bye.team.number, round_.number]
        assert f"Bye: #{bye.team.number} {bye.team.display_name} · {line}" in visible(draw)
        assert projector["Bye"].endswith(f"{credit} points")


def read_forfeit_while_the_round_plays(client, director_client, tournament, round_, forfeited) -> None:
    """A forfeit while other tables of its round still play: every surface shows both sides at once, the absent
    team's loss and the present team's win, and the present team's points, as the bye's, marked provisional (the
    average of the winners at the tables signed so far), the same way everywhere."""
    slug, number = tournament.slug, forfeited.number
    played = [table for table in round_.tables.filter(locked_at__isnull=False, forfeit="")]
    credit = bye_points(tournament.rules, [max(t.ns_total, t.ew_total) for t in played if t.ns_total != t.ew_total])
    assert credit > 0 and round_.tables.filter(locked_at__isnull=True).exists(), "the round still plays"
    absent_pair = Pair(forfeited.forfeit)
    present, absent = forfeited.team_at(absent_pair.other), forfeited.team_at(absent_pair)
    bye = round_.seatings.get(table__isnull=True).team
    won, lost = f"won by forfeit, {credit} points (provisional)", "lost: absent, 0 points"
    lines = {absent_pair.other: won, absent_pair: lost}

    # Each team's round: its public page, its own page and the API's record.
    for team, line in ((present, won), (absent, lost), (bye, f"bye, {credit} points (provisional)")):
        assert team_page_lines(client, slug, team.number)[-1] == line[0].upper() + line[1:], team
        assert own_page_lines(team)[-1] == line, team
        record = api(client, f"/tournaments/{slug}/teams/{team.number}")["rounds"][-1]
        assert (record["line"], record["counted"], record["provisional"]) == (line, True, line != lost), team

    # The round: the API, the tables page, the live view, the projector, the printed sheet, the table's own page and
    # the hands export.
    answer = api(client, f"/tournaments/{slug}/rounds/{round_.number}")
    entry = next(table for table in answer["tables"] if table["number"] == number)
    assert (entry["north_south_round"]["line"], entry["east_west_round"]["line"]) == (lines[NS], lines[EW])
    assert (answer["bye_credit"], answer["bye_credit_provisional"]) == (credit, True)
    ns, ew = forfeited.team_at(NS), forfeited.team_at(EW)
    sides = f"North–South #{ns.number}: {lines[NS]} · East–West #{ew.number}: {lines[EW]}"
    assert sides in visible(client.get(reverse("table", args=[forfeited.secret])).content.decode())
    sheets = pdf_pages(round_sheets_pdf(round_, blank=False, base_url=BASE))
    assert sides in " ".join(sheets[number - 1].split())
    draw = client.get(reverse("public:draw", args=[slug])).content.decode()
    card = draw[draw.index(f"<h2>Table {number}</h2>") :]
    assert re.findall(r'class="small round-result">(.*?)</span>', card)[:2] == [
        line[0].upper() + line[1:] for line in (lines[NS], lines[EW])
    ]
    assert f"Bye: #{bye.number} {bye.display_name} · bye, {credit} points (provisional)" in visible(draw)
    live = visible(director_client.get(reverse("director:round_live", args=[slug, round_.number])).content.decode())
    for team, line in ((present, won), (absent, lost)):
        assert f"#{team.number} {team.display_name}: {line}" in live
    projector = {line.split()[0]: line for line in projector_lines(client, slug, "tables")}
    assert projector["Bye"].endswith(f"{credit} points (provisional)")
    hands = export_rows(director_client, reverse("director:hands_export", args=[slug, "csv"]), "csv")
    assert next(row for row in hands if row["Table"] == str(number))["Forfeit"] == (
        f"North–South (#{ns.number}) {lines[NS]}; East–West (#{ew.number}) {lines[EW]}"
    )

    # The standings count both sides at once: the page, the API, the CSV and XLSX exports, the PDF and the projector.
    marked = f"{credit} (provisional)"
    answer = {row["team_number"]: row for row in api(client, f"/tournaments/{slug}/standings")}
    page = client.get(reverse("public:standings", args=[slug])).content.decode()
    cells = {
        int(team): [visible(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for team, row in re.findall(r'<tr id="team-(\d+)"[^>]*>(.*?)</tr>', page, re.S)
    }
    exported = {
        export_format: {
            team_number(row["Team"]): row
            for row in export_rows(
                director_client, f"{reverse('public:standings', args=[slug])}?_export={export_format}", export_format
            )
        }
        for export_format in ("csv", "xlsx")
    }
    printed = pdf_text(standings_pdf(tournament))
    projected = {team_number(line.split()[1]): line for line in projector_lines(client, slug, "standings")}
    for team, record, shown in ((present, "1-0-0", marked), (bye, "1-0-0", marked), (absent, "0-1-0", "0")):
        row = answer[team.number]
        assert (row["won_lost_tied"], row["points_for"], row["points_for_provisional"]) == (
            record,
            credit if shown == marked else 0,
            shown == marked,
        ), team
        assert (cells[team.number][4], cells[team.number][5]) == (record, shown), team
        for rows in exported.values():
            assert (rows[team.number]["W-L-T"], rows[team.number]["Points for"]) == (record, shown), team
        line = next(line for line in printed.splitlines() if re.search(rf"\s#{team.number}\s", f" {line} "))
        assert f"{record} {shown} " in " ".join(line.split()) + " ", line
        assert projected[team.number].endswith(f"{record} · {shown}"), projected[team.number]


@pytest.fixture
def day(tournament, make_teams, sheet, staff, director_client):
    """Ten teams, three qualifying rounds and a 5-seed playoff, played through the services."""
    money_settings_set(
        tournament=tournament,
        entry_fee="100",
        side_pot_fee="0",
        house_percent="10",
        payout_percents="50, 30, 20",
        side_pot_rule="placing",
        actor=staff,
    )
    teams = {team.number: team for team in make_teams(tournament, 10)}
    for player in Player.objects.filter(event=tournament.event):
        player_link(player=player, actor=staff)
    for team in teams.values():
        payment_record(team=team, amount="100", actor=staff)
    series = series_create(name="Season", actor=staff)
    series_tournament_add(series=series, tournament=tournament, actor=staff)
    client = Client()

    # Round 1: #10 sits out, so nine are drawn and #9 has the bye; #3 plays with a substitute; time is called at
    # table 2 after two hands; #8 does not come (table 4), found while table 3 still plays.
    team_sit_out_set(team=teams[10], round_number=1, reason="Arrives late", actor=staff)
    round_1 = round_publish(
        round=round_draw(tournament=tournament, method="manual", pairs="1 2\n3 4\n5 6\n7 8\n9", actor=staff),
        actor=staff,
    )
    substitute_approve(team=teams[3], round=round_1, replaces=teams[3].members[1].player, name="Jo Lee", actor=staff)
    called = round_1.tables.get(number=2)
    sheet.hand(called, "N", "N", 3, "high", 9)
    sheet.hand(called, "E", "E", 2, "low", 9)
    table_time_call(table=called, context=ChangeContext(version=sheet.version(called), actor=staff))
    sheet.sign_both(called)
    sheet.play(round_1.tables.get(number=1), "NS")
    table_forfeit_declare(
        table=round_1.tables.get(number=4), absent="EW", early=True, reason="Not in the hall", actor=staff
    )
    read_forfeit_while_the_round_plays(client, director_client, tournament, round_1, round_1.tables.get(number=4))
    play_round(sheet, round_1, {3: "EW"})
    read_tables_at_round_end(client, director_client, tournament, round_1)

    # Round 2: all ten; neither #8 nor #10 comes (table 5); table 2 is tied.
    round_2 = round_publish(
        round=round_draw(tournament=tournament, method="manual", pairs="1 3\n2 4\n5 7\n6 9\n8 10", actor=staff),
        actor=staff,
    )
    table_forfeit_declare(
        table=round_2.tables.get(number=5), absent="both", early=True, reason="Neither team here", actor=staff
    )
    play_round(sheet, round_2, {2: "tie", 4: "EW"})
    read_tables_at_round_end(client, director_client, tournament, round_2)

    # Round 3: #1 sits out; #10 has the bye.
    team_sit_out_set(team=teams[1], round_number=3, reason="Travelling", actor=staff)
    round_3 = round_publish(
        round=round_draw(tournament=tournament, method="manual", pairs="2 3\n4 5\n6 7\n8 9\n10", actor=staff),
        actor=staff,
    )
    play_round(sheet, round_3, {2: "EW", 4: "EW"})
    read_tables_at_round_end(client, director_client, tournament, round_3)

    # The playoff: five seeds, no third-place match; every match won by the team at North–South.
    playoff_seed(tournament=tournament, teams=5, third_place=False, actor=staff)
    playoff_publish(tournament=tournament, actor=staff)
    while True:
        waiting = PlayoffMatch.objects.filter(
            tournament=tournament, winner__isnull=True, table__isnull=False, not_needed=False
        ).select_related("table")
        if not waiting:
            break
        for match in waiting:
            sheet.play(match.table, "NS")
    tournament.refresh_from_db()
    assert tournament.status == tournament.Status.FINISHED
    return tournament


def test_every_surface_tells_the_same_day(day, director_client):
    tournament, client, slug = day, Client(), day.slug
    rounds = worked_rounds(tournament)
    assert {entry[2] for entries in rounds.values() for entry in entries} == {
        "won",
        "lost",
        "tied",
        "bye",
        "won by forfeit",
        "lost: absent",
        "sat out",
    }, "the day holds every kind of round"

    # Each team's rounds: the public team page, the team's own page and the API's team record.
    for team in tournament.teams.order_by("number"):
        expected = rounds[team.number]
        lines = [said(result, mine, theirs) for _, _, result, mine, theirs in expected]
        assert team_page_lines(client, slug, team.number) == [line[0].upper() + line[1:] for line in lines], team
        assert own_page_lines(team) == lines, team
        record = api(client, f"/tournaments/{slug}/teams/{team.number}")["rounds"]
        assert [(r["round"], r["result"], r["points_for"], r["points_against"]) for r in record] == [
            (number, result, mine, theirs) for number, _, result, mine, theirs in expected
        ], team
        assert all(r["counted"] for r in record) and [r["line"] for r in record] == lines

    # The hands export adds up, round by round and team by team, to the points every page shows.
    for export_format in ("csv", "xlsx"):
        exported = Counter()
        url = reverse("director:hands_export", args=[slug, export_format])
        for row in export_rows(director_client, url, export_format):
            exported[row["Round"], int(row["N-S team"])] += int(row["N-S points"])
            exported[row["Round"], int(row["E-W team"])] += int(row["E-W points"])
        played = Counter()
        for number, entries in rounds.items():
            for _, stage, result, mine, _ in entries:
                if result not in ("bye", "sat out"):
                    played[stage, number] += mine
        assert +exported == +played, export_format

    # The standings: the page, the projector, the API, the CSV and XLSX exports and the PDF.
    standings = worked_standings(tournament, rounds)
    page = client.get(reverse("public:standings", args=[slug])).content.decode()
    on_page = standings_rows(page[: page.index("</table>", page.index("data-table standings"))])
    answer = {row["team_number"]: row for row in api(client, f"/tournaments/{slug}/standings")}
    assert set(on_page) == set(answer) == set(standings)
    for number, (won_lost_tied, points_for, points_against, byes) in standings.items():
        row = answer[number]
        assert (row["won_lost_tied"], row["points_for"], row["points_against"], row["byes"]) == (
            won_lost_tied,
            points_for,
            points_against,
            byes,
        ), number
        assert on_page[number] == (row["label"], won_lost_tied, points_for, byes), number
    order = [row["team_number"] for row in api(client, f"/tournaments/{slug}/standings")]
    for export_format in ("csv", "xlsx"):
        exported = export_rows(
            director_client, f"{reverse('public:standings', args=[slug])}?_export={export_format}", export_format
        )
        assert [team_number(row["Team"]) for row in exported] == order
        for row in exported:
            number = team_number(row["Team"])
            assert (row["Place"], row["W-L-T"], int(row["Points for"]), int(row["Byes"])) == on_page[number], (
                export_format,
                number,
            )
    printed = pdf_text(standings_pdf(tournament))
    standings_part = printed[printed.index(f"{tournament.name}: standings") :]
    for number in order:
        line = next(line for line in standings_part.splitlines() if re.search(rf"\s#{number}\s", f" {line} "))
        label, won_lost_tied, points_for, byes = on_page[number]
        cells = line.split()
        assert cells[0] == label and won_lost_tied in cells and str(points_for) in cells and cells[-1] == str(byes), (
            line
        )
    projected = projector_lines(client, slug, "standings")
    assert [team_number(line.split()[1]) for line in projected] == order
    for line in projected:
        label, won_lost_tied, points_for, _ = on_page[team_number(line.split()[1])]
        assert line.split()[0] == label and line.endswith(f"{won_lost_tied} · {points_for}"), line

    # The final placings: the standings page, the API, the exports, the projector, the PDF, the prizes and the series.
    placings = worked_placings(tournament, order)
    answer = {row["team"]["number"]: row["label"] for row in api(client, f"/tournaments/{slug}/placings")}
    assert answer == placings
    section = page[page.index("data-table placings") :]
    section = section[: section.index("</table>")]
    on_page = {
        team_number(visible(cells[1])): visible(cells[0])
        for cells in (
            re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in re.findall(r"<tr[^>]*>(.*?)</tr>", section, re.S)
        )
        if cells
    }
    assert on_page == placings
    for export_format in ("csv", "xlsx"):
        url = f"{reverse('public:standings', args=[slug])}?_export={export_format}&listing=placings"
        assert {
            team_number(row["Team"]): row["Place"] for row in export_rows(director_client, url, export_format)
        } == placings
    projected = {team_number(line.split()[1]): line.split()[0] for line in projector_lines(client, slug, "placings")}
    assert projected == placings
    printed_placings = printed[: printed.index(f"{tournament.name}: standings")]
    for number, label in placings.items():
        line = next(line for line in printed_placings.splitlines() if re.search(rf"\s#{number}\s", f" {line} "))
        assert line.split()[0] == label, line

    # The prizes follow the places: 1,000 in fees less the house's 10% is 900, paid 50/30/20; the beaten
    # semifinalists share third (20% between them), the beaten quarterfinalist gets nothing.
    by_place = defaultdict(list)
    for number, label in placings.items():
        by_place[label].append(number)
    expected_prizes = {by_place["1"][0]: Decimal("450.00"), by_place["2"][0]: Decimal("270.00")}
    expected_prizes |= {number: Decimal("90.00") for number in by_place["T-3"]}
    sheet = payout_sheet(tournament)
    assert {line.team.number: line.amount for line in sheet.prizes} == expected_prizes
    assert {line.team.number: str(line.place) for line in sheet.prizes} == {n: placings[n] for n in expected_prizes}
    exported = export_rows(director_client, reverse("director:payouts_export", args=[slug, "csv"]), "csv")
    prizes = {int(row["Team"]): Decimal(row["Amount"]) for row in exported if row["Team"]}
    assert prizes == expected_prizes
    printed_prizes = pdf_text(payouts_pdf(tournament))
    for number, amount in expected_prizes.items():
        assert re.search(rf"#{number}\b.*{amount}", printed_prizes), (number, amount)

    # The series: each team's own two players get the place's points (6, 3, 1 for each beaten semifinalist) and
    # half a point for each qualifying round won, byes and forfeits won included.
    finish = {"1": 6, "2": 3, "T-3": 1}
    wins = {number: int(record[0].split("-")[0]) for number, record in standings.items()}
    series = series_standings_of(series_get("season"))
    points = {row.name: row.total for row in series.rows}
    for team in tournament.teams.all():
        expected = finish.get(placings[team.number], 0) + Fraction(wins[team.number], 2)
        for member in team.members:
            assert points[member.player.name] == expected, (team, member.player.name)
    assert "Jo Lee" not in points, "a substitute earns no series points"

    # Each team's pages say where it finished, as the placings do.
    for team in tournament.teams.all():
        label = placings[team.number]
        public = visible(
            re.search(
                r'id="finish">(.*?)</p>',
                client.get(reverse("public:team", args=[slug, team.number])).content.decode(),
                re.S,
            ).group(1)
        )
        phone = Client()
        phone.post(reverse("team_open"), {"code": team.code})
        own = visible(
            re.search(
                r'id="finish-title"[^>]*>(.*?)</h2>',
                phone.get(reverse("team_page", args=[team.pk])).content.decode(),
                re.S,
            ).group(1)
        )
        if label == "1":
            assert public == f"Champion of {tournament.name}" and own == "Champion", (public, own)
        else:
            assert public.startswith(f"Place {label} in {tournament.name}") and own == f"Place {label}", (public, own)

    # The substitute is named for round 1 only, on both teams' pages; the team's results stay the team's.
    for number in (3, 4):
        sections = re.findall(
            r'<section class="card">(.*?)</section>',
            client.get(reverse("public:team", args=[slug, number])).content.decode(),
            re.S,
        )
        named = [("Jo Lee" in section) for section in sections]
        assert named[0] and not any(named[1:]), number

    seeded = set(tournament.playoff_seeds.values_list("team__number", flat=True))
    # A person's page and answer give their team's playoff place and qualifying rounds won as the placings and the
    # standings do.
    for team in tournament.teams.all():
        for member in team.members:
            person = member.player.person
            row = api(client, f"/persons/{person.pk}")["tournaments"][0]
            label = placings[team.number] if team.number in seeded else None
            assert (row["place"], row["qualifying_rounds_won"]) == (label, wins[team.number]), person
            page = visible(client.get(reverse("public:person", args=[person.pk])).content.decode())
            assert (f"{label} · {row['placing']}" if label else "—") in page

    # The archive keeps the day: imported again, every team's record reads the same.
    records = {team.number: api(client, f"/tournaments/{slug}/teams/{team.number}") for team in tournament.teams.all()}
    placed = api(client, f"/tournaments/{slug}/placings")
    played = api(client, f"/tournaments/{slug}/rounds/1")
    exported = event_export(tournament.event)
    tournament.event.delete()
    imported = event_import(data=json.loads(json.dumps(exported))).tournaments.get()
    for number, record in records.items():
        assert api(client, f"/tournaments/{imported.slug}/teams/{number}") == record
    assert api(client, f"/tournaments/{imported.slug}/placings") == placed
    assert api(client, f"/tournaments/{imported.slug}/rounds/1") == played, "the substitute, the forfeit, time called"
