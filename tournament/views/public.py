from django.shortcuts import render

from tournament import selectors


def home(request):
    return render(request, "home.html", {"events": selectors.events_list()})


def table_page(request, secret):
    """The table scorekeeper's page, opened by the table's private link or QR code."""
    table = selectors.table_by_secret(secret)
    return render(request, "table/table.html", {"table": table, "round": table.round})
