"""Slowing down guesses: after a few wrong team codes at a table or from an address, a pause."""

import datetime

from django.db import transaction
from django.utils import timezone

from tournament.errors import ServiceError
from tournament.models import Throttle

WRONG_CODES_ALLOWED = 5
PAUSE = datetime.timedelta(minutes=10)


def throttle_check(key: str) -> None:
    """Refuse while ``key`` is paused after too many wrong codes."""
    throttle = Throttle.objects.filter(key=key, blocked_until__gt=timezone.now()).first()
    if throttle is not None:
        minutes = max(1, round((throttle.blocked_until - timezone.now()).total_seconds() / 60))
        raise ServiceError(
            f"Too many wrong team codes here: try again in {minutes} minute{'s' if minutes != 1 else ''}, "
            "or ask the tournament director."
        )


def throttle_fail(key: str) -> None:
    """Count a wrong code; the fifth pauses ``key``. Runs in its own transaction so a refusal keeps it."""
    with transaction.atomic():
        throttle, _ = Throttle.objects.select_for_update().get_or_create(key=key)
        throttle.failures += 1
        if throttle.failures >= WRONG_CODES_ALLOWED:
            throttle.failures = 0
            throttle.blocked_until = timezone.now() + PAUSE
        throttle.save()


def throttle_clear(key: str) -> None:
    Throttle.objects.filter(key=key).delete()
