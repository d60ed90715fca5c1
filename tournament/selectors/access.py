"""Which addresses are locked out of the staff login now, and which accounts were tried from each."""

from dataclasses import dataclass
from datetime import datetime

from axes.models import AccessAttempt
from django.conf import settings
from django.utils import timezone


@dataclass(frozen=True)
class Lockout:
    address: str
    failures: int
    last_try: datetime
    accounts: tuple[str, ...]


def locked_logins() -> list[Lockout]:
    """Addresses with enough recent failures to be refused (for every account), most recent first."""
    recent = AccessAttempt.objects.filter(
        attempt_time__gte=timezone.now() - settings.AXES_COOLOFF_TIME, ip_address__isnull=False
    ).values_list("ip_address", "username", "failures_since_start", "attempt_time")
    failures: dict[str, int] = {}
    last_try: dict[str, datetime] = {}
    accounts: dict[str, set[str]] = {}
    for address, username, count, attempt_time in recent:
        failures[address] = failures.get(address, 0) + count
        last_try[address] = max(last_try.get(address, attempt_time), attempt_time)
        if username:
            accounts.setdefault(address, set()).add(username)
    locked = [
        Lockout(address, count, last_try[address], tuple(sorted(accounts.get(address, ()))))
        for address, count in failures.items()
        if count >= settings.AXES_FAILURE_LIMIT
    ]
    return sorted(locked, key=lambda lockout: lockout.last_try, reverse=True)
