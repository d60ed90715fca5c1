"""Large text and high contrast, kept on the phone: the header's link sets a cookie and goes back to the page;
the stylesheet every page links answers by that cookie, the page itself stays the same for everyone."""

from django.urls import reverse


def test_the_link_turns_large_text_on_and_off_and_goes_back_to_the_page(client):
    back = "http://testserver/t/main-event/standings/"
    response = client.get(reverse("display_choose"), {"large": "1"}, headers={"Referer": back})
    assert response.status_code == 302 and response["Location"] == back
    assert client.cookies["display"].value == "large"
    assert "html { font-size: 150%; }" in client.get(reverse("display_stylesheet")).content.decode()

    client.get(reverse("display_choose"), {"large": "0"}, headers={"Referer": back})
    assert client.get(reverse("display_stylesheet")).content == b""


def test_the_link_goes_back_only_to_this_site(client):
    response = client.get(reverse("display_choose"), {"large": "1"}, headers={"Referer": "https://elsewhere.example/"})
    assert response["Location"] == "/"


def test_the_stylesheet_is_the_phones_own(client):
    response = client.get(reverse("display_stylesheet"))
    assert response["Content-Type"].startswith("text/css")
    assert "Cookie" in response["Vary"] and "private" in response["Cache-Control"]


def test_every_page_offers_the_choice(client, db):
    page = client.get("/").content.decode()
    assert f'href="{reverse("display_stylesheet")}"' in page
    assert f'href="{reverse("display_choose")}?large=1"' in page
