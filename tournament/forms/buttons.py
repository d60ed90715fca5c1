"""The table page's buttons: radio choices drawn as big tap targets (the seats, the bid grid, the books, the
suits), each row drawn once per process where it is the same at every table."""

from django import forms
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from scoring import Suit


class ChoiceButtons(forms.RadioSelect):
    """Radio buttons drawn as big tap targets (see .choices in app.css).

    Drawn once per process for each set of name, value, attributes and choices: the sheet draws about a hundred
    buttons (the bid grid, the books, the suits), the same at every table, and drawing them through their
    templates took most of the table page's time. A row whose choices are one table's own (``same_everywhere``
    false: the seats name their players) is drawn each time and not kept."""

    template_name = "table/widgets/choice_buttons.html"
    option_template_name = "table/widgets/choice_button.html"
    same_everywhere = True

    def render(self, name, value, attrs=None, renderer=None):
        if not self.same_everywhere:
            return super().render(name, value, attrs, renderer)
        key = (type(self), name, repr(value), repr(self.attrs), repr(attrs), repr(list(self.choices)))
        drawn = _drawn_buttons.get(key)
        if drawn is None:
            drawn = super().render(name, value, attrs, renderer)
            if len(_drawn_buttons) >= DRAWN_BUTTONS_KEPT:
                _drawn_buttons.clear()
            _drawn_buttons[key] = drawn
        return drawn


# Button rows drawn so far in this process (``ChoiceButtons.render``), and how many are kept at most.
_drawn_buttons: dict[tuple, SafeString] = {}
DRAWN_BUTTONS_KEPT = 256


class SplitLabelButtons(ChoiceButtons):
    """Buttons whose label is drawn in two parts, large then small: the label split at the first ``separator``
    gives the option its ``parts``, named for the option template."""

    parts: tuple[str, str]
    separator: str

    def create_option(self, *args, **kwargs):
        option = super().create_option(*args, **kwargs)
        large, _, small = str(option["label"]).partition(self.separator)
        option[self.parts[0]], option[self.parts[1]] = large, small
        return option


class SeatButtons(SplitLabelButtons):
    """The four seats in one row: the seat's letter large, its player's name small beneath it."""

    option_template_name = "table/widgets/seat_button.html"
    parts = ("seat", "player")
    separator = " · "
    same_everywhere = False


class SuitButtons(ChoiceButtons):
    """The suits as their symbols, each also named in words for a screen reader."""

    option_template_name = "table/widgets/suit_button.html"

    def create_option(self, *args, **kwargs):
        option = super().create_option(*args, **kwargs)
        suit = Suit(option["value"])
        option["label"], option["suit_name"] = suit.symbol, suit.label
        return option


class BidGrid(SplitLabelButtons):
    """The bids as a grid: a column per level, a row each for Uptown, Downtown and No Trump (the kind's word
    small beneath the level), so that the 21 bids take three rows of a phone."""

    template_name = "table/widgets/bid_grid.html"
    option_template_name = "table/widgets/bid_button.html"
    parts = ("level", "kind_word")
    separator = " "

    def create_option(self, *args, **kwargs):
        """A seventh of a phone is narrower than "Downtown": the word may go on two lines before its "town"."""
        option = super().create_option(*args, **kwargs)
        option["kind_word"] = mark_safe(escape(option["kind_word"]).replace("town", "<wbr>town"))
        return option
