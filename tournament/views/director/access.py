"""Locked staff logins, and unlocking them."""

from django.shortcuts import render
from django.views.decorators.http import require_POST

from tournament.selectors.access import locked_logins
from tournament.services.access import login_unlock
from tournament.views.common import run_and_redirect
from tournament.views.permissions import director_required


@director_required
def lockouts(request):
    return render(request, "director/lockouts.html", {"lockouts": locked_logins()})


@require_POST
@director_required
def lockout_remove(request):
    ip_address = request.POST.get("ip_address", "")
    username = request.POST.get("username", "")
    return run_and_redirect(
        request,
        lambda: login_unlock(ip_address=ip_address, username=username),
        f"Unlocked {ip_address or username}: it may log in again.",
        "director:lockouts",
    )
