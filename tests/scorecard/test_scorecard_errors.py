"""The scorecard refuses every bad input with its own error (a ``ValueError``), a one-line message
naming the problem and the valid choices, and leaves the sheet exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from eights.rules import load_preset
from eights.scorecard import (
    HandError,
    MatchOverError,
    PlayerError,
    RoundNumberError,
    Sheet,
    SheetError,
    to_csv,
)

DERANGE = load_preset("derange")
CLASSIC = load_preset("classic")
BABY = load_preset("baby-eating")


def started(rules: Any = CLASSIC, names: tuple[str, ...] = ("Ann", "Bob", "Cid")) -> Sheet:
    sheet = Sheet.new(rules.replace(target=100) if rules is CLASSIC else rules, list(names), dealer="Ann")
    sheet.add_round("Ann", {"Bob": "5H", "Cid": "KD"})
    return sheet


def refused(sheet: Sheet, change: Callable[[Sheet], object], error: type[SheetError], *words: str) -> str:
    """Apply ``change``, expect ``error`` with all ``words`` in its one-line message, the sheet unchanged."""
    before, csv, history = sheet.to_dict(), to_csv(sheet), sheet.can_undo
    with pytest.raises(error) as caught:
        change(sheet)
    message = str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert "\n" not in message and "Traceback" not in message
    for word in words:
        assert word in message, (word, message)
    assert sheet.to_dict() == before and to_csv(sheet) == csv and sheet.can_undo == history
    return message


# ----- impossible hands -----------------------------------------------------------------------------


def test_a_card_that_is_no_card() -> None:
    refused(started(), lambda s: s.add_round("Ann", {"Bob": "8X", "Cid": 1}), HandError, "Bob", "'8X'", "8H, 10C")


def test_a_joker_where_the_preset_has_none() -> None:
    refused(started(), lambda s: s.add_round("Bob", {"Ann": "JK", "Cid": 1}), HandError, "JK", "without jokers")
    refused(started(DERANGE), lambda s: s.add_round("Bob", {"Ann": "GJ 8H", "Cid": 1}), HandError, "GJ", "derange")


def test_more_copies_than_the_packs_hold() -> None:
    # classic: one pack, one 8H, here in two hands
    refused(started(), lambda s: s.add_round("Ann", {"Bob": "8H", "Cid": "8H"}), HandError, "8H", "2 times", "1")
    # derange: two packs, two of each card
    refused(
        started(DERANGE),
        lambda s: s.add_round("Ann", {"Bob": "8H 8H", "Cid": "8H"}),
        HandError,
        "8H is entered 3 times (Bob 2, Cid)",
        "the 2 packs hold only 2",
    )
    # baby-eating: two different jokers, one of each
    refused(started(BABY), lambda s: s.add_round(None, {"Ann": "JK", "Bob": "JK", "Cid": "GJ"}), HandError, "JK")


def test_the_expanded_deck_has_one_king_of_hearts() -> None:
    names = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
    left = {"Ann": "KH", "Bob": "KH", "Cid": "2C", "Dee": "2D", "Eve": "2S", "Fay": "2H"}
    refused(started(BABY, names), lambda s: s.add_round(None, left), HandError, "KH", "only 1")


def test_cards_or_points_for_the_player_who_went_out() -> None:
    sheet = started()
    refused(sheet, lambda s: s.add_round("Bob", {"Bob": "3C", "Ann": 1, "Cid": 1}), HandError, "Bob went out", "Ann")
    refused(sheet, lambda s: s.add_round("Bob", {"Bob": 0, "Ann": 1, "Cid": 1}), HandError, "only for Ann and Cid")


def test_negative_or_non_numeric_points() -> None:
    sheet = started()
    refused(sheet, lambda s: s.add_round("Ann", {"Bob": -5, "Cid": 1}), HandError, "-5", "0 or more")
    refused(sheet, lambda s: s.add_round("Ann", {"Bob": True, "Cid": 1}), HandError, "whole number")
    refused(sheet, lambda s: s.add_round("Ann", {"Bob": 2.5, "Cid": 1}), HandError, "whole number")  # type: ignore[dict-item]


def test_a_player_left_out() -> None:
    refused(started(), lambda s: s.add_round("Ann", {"Bob": 3}), HandError, "no points or cards for Cid")
    refused(started(BABY), lambda s: s.add_round(None, {"Bob": "3C"}), HandError, "Ann and Cid", "blocked")


def test_a_blocked_baby_eating_game_needs_cards_not_points() -> None:
    refused(started(BABY), lambda s: s.add_round(None, {"Ann": 1, "Bob": "3C", "Cid": "4C"}), HandError, "fewest")


# ----- names ----------------------------------------------------------------------------------------


def test_unknown_names_in_a_round() -> None:
    sheet = started()
    refused(sheet, lambda s: s.add_round("Zed", {"Bob": 1, "Cid": 1}), PlayerError, "'Zed'", "Ann, Bob and Cid")
    refused(sheet, lambda s: s.add_round("Ann", {"Bob": 1, "Zoe": 1}), PlayerError, "'Zoe'", "Ann, Bob and Cid")


def test_a_player_entered_twice_in_a_round() -> None:
    refused(started(), lambda s: s.add_round("Ann", {"Bob": 1, "bob": 2, "Cid": 1}), HandError, "Bob", "twice")


def test_names_are_found_ignoring_case() -> None:
    sheet = started()
    sheet.add_round("cid", {"ANN": 3, "bob": 4})
    assert sheet.totals == (15, 0, 7)  # round 1: Ann 5 + 10 = 15; round 2: Cid 3 + 4 = 7


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["Ann"], ("1 player", "2 to 8")),
        ([], ("no names given", "2 to 8")),
        ([f"P{i}" for i in range(9)], ("9 player", "2 to 8")),
        (["Ann", ""], ("player 2", "empty name")),
        (["Ann", "   "], ("player 2", "empty name")),
        (["Ann", "Bob", "ann"], ("'ann'", "twice", "different name")),
    ],
)
def test_bad_player_lists(names: list[str], words: tuple[str, ...]) -> None:
    with pytest.raises(PlayerError) as caught:
        Sheet.new(DERANGE, names, dealer=None, rng=1)
    assert all(word in str(caught.value) for word in words), str(caught.value)


def test_players_the_rules_cannot_seat() -> None:
    names = [f"P{i}" for i in range(8)]
    with pytest.raises(PlayerError, match=r"players: 8 cannot play classic.*; valid: 2-7"):
        Sheet.new(CLASSIC, names, dealer="P0")
    with pytest.raises(PlayerError, match="teams of two; valid: an even number, 4 or more"):
        Sheet.new(BABY.replace(teams=True), ["A", "B", "C"], dealer="A")


def test_an_unknown_first_dealer_or_none() -> None:
    with pytest.raises(PlayerError, match="dealer: 'Zed' is not a player here; the players are Ann and Bob"):
        Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Zed")
    with pytest.raises(SheetError, match="name one of Ann and Bob, or give a seed"):
        Sheet.new(CLASSIC, ["Ann", "Bob"])


# ----- rounds and the end of the match ----------------------------------------------------------------


def test_a_round_after_the_match_has_ended() -> None:
    sheet = Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann")  # one round (D8)
    sheet.add_round("Ann", {"Bob": 4})
    refused(sheet, lambda s: s.add_round("Bob", {"Ann": 4}), MatchOverError, "over after 1 round", "won by Ann")
    refused(sheet, lambda s: s.finish(), MatchOverError, "over")


def test_a_round_after_finishing_early() -> None:
    sheet = started()
    sheet.finish()
    refused(sheet, lambda s: s.add_round("Bob", {"Ann": 1, "Cid": 1}), MatchOverError, "finished early", "undo")


def test_an_edit_or_delete_of_a_round_that_does_not_exist() -> None:
    sheet = started()
    refused(sheet, lambda s: s.edit_round(2, "Ann", {"Bob": 1, "Cid": 1}), RoundNumberError, "no round 2", "1")
    refused(sheet, lambda s: s.edit_round(0, "Ann", {"Bob": 1, "Cid": 1}), RoundNumberError, "no round 0")
    refused(sheet, lambda s: s.delete_round(-1), RoundNumberError, "no round -1")
    sheet.add_round("Bob", {"Ann": 1, "Cid": 1})
    refused(sheet, lambda s: s.delete_round(3), RoundNumberError, "the rounds entered are 1-2")
    empty = Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann")
    refused(empty, lambda s: s.delete_round(1), RoundNumberError, "no round has been entered yet")


def test_a_bad_edit_leaves_the_round_as_it_was() -> None:
    sheet = started()
    refused(sheet, lambda s: s.edit_round(1, "Ann", {"Bob": "8H", "Cid": "8H"}), HandError, "8H")
    assert sheet.totals == (15, 0, 0)  # 5 + 10


def test_an_edit_that_would_end_the_match_before_later_rounds() -> None:
    sheet = started()  # classic to 100
    sheet.add_round("Bob", {"Ann": 1, "Cid": 1})
    refused(sheet, lambda s: s.edit_round(1, "Ann", {"Bob": 100, "Cid": 1}), MatchOverError, "ends after round 1")


def test_finishing_with_no_round_and_undo_with_nothing() -> None:
    sheet = Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann")
    refused(sheet, lambda s: s.finish(), MatchOverError, "no round has been entered")
    refused(sheet, lambda s: s.undo(), SheetError, "nothing to undo")


def test_a_finished_sheet_keeps_at_least_one_round() -> None:
    sheet = started()
    sheet.finish()
    refused(sheet, lambda s: s.delete_round(1), MatchOverError, "finished early", "undo the finish")


# ----- stored data ------------------------------------------------------------------------------------


def test_bad_stored_data() -> None:
    good = started().to_dict()
    cases: list[tuple[dict[str, Any], str]] = [
        ({**good, "sheet": 99}, "format 99"),
        ({k: v for k, v in good.items() if k != "undo"}, "exactly the keys"),
        ({**good, "players": "Ann"}, "list of names"),
        ({**good, "first_dealer": "Zed"}, "'Zed'"),
        ({**good, "rules": {**good["rules"], "deal": 0}}, "deal"),
        ({**good, "rounds": [{"out": "Ann", "left": {"Bob": "JK", "Cid": 1}}]}, "without jokers"),
        ({**good, "rounds": [{"out": 3, "left": {}}]}, "'out'"),
        ({**good, "undo": [{"change": "shuffle"}]}, "add, edit, delete or finish"),
        ({**good, "finished": "yes"}, "true or false"),
    ]
    for data, words in cases:
        with pytest.raises(SheetError) as caught:
            Sheet.from_dict(data)
        assert words in str(caught.value), (words, str(caught.value))


def test_a_stored_undo_list_naming_a_missing_round_is_refused_on_undo() -> None:
    data = started().to_dict()
    data["undo"].append({"change": "edit", "round": 4, "was": data["rounds"][0]})
    sheet = Sheet.from_dict(data)
    refused(sheet, lambda s: s.undo(), SheetError, "round 4, which is not there")


# ----- issue 29, item 9: hands within the pack, numbers as numbers -------------------------------------------


def two(rules: Any = DERANGE) -> Sheet:
    return Sheet.new(rules, ["Ann", "Bob"], dealer="Ann")


def test_points_are_bounded_by_what_the_pack_can_be_worth() -> None:
    sheet = two()
    most = sheet.setup.most_points
    refused(sheet, lambda s: s.add_round("Bob", {"Ann": 10**23}), HandError, "Ann:", f"give 0 to {most}")
    refused(sheet, lambda s: s.add_round("Bob", {"Ann": most + 1}), HandError, "more than the cards of the pack")
    sheet.add_round("Bob", {"Ann": most})  # the bound itself is taken
    three = Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann")
    share = three.setup.most_points // 2 + 1
    refused(three, lambda s: s.add_round("Ann", {"Bob": share, "Cid": share}), HandError, "worth", "together")


def test_a_hand_cannot_hold_the_whole_pack() -> None:
    sheet = two(CLASSIC)
    whole = " ".join(str(card) for card in CLASSIC.pack_counts(2))
    refused(sheet, lambda s: s.add_round("Bob", {"Ann": whole}), HandError, "52 cards", "discard pile")


def test_points_in_rules_that_keep_none_are_refused() -> None:
    sheet = Sheet.new(BABY, ["Ann", "Bob", "Cid", "Dee"], dealer="Ann")
    refused(sheet, lambda s: s.add_round("Ann", {"Bob": 12}), HandError, "keeps no points", "not 12 points")


@pytest.mark.parametrize("text", ["1_000", "+5", "\u0663", "1 000", "\u0663\u0665"])
def test_numbers_written_otherwise_are_refused_not_read(text: str) -> None:
    refused(two(), lambda s: s.add_round("Bob", {"Ann": text}), HandError, "digits 0-9")


def test_deleting_a_middle_round_says_how_the_later_rounds_change() -> None:
    sheet = Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann")
    for out in ("Ann", "Bob", "Cid", "Ann"):
        sheet.add_round(out, {name: 1 for name in sheet.players if name != out})
    assert sheet.delete_round(2) == "deleted round 2; rounds 3-4 are now 2-3, with the dealers and cards they had"
    # Issue 40, item 11: they kept the deals they were played with (Cid dealt 6, Ann 5), not round 2's.
    assert [(sheet.players[r.dealer], r.hand_size) for r in sheet.rounds] == [("Ann", 8), ("Cid", 6), ("Ann", 5)]
    assert (sheet.dealer, sheet.hand_size) == ("Bob", 4)  # the deal after the last round's
    again = Sheet.from_dict(sheet.to_dict())
    assert again == sheet and [r.deal for r in again.rounds] == [0, 2, 3]
    assert sheet.to_dict()["rounds"][1]["deal"] == 3 and "deal" not in sheet.to_dict()["rounds"][2]
    assert sheet.delete_round(3) == "deleted round 3"
    assert (sheet.dealer, sheet.hand_size) == ("Ann", 5)  # the last round gone: its deal is the next
