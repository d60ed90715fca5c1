"""Pages go out gzip-compressed to a browser that accepts it, once: a staff page of a big field is hundreds of KB
of HTML; a public page the cache kept compressed is not compressed again; a PDF is sent as it is."""

import gzip

from django.test import Client
from django.urls import reverse

from tests.conftest import round_published

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}


def test_a_staff_page_is_sent_compressed_to_a_browser_that_accepts_it(director_client, tournament, make_teams):
    make_teams(tournament, 40)
    url = reverse("director:teams", args=[tournament.slug])
    plain = director_client.get(url)
    packed = director_client.get(url, **GZIP)
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert "Player 39a" in gzip.decompress(packed.content).decode()
    assert len(packed.content) < len(plain.content) / 3


def test_a_cached_public_page_is_compressed_once_and_still_answered_304(tournament, make_teams):
    make_teams(tournament, 4)
    round_published(tournament)
    client = Client()
    url = reverse("public:standings", args=[tournament.slug])
    first = client.get(url, **GZIP)
    assert first["Content-Encoding"] == "gzip"
    assert "<html" in gzip.decompress(first.content).decode(), "one decompression gives the page"
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **GZIP).status_code == 304


def test_a_pdf_is_sent_as_it_is(director_client, tournament, make_teams):
    make_teams(tournament, 4)
    round_published(tournament)
    response = director_client.get(reverse("director:round_pairings_pdf", args=[tournament.slug, 1]), **GZIP)
    assert "Content-Encoding" not in response
    content = b"".join(response.streaming_content) if response.streaming else response.content
    assert content.startswith(b"%PDF")
