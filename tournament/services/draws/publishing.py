"""Publishing a draft, taking back an unplayed round, and closing a fully signed one."""

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tournament.errors import ServiceError
from tournament.models import LogEntry, Round, Tournament
from tournament.services.clock import round_completion_store
from tournament.services.draws.editing import draft_locked, draw_problems
from tournament.services.draws.making import draw_changed, still_playing_check
from tournament.services.log import Actor
from tournament.wording import tables_phrase


@transaction.atomic
def round_publish(*, round: Round, actor: Actor | None = None, override_unsigned: bool = False) -> Round:
    """Publish a draft: its tables' links start to work and the draw is fixed.

    Refused while an earlier round has unsigned tables, unless ``override_unsigned`` (logged).
    """
    round_ = draft_locked(round)
    problems = draw_problems(round_)
    if problems:
        raise ServiceError("The draw cannot be published yet: " + " ".join(problems))
    override = still_playing_check(round_.tournament, round_.number, "published", override_unsigned)
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    tournament = round_.tournament
    if tournament.status == Tournament.Status.SETUP:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    summary = f"Round {round_.number} published: the table links work{override}"
    draw_changed(round_, actor, LogEntry.Action.ROUND_PUBLISHED, summary)
    return round_


@transaction.atomic
def round_unpublish(*, round: Round, actor: Actor | None = None) -> Round:
    """Take back a published round no hand has been entered in: it is a draft again and its links stop
    working. A round with hands is corrected, never taken back."""
    round_ = Round.objects.select_for_update().select_related("tournament__event").get(pk=round.pk)
    if round_.status != Round.Status.PUBLISHED or round_.kind != Round.Kind.QUALIFYING:
        raise ServiceError(f"Only a published qualifying round can be unpublished; round {round_.number} is not one.")
    entered = Q(hands__isnull=False) | Q(penalties__isnull=False) | Q(submissions__isnull=False)
    played = sorted(set(round_.tables.filter(entered).values_list("number", flat=True)))
    if played:
        raise ServiceError(
            f"Round {round_.number} cannot be unpublished: {tables_phrase(played)} "
            f"{'has' if len(played) == 1 else 'have'} entered hands. Correct the sheets instead."
        )
    later = round_.tournament.rounds.filter(number__gt=round_.number).order_by("number").first()
    if later is not None:
        raise ServiceError(f"Round {round_.number} cannot be unpublished: round {later.number} is drawn after it.")
    round_.status = Round.Status.DRAFT
    round_.published_at = None
    round_.save(update_fields=["status", "published_at"])
    round_completion_store(round=round_)
    round_.tables.update(first_dealer="", next_dealer="", disputed_at=None, dispute_note="")
    unpublished = f"Round {round_.number} unpublished: a draft again, its table links no longer open"
    draw_changed(round_, actor, LogEntry.Action.ROUND_UNPUBLISHED, unpublished)
    return round_


@transaction.atomic
def round_close(*, round: Round, actor: Actor | None = None) -> Round:
    """Close a round whose every sheet is signed: from now on only staff corrections change it."""
    round_ = Round.objects.select_for_update().select_related("tournament__event").get(pk=round.pk)
    if round_.status != Round.Status.PUBLISHED:
        raise ServiceError(f"Only a published round can be closed; round {round_.number} is {round_.status}.")
    unsigned = list(round_.tables.filter(locked_at__isnull=True).order_by("number").values_list("number", flat=True))
    if unsigned:
        verb = "has" if len(unsigned) == 1 else "have"
        raise ServiceError(f"Round {round_.number} cannot close: {tables_phrase(unsigned)} {verb} not signed.")
    round_.status = Round.Status.CLOSED
    round_.save(update_fields=["status"])
    draw_changed(round_, actor, LogEntry.Action.ROUND_CLOSED, f"Round {round_.number} closed")
    return round_


@transaction.atomic
def qualifying_rounds_close(*, tournament: Tournament, actor: Actor | None = None) -> list[Round]:
    """Close every qualifying round still open, in one step before seeding the playoff: each as ``round_close``
    closes it, and logged so. All or nothing: a round with a sheet not signed refuses the lot."""
    open_rounds = list(
        tournament.rounds.filter(kind=Round.Kind.QUALIFYING, status=Round.Status.PUBLISHED).order_by("number")
    )
    if not open_rounds:
        raise ServiceError("No qualifying round is open: there is nothing to close.")
    return [round_close(round=round_, actor=actor) for round_ in open_rounds]
