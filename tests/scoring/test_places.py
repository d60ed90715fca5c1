from scoring.places import Place, places


def test_a_shared_place_is_written_t_and_its_number():
    assert [str(Place(3)), str(Place(3, shared=True))] == ["3", "T-3"]


def test_a_run_of_equals_shares_its_first_place_and_the_next_run_skips_the_rest():
    ranked = list(places([["a"], ["b", "c"], ["d"], ["e", "f", "g"]]))
    assert [(str(place), item) for place, item in ranked] == [
        ("1", "a"),
        ("T-2", "b"),
        ("T-2", "c"),
        ("4", "d"),
        ("T-5", "e"),
        ("T-5", "f"),
        ("T-5", "g"),
    ]


def test_places_count_on_from_the_first_given():
    assert [str(place) for place, _ in places([["x", "y"], ["z"]], first=9)] == ["T-9", "T-9", "11"]


def test_places_order_best_first():
    assert sorted([Place(4), Place(2, shared=True), Place(1)]) == [Place(1), Place(2, shared=True), Place(4)]
