"""Browser tests: Playwright driving Debian's Chromium against the live test server.

Without Chromium they are skipped with the reason; under CI=true a missing browser fails the run.
"""

import os
import shutil
import time

import pytest
from django.core.management.base import CommandError
from django.test import TransactionTestCase

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PHONE = {"width": 390, "height": 844}

# Playwright's sync API runs an event loop in the test's thread; the test's own ORM calls are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def wait_until(page, expression: str, timeout: float = 20.0) -> None:
    """Wait until ``expression`` (not a state of the page's elements, which ``expect`` waits for) is true in the
    page. Playwright's ``wait_for_function`` polls with code the app's Content Security Policy refuses (no
    'unsafe-eval'), so it failed whenever its first check was false; ``page.evaluate`` is not refused."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.05)


def in_view(page, target, *, height: int = PHONE["height"], enough: float = 200, timeout: float = 5.0) -> bool:
    """Whether ``target`` (a selector or a locator) comes to lie on screen: its top at or below the screen's top
    and its first ``enough`` pixels above the bottom. Polled for a while, because the browser scrolls to a
    fragment, and the page's script scrolls, only after the element itself is drawn."""
    locator = page.locator(target).first if isinstance(target, str) else target
    deadline = time.monotonic() + timeout
    while True:
        box = locator.bounding_box()
        if box is not None and box["y"] >= 0 and box["y"] + min(box["height"], enough) <= height:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


_flush = TransactionTestCase._fixture_teardown


def _flush_after_the_last_request(self):
    """Empty the database after a browser test, once the live server has answered what the closed browser last
    sent (a clock's or a projector's poll still being answered holds its tables): on PostgreSQL that answer and
    the flush can deadlock, and the flush is then tried again."""
    for attempt in range(5):
        try:
            return _flush(self)
        except CommandError as error:
            if attempt == 4 or "deadlock detected" not in str(error.__cause__):
                raise
            time.sleep(0.2)


TransactionTestCase._fixture_teardown = _flush_after_the_last_request


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "Playwright for Python is not installed (pip install -r requirements-dev.txt)"
    if missing is None and not os.path.exists(CHROMIUM):
        missing = "Debian's Chromium is not installed (apt-get install chromium)"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Browser tests cannot run under CI: {missing}")
        pytest.skip(missing)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser, live_server):
    """A phone-sized page; ``phone.url(path)`` turns a path into the live server's address."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def login(phone):
    def log_in(username, password):
        phone.goto("/login/")
        phone.fill("#id_username", username)
        phone.fill("#id_password", password)
        phone.click("button[type=submit]")

    return log_in


@pytest.fixture
def second_phone(browser, live_server):
    """Another phone at the same table: its own browser context (cookies, session, device name)."""
    context = browser.new_context(viewport=PHONE, base_url=live_server.url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
