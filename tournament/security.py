"""What the settings plug in for safety: the client's address behind a proxy, and pages never cached."""

import logging

from django.conf import settings
from django.shortcuts import render

# Pages with a private link or a staff member's view: a shared phone or a proxy must not keep a copy.
PRIVATE_PREFIXES = ("/table/", "/card/", "/my/", "/manage/", "/login/", "/logout/", "/backoffice/")


def login_username(request, credentials) -> str:
    """The username a login attempt names, as django-axes records it: text a database can store."""
    source = credentials if credentials else request.POST
    username = (source or {}).get("username") or ""
    return username.replace("\x00", "")[:150]


def client_ip(request) -> str | None:
    """The address a login attempt comes from: the socket's, or behind a trusted proxy the last one it added."""
    if settings.TRUST_X_FORWARDED_FOR:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if forwarded and forwarded[-1]:
            return forwarded[-1]
    return request.META.get("REMOTE_ADDR")


class NoStoreMiddleware:
    """``Cache-Control: no-store`` on the table link's and the staff's pages, except a page its view marked
    ``private`` with an ETag (``pagecache.private``): the phone keeps it to ask whether it changed, a proxy does
    not."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith(PRIVATE_PREFIXES) and not (
            response.has_header("ETag") and response.get("Cache-Control", "").startswith("private")
        ):
            response["Cache-Control"] = "no-store"
        return response


def locked_out(request, original_response=None, credentials=None):
    """django-axes's refusal of a locked-out login, said plainly (HTTP 429)."""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
    }
    return render(request, "registration/locked_out.html", context, status=429)


class RefusalsWithoutTraceback(logging.Filter):
    """A refused request (403) is logged as its one line: its traceback is the permission check doing its work,
    and a day's worth of them buried the real errors in gunicorn's log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = record.exc_text = None
        return True
