"""Who may open which page: anonymous users go to the login page, other staff get 403."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from tournament.roles import is_director


def director_required(view):
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_director(request.user):
            raise PermissionDenied("Only a tournament director can do this.")
        return view(request, *args, **kwargs)

    return wrapper
