"""The migration that stores a payout's place as a number and a shared flag keeps every prize's place, both ways."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournament.models import Payout, Pot

NAME = "payout_place_as_number_and_shared"
FIELDS = ("team_id", "place_number", "place_shared")


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.mark.django_db(transaction=True)
def test_prizes_keep_their_places_through_the_migration_and_back(tournament, make_teams):
    first, second, third = make_teams(tournament, 3)
    for team, number, shared in [(first, 1, False), (second, 3, True), (third, 3, True)]:
        Payout.objects.create(
            tournament=tournament, team=team, pot=Pot.ENTRY, place_number=number, place_shared=shared, amount="5.00"
        )
    migration = next(key for key in MigrationExecutor(connection).loader.graph.nodes if key[1].endswith(NAME))
    before = MigrationExecutor(connection).loader.graph.node_map[migration].parents
    (previous,) = [parent.key for parent in before if parent.key[0] == "tournament"]
    try:
        old = _migrate(previous).get_model("tournament", "Payout")
        labels = dict(old.objects.values_list("team_id", "place"))
        assert labels == {first.pk: "1", second.pk: "T-3", third.pk: "T-3"}, "going back writes the sheet's text"
        new = _migrate(migration).get_model("tournament", "Payout")
        places = {team: (number, shared) for team, number, shared in new.objects.values_list(*FIELDS)}
        assert places == {first.pk: (1, False), second.pk: (3, True), third.pk: (3, True)}, "the text read once"
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes("tournament")[0])
    assert {payout.team_id: str(payout.place) for payout in Payout.objects.all()} == labels
