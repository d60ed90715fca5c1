"""The service worker: the table page and its assets load from the phone's cache when the server cannot
be reached. Served from the site's root so it may look after /table/ and /card/ pages."""

import hashlib
from pathlib import Path

from django.contrib.staticfiles import finders
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control

OFFLINE_ASSETS = ("css/app.css", "js/table.js", "django_htmx/htmx-2.min.js", "img/favicon.svg")


def _assets_fingerprint() -> str:
    """Changes whenever an asset changes, so phones drop the old copies."""
    digest = hashlib.sha256()
    for name in OFFLINE_ASSETS:
        found = finders.find(name)
        if found:
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:12]


@cache_control(no_cache=True)
def service_worker(request):
    context = {
        "cache_name": f"bidwhist-{_assets_fingerprint()}",
        "assets": [static(name) for name in OFFLINE_ASSETS],
        "static_prefix": static(""),
    }
    return render(request, "offline/sw.js", context, content_type="text/javascript")
