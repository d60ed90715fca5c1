"""A table's phone as the benchmarks drive it through gunicorn: it opens its sheet (the page gives the session's
cookies, the form's token and the sheet's version), then posts hands to the queue's address."""

import http.client
import re
from urllib.parse import urlencode


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


HIDDEN = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)"')


class FormPhone:
    """A table's phone without JavaScript, as a scorekeeper with scripts off uses the sheet: the hand form posted,
    the check page read and its Save tapped, the sheet opened again after the save (the next form's tokens and
    version come from it). Cookies are kept as a browser keeps them."""

    def __init__(self, port: int, secret: str, *, timeout: float):
        self.port, self.secret, self.timeout = port, secret, timeout
        self.cookies: dict[str, str] = {}
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.page = self._send("GET", f"/table/{secret}/")[2]
        if 'id="hand-form"' not in self.page:
            # The round's first question: who deals first (North here); the hand form follows.
            first = self._form("first-dealer-form") | {"first-seat": "N"}
            self._send("POST", f"/table/{secret}/first-dealer/", first)
            self.page = self._send("GET", f"/table/{secret}/")[2]

    def _form(self, form_id: str) -> dict[str, str]:
        """The hidden fields (the tokens and the sheet's version) of the sheet's form ``form_id``."""
        form = self.page[self.page.index(f'id="{form_id}"') :]
        return dict(HIDDEN.findall(form[: form.index("</form>")]))

    def _send(self, method: str, path: str, fields: dict | None = None) -> tuple[int, str, str]:
        """One request on the phone's connection: its status, its Location and its page."""
        headers = {"Cookie": "; ".join(f"{key}={value}" for key, value in self.cookies.items())}
        body = None
        if fields is not None:
            headers |= {
                "Content-Type": "application/x-www-form-urlencoded",
                "Referer": f"http://127.0.0.1:{self.port}/",
            }
            body = urlencode(fields)
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        page = response.read().decode()
        for key, value in response.getheaders():
            if key.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";")[0]
        return response.status, (response.getheader("Location") or "").split("#")[0], page

    def save(self, dealer: str) -> str:
        """Enter a hand (the dealer wins the bid, 3 high, 9 books) and confirm it: the entry's id, once the sheet
        is open again. ``RuntimeError`` when a step answers otherwise than the site does for a good entry."""
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        fields = self._form("hand-form")
        fields |= {"hand-dealer": dealer, "hand-bidder": dealer, "hand-bid": "3:high", "hand-books": "9"}
        status, check, _ = self._send("POST", f"/table/{self.secret}/hands/", fields)
        if status != 302 or not check.endswith("/hands/check/"):
            raise RuntimeError(f"hand form: {status} to {check!r}")
        status, _, page = self._send("GET", check)
        confirm = dict(HIDDEN.findall(page[page.index(f'action="/table/{self.secret}/hands/"') :]))
        status, sheet, _ = self._send("POST", f"/table/{self.secret}/hands/", confirm)
        if status != 302 or sheet != f"/table/{self.secret}/":
            raise RuntimeError(f"check page's Save: {status} to {sheet!r}")
        status, _, self.page = self._send("GET", sheet)
        self.connection.close()
        return confirm["entry_id"]
