"""The research interfaces' numbers: every legal action has one in its rule set's fixed space, and the
observation vector has its documented layout, read from the seat's view."""

from __future__ import annotations

import pickle
import random

import pytest

from eights.cards import CARD_COUNT, Card
from eights.engine import Game, view
from eights.engine.actions import BURY, CHOOSE, PLAY, Play
from eights.research.encoding import ActionSpace, encode, observation_layout, observation_size
from eights.research.observer import match_rewards
from eights.rules import PRESETS, RuleSet, load_preset


def seatings() -> list[tuple[str, int, list[str]]]:
    """Every preset at every player count it seats, and action with stacking at one to three packs."""
    out = []
    for preset in PRESETS:
        rules = load_preset(preset)
        for players in range(rules.min_players, rules.max_players + 1):
            out.append((preset, players, []))
    out += [("action", players, ["stacking=true"]) for players in (2, 4, 6, 12)]
    return out


@pytest.mark.parametrize(("preset", "players", "options"), seatings())
def test_every_legal_action_has_a_number(preset: str, players: int, options: list[str]) -> None:
    rules = load_preset(preset).with_options(options)
    space = ActionSpace(rules, players)
    assert len(set(space.actions)) == len(space)
    rng = random.Random(players)
    for seed in range(3):
        game = Game(rules, players, seed=seed, log=False)
        while not game.is_over:
            legal = game.legal_actions()
            mask = space.mask(legal)
            assert sum(mask) == len(legal)
            assert [space.actions[i] for i, bit in enumerate(mask) if bit] == sorted(legal, key=space.number)
            game.apply(legal[rng.randrange(len(legal))])


def test_stacked_plays_follow_the_pack() -> None:
    one = ActionSpace(load_preset("action").with_options(["stacking=true"]), 2)
    # one pack: each of the 4 cards of a rank on top, any of the other 3 under it: 4 * (2**3 - 1) stacks per rank
    assert sum(1 for a in one.actions if isinstance(a, Play) and a.stack) == 13 * 4 * 7
    two = ActionSpace(load_preset("action").with_options(["stacking=true"]), 6)
    assert Play(Card.parse("5H"), (Card.parse("5H"), Card.parse("5C"), Card.parse("5C"))) in two.index
    plain = ActionSpace(load_preset("action"), 2)
    assert not any(isinstance(a, Play) and a.stack for a in plain.actions)


def test_an_action_from_another_rule_set_is_refused() -> None:
    space = ActionSpace(load_preset("classic"), 4)
    with pytest.raises(ValueError, match="not in the action space of classic"):
        space.number(Play(Card.parse("5H"), (Card.parse("5C"),)))
    for foreign in (BURY[Card.parse("5H")], CHOOSE[2], CHOOSE[9], PLAY[Card.parse("JK")]):
        with pytest.raises(ValueError, match="not in the action space of classic"):
            space.number(foreign)


@pytest.mark.parametrize(("preset", "players", "options"), [s for s in seatings() if s[1] in (2, 5, 12)])
def test_every_action_s_number_is_its_place_in_the_space(preset: str, players: int, options: list[str]) -> None:
    """``number`` finds the one-object actions by table, not by hashing: the same numbers as the index."""
    space = ActionSpace(load_preset(preset).with_options(options), players)
    assert [space.number(action) for action in space.actions] == list(range(len(space)))
    assert [space.number(pickle.loads(pickle.dumps(action))) for action in space.actions] == list(range(len(space)))
    again = pickle.loads(pickle.dumps(space))
    assert again.actions == space.actions and again.rules == space.rules


def test_match_rewards_general_and_zero_sum() -> None:
    assert match_rewards((1,), 2) == [-1.0, 1.0]
    assert match_rewards((0, 1), 2) == [1.0, 1.0]  # a tie of both seats: not zero-sum
    assert match_rewards((1,), 2, zero_sum=True) == [-1.0, 1.0]
    assert match_rewards((0, 1), 2, zero_sum=True) == [0.0, 0.0]
    assert match_rewards((2,), 4, zero_sum=True) == [-1.0, -1.0, 3.0, -1.0]
    assert match_rewards((0, 2), 4, zero_sum=True) == [1.0, -1.0, 1.0, -1.0]
    for winners in ((0,), (1, 2), (0, 1, 2)):
        assert sum(match_rewards(winners, 3, zero_sum=True)) == 0


def test_the_vector_follows_the_layout_from_the_seat_s_view() -> None:
    rules: RuleSet = load_preset("race")
    game = Game(rules, 3, seed=11)
    for _ in range(7):
        game.play(game.legal_actions()[0])
    seat = game.to_act
    v = view(game, seat)
    vector = encode(v)
    assert len(vector) == observation_size(3)
    parts = {}
    at = 0
    for name, size in observation_layout(3):
        parts[name] = vector[at : at + size]
        at += size
    hand = [0.0] * CARD_COUNT
    for card in game.hands[seat]:
        hand[card] += 1
    assert parts["hand"] == hand
    assert parts["top"].index(1.0) == game.top
    assert parts["to_act"] == [1.0, 0.0, 0.0]  # the seat itself comes first
    assert parts["hand_counts"] == [float(len(game.hands[(seat + k) % 3])) for k in range(3)]
    assert sum(parts["played"]) == sum(len(e.cards) for e in game.actions if isinstance(e, Play))
    # a spectator sees no hand
    assert encode(view(game, None))[:CARD_COUNT] == [0.0] * CARD_COUNT
