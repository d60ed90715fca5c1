"""Which phone did something: a random name the app gives each browser, kept in a long-lived cookie."""

import re
import secrets

COOKIE = "device"
_PLATFORM = re.compile(r"\(([^;)]+)")


def device_of(request) -> str:
    """ "phone 3f9c2a (iPhone)": the browser's name here and the platform its user agent names."""
    name = request.COOKIES.get(COOKIE, "")
    if not re.fullmatch(r"[0-9a-f]{6}", name):
        name = getattr(request, "new_device", "")
    platform = _PLATFORM.search(request.META.get("HTTP_USER_AGENT", ""))
    label = f"phone {name}" if name else "a phone"
    return f"{label} ({platform.group(1).strip()[:40]})" if platform else label


class DeviceMiddleware:
    """Names a browser the first time it opens a table's link or a team's page."""

    PATHS = ("/table/", "/my/")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        fresh = request.path.startswith(self.PATHS) and not re.fullmatch(
            r"[0-9a-f]{6}", request.COOKIES.get(COOKIE, "")
        )
        if fresh:
            request.new_device = secrets.token_hex(3)
        response = self.get_response(request)
        if fresh:
            response.set_cookie(
                COOKIE,
                request.new_device,
                max_age=60 * 60 * 24 * 365,
                httponly=True,
                samesite="Lax",
                secure=request.is_secure(),
            )
        return response
