"""The table card's page: the table of that number in whichever round is being played."""

from django.shortcuts import render

from tournament import selectors
from tournament.views.table.page import TablePage, card_remember, render_page


def table_card(request, secret):
    card = selectors.card_by_secret(secret)
    sitting = selectors.card_sitting(card)
    if sitting.table is None:
        context = {"card": card, "tournament": card.tournament, "event": card.tournament.event}
        return render(request, "table/card_waiting.html", context)
    card_remember(request, sitting.table, secret)
    page = TablePage(request, sitting.table.secret)
    return render_page(request, page, card=card, moves=sitting.moves, moves_from=sitting.moves_from)
