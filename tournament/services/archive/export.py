"""Writing an event as the archive's plain data (docs/archive.md)."""

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Prefetch
from pydantic import BaseModel

from scoring import Pair
from tournament.models import (
    Event,
    Hand,
    HandSubmission,
    LogEntry,
    Penalty,
    Round,
    Signature,
    Substitute,
    Table,
    Tournament,
)
from tournament.selectors.placings import tournament_placings
from tournament.services.archive.money import money_export
from tournament.services.archive.persons import persons_export, series_export
from tournament.services.archive.schema import FORMAT, VERSION, HandData, PenaltyData, SubmissionData


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value else None


def _fields(record: Hand | Penalty | HandSubmission, part: type[BaseModel]) -> dict[str, Any]:
    """What was entered of a hand, a penalty or a team's entry (its model's ``ENTRY_FIELDS``), each by the name its
    ``part`` of the archive reads it by."""
    return {part.model_fields[name].alias or name: getattr(record, name) for name in record.ENTRY_FIELDS}


def _penalty(penalty: Penalty, users: dict) -> dict:
    return {
        **_fields(penalty, PenaltyData),
        "created_by": users.get(penalty.created_by_id),
        "created_at": _time(penalty.created_at),
    }


def log_entry_data(entry: LogEntry, team_numbers: dict[int, int]) -> dict:
    """A log entry; a table's entries omit where they are (the table holds them)."""
    data = {
        "action": entry.action,
        "summary": entry.summary,
        "reason": entry.reason,
        "before": entry.before,
        "after": entry.after,
        "correction": entry.correction,
        "actor": entry.actor,
        "actor_name": entry.actor_name,
        "device": entry.device,
        "created_at": _time(entry.created_at),
    }
    if entry.table_id is not None:
        return {"version": entry.version, **data}
    return {"round": entry.round_number, "team": team_numbers.get(entry.team_id or 0), **data}


def event_export(event: Event) -> dict[str, Any]:
    """Everything of one event as plain data."""
    users = dict(get_user_model().objects.values_list("pk", "username"))
    players = sorted(event.players.select_related("person"), key=lambda p: (p.name, p.city, p.phone, p.pk))
    player_ids = {player.pk: index for index, player in enumerate(players, start=1)}
    persons, person_ids = persons_export(players)
    tournaments = list(event.tournaments.order_by("created_at", "pk"))
    return {
        "format": FORMAT,
        "version": VERSION,
        "event": {
            "name": event.name,
            "slug": event.slug,
            "venue": event.venue,
            "starts_on": event.starts_on.isoformat(),
            "ends_on": event.ends_on.isoformat(),
            "created_at": _time(event.created_at),
        },
        "persons": persons,
        "players": [
            {
                "id": player_ids[p.pk],
                "name": p.name,
                "city": p.city,
                "phone": p.phone,
                "person": person_ids.get(p.person_id or 0),
            }
            for p in players
        ],
        "log": [
            log_entry_data(entry, {})
            # Loading the archive into this database is this database's history, not the event's.
            for entry in event.log.filter(tournament__isnull=True)
            .exclude(action=LogEntry.Action.EVENT_IMPORTED)
            .order_by("pk")
        ],
        "tournaments": [_tournament(tournament, users, player_ids) for tournament in tournaments],
        "series": series_export(event, tournaments),
    }


def _placings(tournament: Tournament) -> list[dict] | None:
    """The final placings as the archive keeps them (the loader checks them against the sheets)."""
    placings = tournament_placings(tournament)
    if placings is None:
        return None
    return [{"place": p.place.number, "shared": p.place.shared, "team": p.team.number} for p in placings]


def _tournament(tournament: Tournament, users: dict, player_ids: dict) -> dict:
    teams = list(tournament.teams.prefetch_related("memberships").order_by("number"))
    team_numbers = {team.pk: team.number for team in teams}
    playoff_codes = dict(tournament.playoff_matches.filter(table__isnull=False).values_list("table_id", "code"))
    return {
        "name": tournament.name,
        "slug": tournament.slug,
        "rules": tournament.rules.to_dict(),
        "qualifying_rounds": tournament.qualifying_rounds,
        "status": tournament.status,
        "paper_size": tournament.paper_size,
        "standings_order": tournament.standings_order,
        "avoid_same_city_rounds": tournament.avoid_same_city_rounds,
        "sheet_mode": tournament.sheet_mode,
        "created_at": _time(tournament.created_at),
        "playoff": {
            "third_place": tournament.playoff_third_place,
            "double": tournament.playoff_double,
            "published_at": _time(tournament.playoff_published_at),
            "seeds": [
                {"seed": s.seed, "team": team_numbers[s.team_id]} for s in tournament.playoff_seeds.order_by("seed")
            ],
            "placings": _placings(tournament),
        },
        "money": money_export(tournament),
        "teams": [
            {
                "number": team.number,
                "name": team.name,
                "city": team.city,
                "players": [player_ids[m.player_id] for m in sorted(team.memberships.all(), key=lambda m: m.position)],
                "fee_paid": team.fee_paid,
                "side_pot": team.side_pot,
                "checked_in": team.checked_in,
                "withdrawn": team.withdrawn,
                "code": team.code,
                "created_at": _time(team.created_at),
            }
            for team in teams
        ],
        "announcements": [
            {"text": a.text, "created_at": _time(a.created_at), "expires_at": _time(a.expires_at)}
            for a in tournament.announcements.order_by("created_at", "pk")
        ],
        "substitutes": [
            {
                "team": team_numbers[sub.team_id],
                "round": sub.round.number,
                "replaces": player_ids[sub.replaces_id],
                "name": sub.name,
                "reason": sub.reason,
            }
            for sub in Substitute.objects.filter(round__tournament=tournament)
            .select_related("round")
            .order_by("round__number", "team__number")
        ],
        "sit_outs": [
            {"team": team_numbers[sit_out.team_id], "round": sit_out.round_number, "reason": sit_out.reason}
            for sit_out in tournament.sit_outs.order_by("round_number", "team__number")
        ],
        "log": [
            log_entry_data(entry, team_numbers) for entry in tournament.log.filter(table__isnull=True).order_by("pk")
        ],
        "rounds": [
            _round(round_, users, player_ids, team_numbers, playoff_codes)
            for round_ in tournament.rounds.order_by("number").prefetch_related("seatings", _tables())
        ],
    }


def _tables() -> Prefetch:
    """Every table of the rounds with all its sheet holds, in a fixed number of queries for any field."""
    return Prefetch(
        "tables",
        queryset=Table.objects.order_by("number").prefetch_related(
            Prefetch(
                "hands",
                queryset=Hand.objects.order_by("sequence").prefetch_related(
                    Prefetch("penalties", queryset=Penalty.objects.order_by("created_at", "pk"))
                ),
            ),
            Prefetch(
                "penalties",
                queryset=Penalty.objects.filter(hand__isnull=True).order_by("created_at", "pk"),
                to_attr="round_rulings",
            ),
            Prefetch("signatures", queryset=Signature.objects.order_by("pair")),
            Prefetch("submissions", queryset=HandSubmission.objects.order_by("sequence", "pair")),
            Prefetch("changes", queryset=LogEntry.objects.order_by("version", "pk")),
        ),
    )


def _round(
    round_: Round,
    users: dict[int, str],
    player_ids: dict[int, int],
    team_numbers: dict[int, int],
    playoff_codes: dict[int, str],
) -> dict[str, Any]:
    seatings = list(round_.seatings.all())
    by_table: dict[int, dict[str, int]] = {}
    for seating in seatings:
        if seating.table_id:
            by_table.setdefault(seating.table_id, {})[seating.pair] = team_numbers[seating.team_id]
    tables = []
    for table in round_.tables.all():
        hands = [
            {
                **_fields(hand, HandData),
                "accepted_at": _time(hand.accepted_at),
                "created_at": _time(hand.created_at),
                "penalties": [_penalty(p, users) for p in hand.penalties.all()],
            }
            for hand in table.hands.all()
        ]
        tables.append(
            {
                "number": table.number,
                "north_south": by_table.get(table.pk, {}).get(Pair.NORTH_SOUTH),
                "east_west": by_table.get(table.pk, {}).get(Pair.EAST_WEST),
                "sitting_pair": table.sitting_pair,
                "secret": table.secret,
                "version": table.version,
                "first_dealer": table.first_dealer,
                "locked_at": _time(table.locked_at),
                "disputed_at": _time(table.disputed_at),
                "time_called_at": _time(table.time_called_at),
                "forfeit": table.forfeit,
                "dispute_note": table.dispute_note,
                "playoff_match": playoff_codes.get(table.pk),
                "hands": hands,
                "rulings": [_penalty(p, users) for p in table.round_rulings],  # type: ignore[attr-defined]  # Prefetch to_attr
                "signatures": [
                    {
                        "pair": s.pair,
                        "player": player_ids[s.player_id] if s.player_id else None,
                        "substitute": s.substitute_id is not None,
                        "device": s.device,
                        "signed_at": _time(s.signed_at),
                    }
                    for s in table.signatures.all()
                ],
                "submissions": [
                    {
                        "pair": sub.pair,
                        "sequence": sub.sequence,
                        **_fields(sub, SubmissionData),
                        "device": sub.device,
                        "created_at": _time(sub.created_at),
                    }
                    for sub in table.submissions.all()
                ],
                "changes": [log_entry_data(entry, team_numbers) for entry in table.changes.all()],
            }
        )
    return {
        "number": round_.number,
        "kind": round_.kind,
        "label": round_.label,
        "status": round_.status,
        "method": round_.method,
        "seed": round_.seed,
        "created_at": _time(round_.created_at),
        "published_at": _time(round_.published_at),
        "clock_started_at": _time(round_.clock_started_at),
        "byes": sorted(team_numbers[s.team_id] for s in seatings if s.table_id is None),
        "tables": tables,
    }
