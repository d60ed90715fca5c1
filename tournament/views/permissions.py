"""Who may open which page: anonymous users go to the login page, other staff get 403."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from tournament.roles import is_director, is_scorekeeper


def _role_required(allowed, refusal: str):
    """A view decorator letting in the signed-in users ``allowed`` accepts; the others are refused with ``refusal``."""

    def decorator(view):
        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not allowed(request.user):
                raise PermissionDenied(refusal)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


director_required = _role_required(is_director, "Only a tournament director can do this.")

# Tournament scorekeepers and directors: watching rounds, fixing sheets, penalties.
scorekeeper_required = _role_required(is_scorekeeper, "Only tournament staff can do this.")
