"""The service worker: the table page and its assets load from the phone's cache when the server cannot
be reached. Served from the site's root so it may look after /table/ and /card/ pages."""

import hashlib
from pathlib import Path

from django.contrib.staticfiles import finders
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control

# Every static file the table page names: a page first opened online reloads offline with all of them.
OFFLINE_ASSETS = (
    "css/app.css",
    "css/clock.css",
    "css/print.css",
    "css/access.css",
    "js/table.js",
    "js/clock.js",
    "django_htmx/htmx-2.min.js",
    "img/favicon.ico",
    "img/favicon.svg",
)
# A table page the phone may keep for offline use carries this header; any other answer for its address
# (signed, round closed, gone) makes the phone drop the copy it holds.
KEEP_HEADER = "Offline-Copy"
# The service worker's own requests for a kept page, made in the background: they are not the scorekeeper
# looking, so the messages waiting for their next page (a refusal, a save) are left for it.
REFRESH_HEADER = "Offline-Refresh"


def offline_refresh(request) -> bool:
    return request.headers.get(REFRESH_HEADER) == "1"


def offline_copy(response, *, keep: bool):
    """Say whether a table page may stay on the phone: only while its sheet is still being filled in."""
    if keep:
        response[KEEP_HEADER] = "keep"
    return response


def _assets_fingerprint() -> str:
    """Changes whenever an asset changes, so phones drop the old copies (also where their names do not)."""
    digest = hashlib.sha256()
    for name in OFFLINE_ASSETS:
        found = finders.find(name)
        if found:
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:12]


@cache_control(no_cache=True)
def service_worker(request):
    context = {
        "assets_cache": f"bidwhist-assets-{_assets_fingerprint()}",
        "assets": [static(name) for name in OFFLINE_ASSETS],
        "keep_header": KEEP_HEADER,
        "refresh_header": REFRESH_HEADER,
        "display_url": reverse("display_stylesheet"),
    }
    return render(request, "offline/sw.js", context, content_type="text/javascript")
