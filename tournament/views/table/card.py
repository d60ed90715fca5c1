"""The table card's page: the table of that number in whichever round is being played."""

from django.shortcuts import render

from tournament import selectors
from tournament.pagecache.private import private_answer
from tournament.views.table.page import TablePage, card_remember, render_page, table_page_etag


def table_card(request, secret):
    card = selectors.card_by_secret(secret)
    sitting = selectors.card_sitting(card)
    if sitting.table is None:
        context = {"card": card, "tournament": card.tournament, "event": card.tournament.event}
        return render(request, "table/card_waiting.html", context)
    card_remember(request, sitting.table, secret)
    table = selectors.table_by_secret(sitting.table.secret, seated=False)
    moves = {"card": card, "moves": sitting.moves, "moves_from": sitting.moves_from}
    # Where the teams move follows the draws (the live version) and whether this sheet has begun (its version).
    shown = (card.pk, sitting.moves_from and sitting.moves_from.pk)
    return private_answer(
        request,
        lambda secret: table_page_etag(request, table, *shown, secret=secret),
        lambda: render_page(request, TablePage(request, table.secret, table=table), **moves),
    )
