"""Who may open which page: anonymous users go to the login page, other staff get 403."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from tournament.roles import is_director, is_scorekeeper


def director_required(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user):
            raise PermissionDenied("Only a tournament director can do this.")
        return view(request, *args, **kwargs)

    return wrapper


def scorekeeper_required(view):
    """Tournament scorekeepers and directors: watching rounds, fixing sheets, penalties."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_scorekeeper(request.user):
            raise PermissionDenied("Only tournament staff can do this.")
        return view(request, *args, **kwargs)

    return wrapper
