"""Blind double entry: each team enters every deal on its own phone; a deal is recorded when both agree.

Neither team sees the other's entry before both are in. When they differ, both phones show both versions
and the deal waits for a team to correct its entry or for staff to settle it.
"""

from dataclasses import dataclass

from django.db.models import Max
from django.utils import timezone

from scoring import Pair, RedealReason
from tournament.errors import ServiceError
from tournament.models import Hand, HandSubmission, LogEntry, Table
from tournament.services.log import Actor
from tournament.services.recompute import sheet_load, sheet_score
from tournament.services.sheets.entries import (
    HandEntry,
    apply_entry,
    checked_entry,
    entry_of,
    first_dealer_from,
    redeal_checked,
    redeal_penalty_create,
)
from tournament.services.sheets.signing import code_check, with_codes_counted
from tournament.services.sheets.time import clock_deal_check
from tournament.services.sheets.write import Change, ChangeContext, sheet_write


@dataclass(frozen=True)
class Submitted:
    """What a team's entry led to: waiting for the other team, recorded, or differing from it."""

    status: str
    sequence: int
    hand: Hand | None = None
    mine: HandSubmission | None = None
    theirs: HandSubmission | None = None

    WAITING, RECORDED, DIFFER = "waiting", "recorded", "differ"


def _candidate(table: Table, submission: HandSubmission) -> Hand:
    """The deal a submission describes, as an unsaved hand with the penalty a re-deal implies."""
    hand = Hand(table=table, sequence=submission.sequence, dealer=submission.dealer)
    if submission.redeal_reason:
        hand.misdeal = submission.redeal_reason == RedealReason.MISDEAL
    else:
        apply_entry(hand, entry_of(submission))
    return hand


def _submission_of(
    table: Table,
    side: Pair,
    sequence: int,
    entry: HandEntry | None,
    dealer: str,
    redeal_reason: str,
    redeal_team: str,
) -> HandSubmission:
    """The team's entry as a submission (not saved), refused beside its field as the engine would refuse it."""
    submission = HandSubmission(table=table, pair=side, sequence=sequence)
    if entry is not None:
        apply_entry(submission, checked_entry(table, entry))
    else:
        why = redeal_checked(dealer, redeal_reason, redeal_team, fields=("dealer", "redeal_reason", "redeal_team"))
        submission.dealer = dealer
        submission.redeal_reason = redeal_reason
        submission.redeal_team = redeal_team if why.names_a_team else ""
    extra = _candidate(table, submission)
    if not (submission.redeal_reason and RedealReason(submission.redeal_reason).names_a_team):
        sheet_score(sheet_load(table), extra=extra)
    return submission


def _record(table: Table, submission: HandSubmission, actor: Actor) -> Hand:
    """Record the agreed deal on the sheet."""
    if submission.redeal_reason != RedealReason.DEAL_OUT_OF_TURN:
        first_dealer_from(table, submission.dealer)
    clock_deal_check(table, actor)
    hand = _candidate(table, submission)
    hand.accepted_at = timezone.now()
    hand.save()
    if submission.redeal_reason:
        redeal_penalty_create(hand, RedealReason(submission.redeal_reason), submission.redeal_team)
    table.submissions.filter(sequence=submission.sequence).delete()
    return hand


def hand_submit(
    *,
    table: Table,
    pair: str,
    code: str = "",
    entry: HandEntry | None = None,
    dealer: str = "",
    redeal_reason: str = "",
    redeal_team: str = "",
    context: ChangeContext,
) -> Submitted:
    """A team's own entry of the next deal: a played hand (``entry``) or a re-deal (its reason and team).

    Entering again replaces the team's entry. When both teams' entries agree, the deal is recorded.
    """
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        if not table.round.tournament.double_entry:
            raise ServiceError("In this tournament the team that keeps the score sheet enters the hands at the table.")
        if pair not in Pair.values():
            raise ServiceError("Choose your team.", field="pair")
        side = Pair(pair)
        team = code_check(table, side, code, actor)
        if table.time_called_at is not None:
            clock_deal_check(table, actor)
        if table.complete:
            rules = table.round.tournament.rules
            raise ServiceError(f"The round is over: all {rules.hands_per_round} hands are recorded.")
        sequence = (table.hands.aggregate(highest=Max("sequence"))["highest"] or 0) + 1
        mine = _submission_of(table, side, sequence, entry, dealer, redeal_reason, redeal_team)
        mine.device = actor.device[:100]
        HandSubmission.objects.filter(table=table, pair=side, sequence=sequence).delete()
        mine.save()
        theirs = HandSubmission.objects.filter(table=table, pair=side.other, sequence=sequence).first()
        who = f"{side.label} (team #{team.number})"
        if theirs is None:
            summary = f"{who} entered deal {sequence}; waiting for {side.other.label}'s entry"
            return Change(
                LogEntry.Action.HAND_SUBMITTED,
                summary,
                after={"pair": side.value, "sequence": sequence},
                result=Submitted(Submitted.WAITING, sequence, mine=mine),
                voids_signatures=False,
            )
        if theirs.entry() != mine.entry():
            summary = f"Deal {sequence}: {side.label} entered {mine.words}; {side.other.label} entered {theirs.words}"
            return Change(
                LogEntry.Action.ENTRIES_DIFFER,
                summary,
                result=Submitted(Submitted.DIFFER, sequence, mine=mine, theirs=theirs),
                voids_signatures=False,
            )
        hand = _record(table, mine, actor)
        return Change(
            LogEntry.Action.HAND_ADDED,
            lambda: f"Hand {hand.hand_number}: both teams entered {mine.words}",
            result=Submitted(Submitted.RECORDED, sequence, hand=hand),
            records=(hand,),
        )

    def unseen(change: LogEntry) -> bool:
        """The other team's entry, waiting for this one: blind, so no team's page shows it."""
        return change.action == LogEntry.Action.HAND_SUBMITTED and (change.after or {}).get("pair") not in (None, pair)

    return with_codes_counted(table, actor, lambda: sheet_write(table, context=context, edit=edit, unseen=unseen))


def entries_settle(*, table: Table, keep: str, context: ChangeContext) -> Hand:
    """Staff record one team's version of a deal the teams entered differently, saying why."""
    actor = context.actor

    def edit(table: Table, correction: bool) -> Change:
        if not actor.is_staff:
            raise ServiceError("Only the tournament director or scorekeeper can settle the teams' entries.")
        if not context.reason.strip():
            raise ServiceError("Say why this version stands.", field="reason")
        if keep not in Pair.values():
            raise ServiceError("Choose the team whose entry stands.", field="keep")
        chosen = table.submissions.filter(pair=keep).order_by("sequence").first()
        if chosen is None:
            raise ServiceError(f"{Pair(keep).label} have no entry waiting at this table.", field="keep")
        hand = _record(table, chosen, actor)
        return Change(
            LogEntry.Action.ENTRIES_SETTLED,
            lambda: f"Hand {hand.hand_number}: staff kept {Pair(keep).label}'s entry, {chosen.words}",
            result=hand,
        )

    return sheet_write(table, context=context, edit=edit)
