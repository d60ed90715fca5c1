"""The playoff drawn as a bracket: each match centred between the two it is fed by, lines joining them.

The drawing is computed here (positions in pixels) and rendered on the server as inline SVG, for the public
page, the projector and the PDF alike: no client-side library, and it reads without JavaScript.
"""

from dataclasses import dataclass, field
from functools import partial

from scoring.bracket import FINAL, LOSERS, THIRD, WINNERS, Source, stage_name
from tournament.models import PlayoffMatch, Team, Tournament
from tournament.selectors.prefetch import members

BOX_WIDTH = 210
MAX_BOX_WIDTH = 250
DESK_WIDTH = 1180
ROW = 24
BOX_HEIGHT = 2 * ROW
LABEL = 15
SLOT = BOX_HEIGHT + LABEL + 9
GAP = 44
HEADER = 30
# A box's row: the seed, the name from NAME_X, then the score right-aligned 7px from the box's edge with room
# for three bold digits and a clear gap before it. A 13px name's character is taken as 7.6px wide on average
# (DejaVu Sans, bold a little wider); a name estimated wider than its room is drawn condensed to fit exactly
# (SVG textLength), down to SQUEEZE of its width; a longer one is shortened with an ellipsis.
NAME_X = 28
POINTS_ROOM = 26 + 12
CHAR = 7.6
LEAF_CHAR = 7.0
SQUEEZE = 0.62
# The column of teams dropping into the losers' bracket's first round: only leaves, narrower than a box, so
# that an 8-team losers' bracket (that column and four rounds) shows whole on a desktop as its winners' does.
DROP_COLUMN = 150


@dataclass
class Side:
    """One team's row of a match box."""

    seed: int | None
    text: str
    points: str
    advanced: bool
    number: int | None
    squeeze: int | None = None


@dataclass
class Box:
    match: PlayoffMatch
    x: int
    y: int
    top: Side
    bottom: Side
    on_path: bool = False

    @property
    def label(self) -> str:
        table = f" · table {self.match.table.number}" if self.match.table and not self.match.winner_id else ""
        return f"{self.match.label}{table}"

    @property
    def playing(self) -> bool:
        return bool(self.match.table and not self.match.winner_id and self.match.table.hands_played)


@dataclass
class Leaf:
    """A team that comes into a match from outside the drawing: a bye, or a drop from another bracket."""

    x: int
    y: int
    text: str
    width: int
    on_path: bool = False
    squeeze: int | None = None


@dataclass
class Line:
    path: str
    source: str
    to: str
    on_path: bool = False


@dataclass
class Section:
    title: str
    box_width: int = BOX_WIDTH
    width: int = 0
    height: int = 0
    print_width: float = 0
    print_height: float = 0
    columns: list = field(default_factory=list)
    boxes: list = field(default_factory=list)
    leaves: list = field(default_factory=list)
    lines: list = field(default_factory=list)


def _full_name(team: Team) -> str:
    return f"#{team.number} {team.display_name}"


def fitted(text: str, room: float, char: float) -> tuple[str, int | None]:
    """``text`` as drawn in ``room`` pixels, and the width to condense it to (None when it fits as it is)."""
    if len(text) * char <= room:
        return text, None
    longest = int(room / (char * SQUEEZE))
    return (text if len(text) <= longest else text[: longest - 1] + "…"), int(room)


def fitted_box_width(seeds_by_number: dict, limit: int = MAX_BOX_WIDTH) -> int:
    """Boxes wide enough for the longest seeded team's name, up to ``limit`` (a longer name is condensed);
    the same in every section, so that the brackets line up."""
    longest = max((len(_full_name(team)) for team in seeds_by_number.values() if team is not None), default=0)
    return min(max(BOX_WIDTH, round(NAME_X + POINTS_ROOM + longest * CHAR + 1)), limit)


def desk_box_limit(columns: int) -> int:
    """The widest box with which a tree of ``columns`` rounds still shows whole on a desktop, never narrower
    than MAX_BOX_WIDTH (a 16-seed bracket)."""
    return max(MAX_BOX_WIDTH, (DESK_WIDTH - 4 + GAP) // max(columns, 1) - GAP)


def losers_box_limit(columns: int) -> int:
    """The widest box with which a losers' bracket of ``columns`` rounds, after its column of teams dropping
    in, still shows whole on a desktop, never narrower than BOX_WIDTH."""
    return max(BOX_WIDTH, (DESK_WIDTH - 4 - DROP_COLUMN) // max(columns, 1) - GAP)


def _side(
    match: PlayoffMatch,
    team: Team | None,
    points: int | None,
    seeds: dict,
    source: str,
    labels: dict[str, str],
    box_width: int,
) -> Side:
    """A team's row; before the team is known, where it will come from ("Winner of Semifinal 1")."""
    if team is None:
        parsed = Source.parse(source)
        if parsed.kind == "seed":
            return Side(int(parsed.value), "", "", False, None)
        coming = _coming(parsed, labels)
        return Side(None, coming if len(coming) <= 31 else _coming(parsed, {}), "", False, None)
    advanced = match.winner_id is not None and match.winner_id == team.pk
    text, squeeze = fitted(_full_name(team), box_width - NAME_X - POINTS_ROOM, CHAR)
    return Side(seeds.get(team.pk), text, "" if points is None else str(points), advanced, team.number, squeeze)


def _feeders(matches: list[PlayoffMatch]) -> dict[str, PlayoffMatch]:
    return {match.code: match for match in matches}


def _coming(source: Source, labels: dict[str, str]) -> str:
    """Where a team not known yet comes from: the winner or loser of a match, by its label in ``labels`` (else
    its code)."""
    what = "Winner" if source.kind == "winner" else "Loser"
    return f"{what} of {labels.get(str(source.value), source.value)}"


def _fed_from(source_text: str) -> str | None:
    """The code of the match a side's source names; None for a seed."""
    source = Source.parse(source_text)
    return None if source.kind == "seed" else str(source.value)


def _external(source: Source, labels: dict[str, str], seeds_by_number: dict) -> str:
    """How a team that comes from outside the drawing is named on its leaf."""
    if source.kind == "seed":
        team = seeds_by_number.get(source.value)
        return f"Seed {source.value}: {_full_name(team)} (bye)" if team else f"Seed {source.value} (bye)"
    return _coming(source, labels)


def section_draw(
    title: str,
    matches: list[PlayoffMatch],
    *,
    labels: dict,
    seeds: dict,
    seeds_by_number: dict,
    team: int | None,
    box_width: int | None = None,
    limit: int = MAX_BOX_WIDTH,
) -> Section:
    """Lay out ``matches`` as a tree: columns by round, each match centred between its feeders; a source
    outside ``matches`` (a bye, a drop from the other bracket) is a leaf in the column before. Teams that drop
    into the first round of the losers' bracket get a column of leaves of their own before it."""
    box_width = max(box_width or 0, fitted_box_width(seeds_by_number, limit))
    section = Section(title, box_width=box_width)
    if not matches:
        return section
    inside = _feeders(matches)
    first = min(match.bracket_round for match in matches)
    first_sources = [
        Source.parse(s) for m in matches if m.bracket_round == first for s in (m.top_source, m.bottom_source)
    ]
    offset = 1 if any(source.kind == "loser" and source.value not in inside for source in first_sources) else 0
    fed = {_fed_from(s) for m in matches for s in (m.top_source, m.bottom_source)}
    roots = [m for m in sorted(matches, key=lambda m: (m.bracket_round, m.position)) if m.code not in fed]
    placed: dict[str, int] = {}
    drawn: dict[str, Box] = {}
    slots = [0]

    lead = DROP_COLUMN + GAP if offset else 0

    def column_x(column: int) -> int:
        return lead + column * (box_width + GAP)

    def next_y() -> int:
        y = HEADER + slots[0] * SLOT + LABEL
        slots[0] += 1
        return y

    def place(match: PlayoffMatch) -> int:
        if match.code in placed:
            return placed[match.code]
        column = match.bracket_round - first
        ends: list[tuple[int, int, int, str | None, bool]] = []
        for row, source_text in enumerate((match.top_source, match.bottom_source)):
            source = Source.parse(source_text)
            if source.kind != "seed" and source.value in inside:
                feeder = inside[source.value]
                y = place(feeder) + BOX_HEIGHT // 2
                came = drawn[feeder.code].on_path
                ends.append((y, row, column_x(feeder.bracket_round - first) + box_width, source.value, came))
            elif column + offset > 0:
                y = next_y()
                x, width = (0, DROP_COLUMN) if column == 0 else (column_x(column - 1), box_width)
                text, squeeze = fitted(_external(source, labels, seeds_by_number), width - 8, LEAF_CHAR)
                leaf = Leaf(x, y, text, width, squeeze=squeeze)
                leaf.on_path = team is not None and f"#{team} " in leaf.text
                section.leaves.append(leaf)
                ends.append((y + ROW // 2, row, leaf.x + width, None, leaf.on_path))
        y = round(sum(end[0] for end in ends) / len(ends) - BOX_HEIGHT // 2) if len(ends) == 2 else next_y()
        placed[match.code] = y
        x = column_x(column)
        table = match.table if match.table and match.table.hands_played else None
        box = Box(
            match,
            x,
            y,
            _side(match, match.top_team, table.ns_total if table else None, seeds, match.top_source, labels, box_width),
            _side(
                match,
                match.bottom_team,
                table.ew_total if table else None,
                seeds,
                match.bottom_source,
                labels,
                box_width,
            ),
        )
        box.on_path = team is not None and team in (box.top.number, box.bottom.number)
        section.boxes.append(box)
        drawn[match.code] = box
        for end_y, row, start_x, source_code, came in ends:
            target_y = y + ROW // 2 + row * ROW
            middle = x - GAP // 2
            path = f"M{start_x},{end_y} H{middle} V{target_y} H{x}"
            section.lines.append(Line(path, source_code or "", match.code, box.on_path and came))
        return y

    for root in roots:
        place(root)
    columns = sorted({m.bracket_round - first for m in matches} | {0})
    names: dict[int, str] = {}
    for match in matches:
        names.setdefault(match.bracket_round - first, stage_name(match.label))
    section.columns = [(column_x(c), names.get(c, "")) for c in columns if names.get(c, "") != title]
    section.width = column_x(max(columns)) + box_width + 4
    section.height = HEADER + slots[0] * SLOT + 8
    return section


@dataclass
class BracketTree:
    sections: list[Section]
    teams: list
    team: int | None = None


def bracket_tree(
    tournament: Tournament,
    *,
    team: int | None = None,
    split: bool = False,
    last_rounds: int | None = None,
    box_width: int | None = None,
) -> BracketTree | None:
    """The drawing of a published bracket; ``team`` (a team number) has its path marked. ``split`` cuts a
    large main bracket at its semifinals (for print): each half a section, then the final. ``last_rounds``
    draws only that many last rounds of the main bracket (the projector, for a large field). Boxes are as
    wide as the longest name needs, or ``box_width`` when wider (a printed page's spare width)."""
    matches = list(
        PlayoffMatch.objects.filter(tournament=tournament)
        .select_related("top_team", "bottom_team", "winner", "table")
        .prefetch_related(members("top_team__memberships"), members("bottom_team__memberships"))
        .order_by("stage", "bracket_round", "position")
    )
    if not matches:
        return None
    seeded = list(tournament.playoff_seeds.select_related("team").prefetch_related(members("team__memberships")))
    seeds = {s.team_id: s.seed for s in seeded}
    seeds_by_number = {s.seed: s.team for s in seeded}
    labels = {m.code: m.label for m in matches}

    draw = partial(
        section_draw, labels=labels, seeds=seeds, seeds_by_number=seeds_by_number, team=team, box_width=box_width
    )
    double = tournament.playoff_double
    main = [m for m in matches if m.bracket == WINNERS or (m.bracket == FINAL and not double)]
    if last_rounds is not None:
        last = max(m.bracket_round for m in main)
        main = [m for m in main if m.bracket_round > last - last_rounds]
    limit = desk_box_limit(len({m.bracket_round for m in main}))
    sections = []
    if split and len(main) > 31:
        final = next(m for m in main if m.bracket == FINAL) if not double else max(main, key=lambda m: m.stage)
        halves = [_subtree(main, str(Source.parse(source).value)) for source in (final.top_source, final.bottom_source)]
        sections.append(draw("Top half", halves[0], limit=limit))
        sections.append(draw("Bottom half and final", halves[1] + [final], limit=limit))
    else:
        sections.append(draw("Winners' bracket" if double else "Bracket", main, limit=limit))
    third = [m for m in matches if m.bracket == THIRD]
    if third:
        _third_place_add(sections[-1], draw("Third-place match", third, limit=limit))
    if double:
        losers = [m for m in matches if m.bracket == LOSERS]
        losers_limit = min(limit, losers_box_limit(len({m.bracket_round for m in losers})))
        sections.append(draw("Losers' bracket", losers, limit=losers_limit))
        finals = [m for m in matches if m.bracket == FINAL and not (m.conditional and (m.not_needed or not m.top_team))]
        sections.append(draw("Grand final", finals, limit=limit))
    return BracketTree(sections, teams=[s.team for s in seeded], team=team)


def _third_place_add(main: Section, third: Section) -> None:
    """The third-place match drawn apart from the tree, in the final's column below it, with no line."""
    box = third.boxes[0]
    final = max(main.boxes, key=lambda b: b.x)
    box.x, box.y = final.x, max(final.y + 3 * SLOT, main.height - SLOT + LABEL)
    main.boxes.append(box)
    main.height = max(main.height, box.y + BOX_HEIGHT + 8)


def _subtree(matches: list[PlayoffMatch], code: str) -> list[PlayoffMatch]:
    """The match ``code`` and every match of ``matches`` that feeds it."""
    by_code = _feeders(matches)
    found: list[PlayoffMatch] = []
    pending = [code]
    while pending:
        match = by_code.get(pending.pop())
        if match is None or match in found:
            continue
        found.append(match)
        pending.extend(fed for s in (match.top_source, match.bottom_source) if (fed := _fed_from(s)))
    return found
