"""Pages and API answers sent gzip-compressed to a client that accepts it: a staff page of 512 teams is 100 KB to
1 MB of HTML. Django's ``GZipMiddleware`` (with its random padding against BREACH, since Django 4.2), for text
only: a PDF or a spreadsheet is compressed already, and an answer the shared page cache kept compressed
(``tournament.pagecache``) carries its ``Content-Encoding`` and is left as it is."""

from django.middleware.gzip import GZipMiddleware

TEXT = ("text/", "application/json", "application/javascript", "image/svg+xml")


class TextGZipMiddleware(GZipMiddleware):
    def process_response(self, request, response):
        if not response.get("Content-Type", "").startswith(TEXT):
            return response
        return super().process_response(request, response)
