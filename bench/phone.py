"""A table's phone as the benchmarks drive it through gunicorn: it opens its sheet (the page gives the session's
cookies, the form's token and the sheet's version), then posts hands to the queue's address."""

import http.client
import re


def phone_open(port: int, secret: str, *, timeout: float) -> tuple[http.client.HTTPConnection, dict, str, int]:
    """The table's sheet opened: the phone's connection, the headers its posts carry, the form's token and the
    sheet's version."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("GET", f"/table/{secret}/")
    page = connection.getresponse()
    html = page.read().decode()
    cookie = "; ".join(value.split(";")[0] for key, value in page.getheaders() if key.lower() == "set-cookie")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    version = int(re.search(r'name="[a-z-]*version" value="(\d+)"', html).group(1))
    headers = {
        "Cookie": cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        "Referer": f"http://127.0.0.1:{port}/",
    }
    return connection, headers, token, version


def hand_fields(token: str, version: int, dealer: str, entry_id: str) -> dict:
    """A hand as the phone's queue posts it: the dealer wins the bid, 3 high, and makes it with 9 books."""
    return {
        "csrfmiddlewaretoken": token,
        "hand-version": version,
        "hand-dealer": dealer,
        "hand-bidder": dealer,
        "hand-bid": "3:high",
        "hand-books": "9",
        "entry_id": entry_id,
    }
