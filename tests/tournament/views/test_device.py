"""A phone named as people name it, from the user agent its browser sends."""

import pytest
from django.test import RequestFactory

from tournament.views.device import COOKIE, device_of

AGENTS = {
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile "
    "Safari/537.36": "Android phone",
    "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0": "Android phone",
    "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 "
    "Safari/537.36": "Android tablet",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 "
    "Mobile/15E148 Safari/604.1": "iPhone",
    "Mozilla/5.0 (iPad; CPU OS 16_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 "
    "Mobile/15E148 Safari/604.1": "iPad",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 "
    "Safari/537.36": "Windows computer",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 "
    "Safari/605.1.15": "Mac",
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 "
    "Safari/537.36": "Chromebook",
    "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0": "Linux computer",
}


@pytest.mark.parametrize(("agent", "named"), AGENTS.items(), ids=AGENTS.values())
def test_a_phone_is_named_as_people_name_it(agent, named):
    request = RequestFactory().get("/", HTTP_USER_AGENT=agent)
    request.COOKIES[COOKIE] = "3f9c2a"
    assert device_of(request) == f"phone 3f9c2a ({named})"


def test_an_agent_naming_no_device_leaves_the_phone_unnamed():
    request = RequestFactory().get("/", HTTP_USER_AGENT="curl/8.5.0")
    assert device_of(request) == "a phone"
