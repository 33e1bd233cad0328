"""A refused move says the rule in words: no player's message cites a decision number (D9, D13...)
that only the rules reference explains."""

from __future__ import annotations

import random
import re

import pytest

from eights.engine import DRAW, PASS, Game, IllegalAction, view
from eights.engine.actions import PLAY
from eights.rules import PRESETS, load_preset

DECISION = re.compile(r"\bD\d+\b")


@pytest.mark.parametrize("preset", PRESETS)
def test_refused_moves_name_no_decision_numbers(preset: str) -> None:
    rng = random.Random(preset)
    refused = 0
    for seed in range(8):
        game = Game(load_preset(preset), 4, seed)
        while not game.is_over and len(game.actions) < 400:
            seat = game.to_act
            legal = view(game, seat).legal
            for action in (DRAW, PASS, *(PLAY[card] for card in game.hands[seat])):
                if action in legal:
                    continue
                with pytest.raises(IllegalAction) as caught:
                    game.play(action, seat=seat)
                assert not DECISION.search(str(caught.value)), str(caught.value)
                refused += 1
            game.play(legal[rng.randrange(len(legal))], seat=seat)
    assert refused > 100
