from django.shortcuts import render

from tournament import selectors


def home(request):
    return render(request, "home.html", {"events": selectors.events_list()})
