"""Staff logins: unlocking an address or an account that django-axes locked after failed passwords."""

import ipaddress

from axes.utils import reset

from tournament.errors import ServiceError


def login_unlock(*, ip_address: str = "", username: str = "") -> int:
    """Forget the failed logins of an address or of an account, so it may log in again at once."""
    if not ip_address and not username:
        raise ServiceError("Say which address or account to unlock.")
    if "\x00" in username or len(username) > 150:
        raise ServiceError("That is not an account's name.")
    if ip_address:
        try:
            ipaddress.ip_address(ip_address)
        except ValueError:
            raise ServiceError(f"{ip_address[:50]!r} is not a network address.") from None
    return reset(ip=ip_address or None, username=username or None)
