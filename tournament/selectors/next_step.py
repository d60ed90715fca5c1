"""The next sensible step of a tournament, for the director's tournament page."""

from dataclasses import dataclass

from django.db.models import Count, Q
from django.urls import reverse

from tournament.models import Round, Table, Tournament
from tournament.wording import in_words, still_playing_words


@dataclass(frozen=True)
class NextStep:
    """What to do next, and the button that does it: a link, or a form posted to ``url`` when ``post``."""

    text: str
    action: str
    url: str
    post: bool = False


def unsigned_tables(tournament: Tournament) -> list[Table]:
    """The tables of every published round whose sheets are not signed yet."""
    return list(
        Table.objects.filter(round__tournament=tournament, round__status=Round.Status.PUBLISHED, locked_at__isnull=True)
        .select_related("round")
        .order_by("round__number", "number")
    )


def round_can_be_drawn(tournament: Tournament) -> bool:
    """Whether a qualifying round is still to be drawn (or its draft drawn again): not once the bracket is out."""
    if tournament.playoff_published_at is not None:
        return False
    published = tournament.rounds.filter(kind=Round.Kind.QUALIFYING).exclude(status=Round.Status.DRAFT).count()
    return published < tournament.qualifying_rounds


def tournament_next_step(tournament: Tournament, *, checked_in: int) -> NextStep:
    """From check-in to prize-giving: the next round while qualifying lasts, then closing qualifying, then
    the playoff, then the final placings."""
    slug = tournament.slug
    if tournament.status == Tournament.Status.FINISHED:
        return NextStep(
            "The tournament is finished: print the final placings for the prize-giving.",
            "Final placings (PDF)",
            reverse("director:standings_pdf", args=[slug]),
        )
    if tournament.playoff_published_at is not None:
        return NextStep("The playoff is being played.", "The bracket", reverse("director:playoffs", args=[slug]))
    rounds = list(
        tournament.rounds.filter(kind=Round.Kind.QUALIFYING)
        .annotate(tables_count=Count("tables"), unsigned=Count("tables", filter=Q(tables__locked_at__isnull=True)))
        .order_by("number")
    )
    latest = rounds[-1] if rounds else None
    unsigned = unsigned_tables(tournament)
    still = f" Not signed yet: {still_playing_words(unsigned)}." if unsigned else ""
    if latest is None and checked_in < 2:
        return NextStep(
            "Check the teams in at the registration desk; round 1 is drawn from the teams checked in.",
            "Registration desk",
            reverse("director:desk", args=[slug]),
        )
    if latest is not None and latest.is_draft:
        return NextStep(
            f"Round {latest.number} is a draft: check the tables, then publish it.{still}",
            f"Round {latest.number}",
            reverse("director:round", args=[slug, latest.number]),
        )
    if latest is not None and latest.status == Round.Status.PUBLISHED and latest.unsigned:
        signed = latest.tables_count - latest.unsigned
        return NextStep(
            f"Round {latest.number} is being played: {signed} of {latest.tables_count} sheets signed.{still}",
            f"Watch round {latest.number} live",
            reverse("director:round_live", args=[slug, latest.number]),
        )
    if unsigned:
        earliest = unsigned[0].round.number
        return NextStep(
            f"Round {earliest} is still being played.{still}",
            f"Watch round {earliest} live",
            reverse("director:round_live", args=[slug, earliest]),
        )
    played = latest.number if latest is not None else 0
    if played < tournament.qualifying_rounds:
        return NextStep(
            f"Round {played} is complete. Draw round {played + 1} of {tournament.qualifying_rounds}."
            if played
            else "Draw round 1.",
            f"Draw round {played + 1}",
            reverse("director:round_new", args=[slug]),
        )
    open_rounds = [r.number for r in rounds if r.status == Round.Status.PUBLISHED]
    if open_rounds:
        which = f"round {open_rounds[0]}" if len(open_rounds) == 1 else f"rounds {in_words(open_rounds)}"
        them = "it" if len(open_rounds) == 1 else "them"
        return NextStep(
            f"Every qualifying sheet is signed: close {which} so that only staff corrections change {them}.",
            f"Close {which}",
            reverse("director:qualifying_close", args=[slug]),
            post=True,
        )
    playoffs = reverse("director:playoffs", args=[slug])
    if not tournament.playoff_seeds.exists():
        return NextStep("Qualifying is over: seed the playoff from the standings.", "Seed the playoff", playoffs)
    return NextStep("Check the seeds, then publish the bracket.", "Publish the bracket", playoffs)
