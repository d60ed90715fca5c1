"""A tournament's rules in words follow its settings: each setting changes what the page says."""

from decimal import Decimal

from scoring import RuleSet
from scoring.money import SidePotRule
from scoring.penalties import penalty_rules
from scoring.rulebook import Money, rules_in_words

ORDER = ("rounds_won", "total_points", "point_difference", "head_to_head")


def said(rules: RuleSet | None = None, **options) -> dict[str, str]:
    options = {"criteria": ORDER, "qualifying_rounds": 3, **options}
    sections = rules_in_words(rules or RuleSet(), **options)
    return {section.title: " ".join(section.sentences) for section in sections}


def test_every_subject_is_stated_in_order():
    assert list(said()) == [
        "Bids",
        "Deal",
        "Scoring",
        "Penalties",
        "Byes",
        "Absent teams",
        "Time",
        "Standings and tie-breaks",
    ]


def test_the_tournament_preset_in_words():
    text = said()
    assert "from 1 to 7 and a kind: 1 Uptown (high cards win), 1 Downtown (low cards win) or 1 No Trump" in text["Bids"]
    assert "No Trump beats Uptown and Downtown, which are equal" in text["Bids"]
    assert "dealt 13 cards from 52; there is no kitty" in text["Deal"]
    assert "A round is 4 hands; each team deals 2 of them." in text["Deal"]
    assert "Made: the bidding team scores each book it took over 6, × 2 on a No Trump bid." in text["Scoring"]
    assert "Set: the bidding team scores 0 and the defenders score the bid's level, × 2" in text["Scoring"]
    assert "When an Uptown or Downtown bid is set, the defenders also score 1" in text["Scoring"]
    assert "Boston" not in text["Scoring"], "no Boston bonus in the tournament preset"
    assert "There is no round clock" in text["Time"]
    assert (
        "ranked over the 3 qualifying rounds by: Rounds won (a tie counts ½); then total points"
        in text["Standings and tie-breaks"]
    )
    assert "ratings" not in text["Standings and tie-breaks"]


def test_the_penalties_are_the_engines_own_rules():
    rules = RuleSet(renege_books=2, play_out_of_turn_points=5)
    assert said(rules)["Penalties"] == " ".join(f"{kind.label}: {rule}." for kind, rule in penalty_rules(rules))


def test_each_setting_changes_what_is_said():
    assert "Downtown beats Uptown" in said(RuleSet(low_beats_high=True))["Bids"]
    kitty = said(RuleSet.preset("kitty"))
    assert "the kitty of 6 cards" in kitty["Deal"] and "3 Uptown" in kitty["Bids"]
    assert "loses the bid's level" in kitty["Scoring"] and "× 4" in kitty["Scoring"]
    assert "defenders also score" not in kitty["Scoring"]
    assert "a round win and no points" in said(RuleSet(bye_scoring="win_only"))["Byes"]
    assert "20 minutes after the round clock started" in said(RuleSet(forfeit_minutes=20))["Absent teams"]
    timed = said(RuleSet(round_minutes=50, warn_minutes=10, last_warn_minutes=0, playoff_clock=True))["Time"]
    assert "A round lasts 50 minutes" in timed and "warns at 10 minutes left." in timed
    assert "The clock runs the playoff matches too" in timed
    assert "then their players' ratings" in said(rating_breaks_ties=True)["Standings and tie-breaks"]


def test_money_is_stated_only_when_there_are_fees():
    free = Money(Decimal(0), Decimal(0), Decimal(0), (Decimal(100),), SidePotRule.PLACING)
    assert "Money" not in said(money=free)
    paid = Money(Decimal("25.00"), Decimal(0), Decimal("12.50"), (Decimal(70), Decimal(30)), SidePotRule.PLACING)
    assert said(money=paid)["Money"] == (
        "Entry fee: 25.00 a team; the house keeps 12.5% of the entry fees. The prize pool is paid by final place: "
        "70, 30 percent, best first."
    )
