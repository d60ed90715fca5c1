"""Which addresses and accounts are locked out of the staff login now."""

from dataclasses import dataclass

from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Max, Q, Sum
from django.utils import timezone


@dataclass(frozen=True)
class Lockout:
    kind: str
    value: str
    failures: int
    last_try: object


def locked_logins() -> list[Lockout]:
    """Addresses and usernames with enough recent failures to be refused, most recent first."""
    recent = AccessAttempt.objects.filter(attempt_time__gte=timezone.now() - settings.AXES_COOLOFF_TIME)
    locked = []
    named = {"ip_address": Q(ip_address__isnull=False), "username": Q(username__isnull=False) & ~Q(username="")}
    for kind, field in (("address", "ip_address"), ("account", "username")):
        rows = (
            recent.filter(named[field])
            .values(field)
            .annotate(failures=Sum("failures_since_start"), last_try=Max("attempt_time"))
            .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
        )
        locked += [Lockout(kind, row[field], row["failures"], row["last_try"]) for row in rows]
    return sorted(locked, key=lambda lockout: lockout.last_try, reverse=True)
