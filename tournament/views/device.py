"""Which phone did something: a random name the app gives each browser, kept in a long-lived cookie."""

import re
import secrets

COOKIE = "device"
# What people call the device a user agent comes from, tried in this order: an Android phone's agent also says
# "Linux", an iPhone's "Mac OS X", and some Windows phones' "Android".
PLATFORMS = (
    (re.compile(r"Windows Phone"), "Windows phone"),
    (re.compile(r"iPhone|iPod"), "iPhone"),
    (re.compile(r"iPad"), "iPad"),
    (re.compile(r"Android.*Mobile"), "Android phone"),
    (re.compile(r"Android"), "Android tablet"),
    (re.compile(r"CrOS"), "Chromebook"),
    (re.compile(r"Windows"), "Windows computer"),
    (re.compile(r"Macintosh|Mac OS X"), "Mac"),
    (re.compile(r"Linux"), "Linux computer"),
)


def platform_named(user_agent: str) -> str:
    """The device as people name it ("iPhone", "Android phone", "Windows computer"), or "" for an agent none of
    them matches."""
    return next((name for pattern, name in PLATFORMS if pattern.search(user_agent)), "")


def device_of(request) -> str:
    """ "phone 3f9c2a (Android phone)": the browser's name here and the device its user agent says it runs on."""
    name = request.COOKIES.get(COOKIE, "")
    if not re.fullmatch(r"[0-9a-f]{6}", name):
        name = getattr(request, "new_device", "")
    platform = platform_named(request.META.get("HTTP_USER_AGENT", ""))
    label = f"phone {name}" if name else "a phone"
    return f"{label} ({platform})" if platform else label


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
