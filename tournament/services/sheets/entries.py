"""What a scorekeeper enters for a deal, how it is checked by the engine and written onto a stored hand."""

import re
from dataclasses import dataclass, replace
from typing import cast

from django.contrib.auth.models import User

import scoring
from scoring import BidKind, Direction, Pair, PenaltyKind, RedealReason, Seat, Suit
from tournament.errors import ServiceError, engine_refusal
from tournament.models import Hand, HandSubmission, Penalty, Table
from tournament.models.sheets import DEAL_ENTRY

ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


@dataclass(frozen=True)
class HandEntry:
    """A played hand as the scorekeeper enters it.

    The trump suit (or no-trump direction) is optional: scoring never needs it. ``out_of_turn`` marks a hand
    its dealer dealt out of turn, caught only once bidding had begun: it stands (the rules, Deal). Each field
    but that mark is a ``DealEntry`` field of the same name; a new one goes last, with a default, as scripts
    give the first ones by position.
    """

    dealer: str
    bidder: str
    level: int
    kind: str
    books: int
    suit: str = ""
    direction: str = ""
    out_of_turn: bool = False


def hand_snapshot(hand: Hand, *, out_of_turn: bool | None = None) -> dict:
    """A hand's entries for the history; ``out_of_turn`` when known, else read from its penalties."""
    if out_of_turn is None:
        out_of_turn = hand.pk is not None and any(
            p.kind == PenaltyKind.DEAL_OUT_OF_TURN and not p.before_bidding for p in hand.penalties.all()
        )
    entered = {name: getattr(hand, name) for name in DEAL_ENTRY}
    return {"hand_number": hand.hand_number, **entered, "misdeal": hand.misdeal, "out_of_turn": out_of_turn}


def checked_entry(table: Table, entry: HandEntry) -> HandEntry:
    """The entry as the engine reads it, or a refusal beside the field it concerns."""
    rules = table.round.tournament.rules
    for field, value in (("dealer", entry.dealer), ("bidder", entry.bidder)):
        if value not in Seat.values():
            raise ServiceError("Choose a seat.", field=field)
    with engine_refusal():
        # The engine reads the entry's words itself (``Bid``, ``Contract``), refusing what is none of its values.
        bid = scoring.Bid(entry.level, cast(BidKind, entry.kind))
        rules.check_bid(bid)
        rules.check_books(entry.books)
        contract = scoring.Contract(bid, cast(Suit, entry.suit or None), cast(Direction, entry.direction or None))
    return replace(entry, kind=str(bid.kind), direction=str(contract.direction or ""))


def out_of_turn_mark(entry: HandEntry) -> tuple[scoring.Penalty, ...]:
    """The penalty that marks a hand dealt out of turn after bidding began: by the dealer's team, no points."""
    if not entry.out_of_turn:
        return ()
    return (scoring.Penalty(PenaltyKind.DEAL_OUT_OF_TURN, Seat(entry.dealer).pair),)


def apply_entry(record: Hand | HandSubmission, entry: HandEntry) -> None:
    """Write an entry's seats, bid, trump and books (``DEAL_ENTRY``) onto a played hand or a team's submission."""
    for name in DEAL_ENTRY:
        setattr(record, name, getattr(entry, name))


def entry_of(record: Hand | HandSubmission) -> HandEntry:
    """A played hand's or a team's submission's entry (``DEAL_ENTRY``), as the services take it."""
    assert record.level is not None and record.books is not None, "a played hand has a bid and books"
    return HandEntry(**{name: getattr(record, name) for name in DEAL_ENTRY})


PENALTY_FIELDS = (*Penalty.ENTRY_FIELDS, "created_by_id")


def hand_record_fields(hand: Hand) -> dict:
    """What was entered of a deal, to put it back as it was (see removal_undo)."""
    return {name: getattr(hand, name) for name in Hand.ENTRY_FIELDS} | {"accepted": hand.accepted_at is not None}


def penalty_fields(penalty: Penalty) -> dict:
    return {name: getattr(penalty, name) for name in PENALTY_FIELDS}


def redeal_checked(
    dealer: str, reason: str, team: str, *, fields: tuple[str, str, str] = ("dealer", "reason", "team")
) -> RedealReason:
    """Why the cards are dealt again, refused beside its field (``fields`` names the dealer's, the reason's and
    the team's) when the dealer, the reason or the team it names is missing."""
    dealer_field, reason_field, team_field = fields
    if dealer not in Seat.values():
        raise ServiceError("Choose the seat that dealt.", field=dealer_field)
    if reason not in RedealReason.values():
        raise ServiceError("Choose why the cards are dealt again.", field=reason_field)
    why = RedealReason(reason)
    if why.names_a_team and team not in Pair.values():
        raise ServiceError("Choose the team that was out of turn.", field=team_field)
    return why


def redeal_penalty_create(hand: Hand, why: RedealReason, team: str, *, author: User | None = None) -> Penalty | None:
    """The penalty a re-deal implies (a deal or bid out of turn names a team), stored on the re-deal."""
    penalty = why.penalty(Pair(team)) if why.names_a_team else None
    if penalty is None:
        return None
    return Penalty.objects.create(
        table=hand.table,
        hand=hand,
        kind=penalty.kind,
        team=penalty.team,
        choice=penalty.choice or "",
        before_bidding=penalty.before_bidding,
        created_by=author,
    )


def first_dealer_from(table: Table, dealer: str) -> None:
    """Until someone names the first dealer, the first deal's dealer is it."""
    if not table.first_dealer:
        table.first_dealer = dealer
        table.save(update_fields=["first_dealer"])
