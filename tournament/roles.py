"""Staff roles: a director runs the event; a tournament scorekeeper fixes sheets and applies penalties."""

from django.contrib.auth.models import Group

DIRECTORS = "Directors"
SCOREKEEPERS = "Scorekeepers"


def role_groups_ensure() -> dict[str, Group]:
    return {name: Group.objects.get_or_create(name=name)[0] for name in (DIRECTORS, SCOREKEEPERS)}


def _in_group(user, name: str) -> bool:
    return any(group.name == name for group in user.groups.all())


def is_director(user) -> bool:
    """Directors change the event's setup; superusers count as directors."""
    if not (user.is_authenticated and user.is_active and user.is_staff):
        return False
    return user.is_superuser or _in_group(user, DIRECTORS)


def is_scorekeeper(user) -> bool:
    """Tournament scorekeepers (and directors) may correct sheets and apply penalties."""
    if not (user.is_authenticated and user.is_active and user.is_staff):
        return False
    return is_director(user) or _in_group(user, SCOREKEEPERS)
