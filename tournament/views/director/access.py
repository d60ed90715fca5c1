"""Staff logins: where one lands, the locked ones and unlocking them; paused team codes and lifting them."""

from functools import partial

from django.contrib.auth.views import LoginView
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournament.roles import is_scorekeeper
from tournament.selectors.access import locked_logins
from tournament.services import throttle
from tournament.services.access import login_unlock
from tournament.typed import whole_number
from tournament.views.common import form_action, request_actor
from tournament.views.permissions import director_required, scorekeeper_required


class StaffLoginView(LoginView):
    """Staff come to run the event: without a page asked for, they land on Manage, not the public home."""

    redirect_authenticated_user = True

    def get_default_redirect_url(self):
        if is_scorekeeper(self.request.user):
            return reverse("director:dashboard")
        return super().get_default_redirect_url()


@director_required
def lockouts(request):
    return render(request, "director/lockouts.html", {"lockouts": locked_logins()})


@require_POST
@director_required
def lockout_remove(request):
    ip_address = request.POST.get("ip_address", "")
    username = request.POST.get("username", "")
    unlock = partial(login_unlock, ip_address=ip_address, username=username)
    done = f"Unlocked {ip_address or username}: it may log in again."
    return form_action(request, None, unlock, done=done, to="director:lockouts")


@scorekeeper_required
def code_pauses(request):
    return render(request, "director/code_pauses.html", {"pauses": throttle.code_pauses()})


@require_POST
@scorekeeper_required
def code_pause_lift(request):
    pause_id = whole_number(request.POST.get("pause", ""), digits=9) or 0
    lift = partial(throttle.code_pause_lift, pause_id=pause_id, actor=request_actor(request))

    def lifted(pause) -> str:
        return f"Lifted: team codes from {pause.address} are accepted again ({pause.where})."

    return form_action(request, None, lift, done=lifted, to="director:code_pauses")
