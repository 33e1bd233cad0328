"""Properties of every score sheet, checked with hypothesis over presets, options, player counts and
random sequences of changes (entries, edits, deletes, undo, finishing early):

(1) each total is the sum of the entered rounds' points, and each round's totals are running sums;
(2) a round of cards scores exactly as ``eights.rules.scoring.round_points`` scores those hands;
(3) ``to_dict`` / ``from_dict`` through JSON gives an equal sheet, with the same totals and CSV;
(4) a refused change leaves the sheet unchanged, and undo returns to the sheet before the change;
and, against the engine itself: (5) a sheet fed the hands of a played game keeps the engine's
dealers, hand sizes, totals, match end and winners.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import event as note
from hypothesis import given, settings
from hypothesis import strategies as st

from eights.cards import ALL_CARDS, format_cards
from eights.engine import Game
from eights.engine.events import GameOver, RoundOver, RoundStarted
from eights.rules import RuleSet, load_preset
from eights.rules.scoring import hand_value, round_points
from eights.scorecard import MatchOverError, Sheet, SheetError, to_csv
from tests.support.scripting import fitting_players

CONFIGS: list[tuple[str, tuple[str, ...]]] = [
    ("derange", ()),
    ("derange", ("short_rounds=true", "packs=1")),
    ("derange", ("rounds=3,1,3",)),
    ("classic", ()),
    ("classic", ("target=100",)),
    ("race", ()),
    ("action", ("score_keeping=true",)),
    ("action", ("score_keeping=true", "hands=4")),
    ("action", ()),
    ("baby-eating", ()),
    ("baby-eating", ("teams=true",)),
    ("baby-eating", ("expanded_deck=true",)),
]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
_RULES: dict[tuple[str, tuple[str, ...]], RuleSet] = {}


def rules_for(config: tuple[str, tuple[str, ...]]) -> RuleSet:
    if config not in _RULES:
        _RULES[config] = load_preset(config[0]).with_options(list(config[1]))
    return _RULES[config]


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    rules = rules_for(draw(st.sampled_from(CONFIGS)))
    players = draw(st.sampled_from(fitting_players(rules, most=8)))
    return Sheet.new(rules, NAMES[:players], rng=draw(st.integers(0, 2**32 - 1)))


@st.composite
def rounds(draw: st.DrawFn, sheet: Sheet) -> tuple[str | None, dict[str, Any]]:
    """A possible round: who went out (or None), and points or cards (dealt from a shuffled pack) for the others."""
    n = len(sheet.players)
    pack = [ALL_CARDS[c] for c in sheet.rules.pack(n)]
    draw(st.randoms(use_true_random=False)).shuffle(pack)
    out = draw(st.one_of(st.none(), st.integers(0, n - 1)))
    left: dict[str, Any] = {}
    for seat, name in enumerate(sheet.players):
        if seat == out or (out is not None and not sheet.keeps_points and draw(st.booleans())):
            continue
        if (out is None and sheet.rules.blocked_fewest_cards) or not sheet.keeps_points or draw(st.booleans()):
            count = draw(st.integers(1, 4))  # no cards at all is no entry (issue 40, item 2)
            cards, pack = pack[:count], pack[count:]
            left[name] = format_cards(cards) if draw(st.booleans()) else [str(c) for c in cards]
        else:  # points only where the rules keep them, within what the pack can be worth in all hands
            left[name] = draw(st.integers(0, min(150, sheet.setup.most_points // n)))
    return (None if out is None else sheet.players[out]), left


def expected_points(rules: RuleSet, worth: tuple[int | None, ...], out: int | None) -> tuple[int, ...]:
    """docs/rules.md, written out again as the test's oracle: own hand, every other player adds their
    hand's value; winner collects, the player out collects every other hand; blocked (D5), the lowest
    hand collects the difference from each other player, a tie scoring nothing."""
    values = [w or 0 for w in worth]
    if rules.scoring == "own_hand":
        return tuple(values)
    if out is not None:
        return tuple(sum(values) if seat == out else 0 for seat in range(len(values)))
    low = min(values)
    if values.count(low) > 1:
        return (0,) * len(values)
    return tuple(sum(v - low for v in values) if v == low else 0 for v in values)


def check(sheet: Sheet) -> None:
    """Properties (1)-(3) of one sheet."""
    n = len(sheet.players)
    running = [0] * n
    for index, result in enumerate(sheet.rounds):
        running = [t + p for t, p in zip(running, result.points, strict=True)]
        assert result.totals == tuple(running)
        assert result.number == index + 1
        assert result.deal >= index and (index == 0 or result.deal > sheet.rounds[index - 1].deal)
        assert result.dealer == (sheet.setup.first_dealer + result.deal) % n
        assert result.hand_size == sheet.rules.hand_size(n, result.deal)
        left = result.entry.left
        if sheet.keeps_points and all(isinstance(v, tuple) or v is None for v in left):
            hands = [list(v) if isinstance(v, tuple) else [] for v in left]
            assert result.points == round_points(sheet.rules, sheet.rules.value_table(), hands, result.out)[0]
        if sheet.keeps_points and not (result.out is None and sheet.rules.blocked_fewest_cards):
            assert result.points == expected_points(sheet.rules, result.worth, result.out)
        for seat, value in enumerate(left):
            if isinstance(value, int):
                assert result.worth[seat] == value
            elif isinstance(value, tuple):
                assert result.worth[seat] == hand_value(sheet.rules.value_table(), value)
    assert sheet.totals == tuple(sum(r.points[seat] for r in sheet.rounds) for seat in range(n))
    copy = Sheet.from_dict(json.loads(json.dumps(sheet.to_dict())))
    assert copy == sheet
    assert (copy.totals, copy.over, copy.winners, copy.standings()) == (
        sheet.totals,
        sheet.over,
        sheet.winners,
        sheet.standings(),
    )
    assert to_csv(copy) == to_csv(sheet)


def change(sheet: Sheet, kind: str, number: int, entry: tuple[str | None, dict[str, Any]]) -> None:
    if kind == "add":
        sheet.add_round(*entry)
    elif kind == "edit":
        sheet.edit_round(number, *entry)
    elif kind == "delete":
        sheet.delete_round(number)
    elif kind == "finish":
        sheet.finish()
    else:
        sheet.undo()


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_totals_are_sums_and_sheets_round_trip(data: st.DataObject) -> None:
    sheet = data.draw(sheets())
    for _ in range(data.draw(st.integers(1, 24))):
        kind = data.draw(st.sampled_from(["add", "add", "add", "add", "edit", "delete", "undo", "finish"]))
        before = sheet.to_dict()
        previous = Sheet.from_dict(before)
        number = data.draw(st.integers(0, len(sheet.rounds) + 1))
        entry: tuple[str | None, dict[str, Any]] = data.draw(rounds(sheet)) if kind in ("add", "edit") else (None, {})

        try:
            change(sheet, kind, number, entry)
        except SheetError as exc:
            note(f"{kind} refused: {type(exc).__name__}")
            assert isinstance(exc, ValueError) and "\n" not in str(exc)
            assert sheet.to_dict() == before  # (4) refused: unchanged
            if kind == "add":
                assert isinstance(exc, MatchOverError) and sheet.over
            continue
        note(f"{kind} accepted")
        check(sheet)
        if kind != "undo" and data.draw(st.booleans()):
            after = Sheet.from_dict(sheet.to_dict())
            sheet.undo()  # (4) undo returns to the sheet before the change
            assert sheet == previous
            change(sheet, kind, number, entry)  # and the same change again gives the same sheet
            assert sheet == after


# ----- (5) against the engine --------------------------------------------------------------------------

ENGINE_CONFIGS = [c for c in CONFIGS if c != ("derange", ())]  # the full derange is slow to play at random


def enter_game(rules: RuleSet, players: int, seed: int, choices: int) -> tuple[Game, Sheet]:
    """Play a game with random legal actions, entering every finished round into a sheet."""
    game = Game(rules, players, seed)
    sheet = Sheet.new(rules, NAMES[:players], dealer=NAMES[game.first_dealer])
    rng = random.Random(choices)
    seen = 0
    while True:
        log = game.log or []
        for event in log[seen:]:
            if isinstance(event, RoundStarted):
                assert (sheet.next_round, sheet.dealer, sheet.hand_size) == (
                    event.round,
                    NAMES[event.dealer],
                    event.hand_size,
                )
            elif isinstance(event, RoundOver):
                out = None
                if event.reason == "out":
                    out = next(w for w in event.winners if not event.hands[w])
                left = {NAMES[s]: [str(c) for c in hand] for s, hand in enumerate(event.hands) if s != out}
                result = sheet.add_round(None if out is None else NAMES[out], left)
                assert result.totals == event.totals or not sheet.keeps_points
                assert result.winners == event.winners
                if sheet.keeps_points:
                    assert result.points == event.points
            elif isinstance(event, GameOver) and sheet.keeps_points:
                assert sheet.over
                assert sheet.winners == tuple(NAMES[s] for s in event.winners)
                assert sheet.totals == event.totals
        seen = len(log)
        if game.is_over:
            return game, sheet
        legal = game.legal_actions()
        game.play(legal[rng.randrange(len(legal))], game.to_act)


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(ENGINE_CONFIGS), st.data(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_a_sheet_fed_the_engines_hands_agrees_with_the_engine(
    config: tuple[str, tuple[str, ...]], data: st.DataObject, seed: int, choices: int
) -> None:
    rules = rules_for(config)
    players = data.draw(st.sampled_from(fitting_players(rules, most=8)))
    game, sheet = enter_game(rules, players, seed, choices)
    assert game.outcome is not None
    if sheet.keeps_points:
        assert sheet.over
    else:
        assert not sheet.over and len(sheet.rounds) == 1
        assert sheet.totals == tuple(1 if seat in game.outcome.winners else 0 for seat in range(players))


def test_a_full_derange_game_agrees_with_the_engine() -> None:
    game, sheet = enter_game(rules_for(("derange", ())), 3, seed=2024, choices=7)
    assert len(sheet.rounds) == 15 and sheet.over
    assert game.outcome is not None and sheet.totals == game.outcome.totals
