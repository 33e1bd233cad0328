"""Determinization for search: a sampled world agrees with everything the seat has seen.

A draw the rules force is public: it shows everyone that the drawer held no card
that played (``CardsDrawn.lacking``, read back by ``draw_constraints``).
"""

from __future__ import annotations

import random

import pytest

from eights.bots.ismcts import Worlds, named_suits
from eights.cards import Card, Suit
from eights.engine import view
from eights.engine.sampling import draw_constraints
from tests.support.scripting import scripted


def possible(mask: bytes) -> set[str]:
    """The cards a constraint mask leaves possible, as text."""
    return {str(Card(c)) for c in range(len(mask)) if not mask[c]}


def test_a_forced_draw_shows_the_drawer_held_nothing_that_matched():
    game = scripted("action", ["4C 5C 9D", "5D 6S 9S", "9C JC 3D"], "7H", "KS QS JD", dealer=2)
    game.play("draw", seat=0)  # nothing matches 7H; KS does not either: the turn ends
    assert game.to_act == 1
    constraints = draw_constraints(view(game, 1))
    assert set(constraints) == {0}
    [(mask, need)] = constraints[0]
    assert need == 3  # the three cards held at the draw; the drawn card is unconstrained
    held_then = possible(mask)
    assert {"4C", "5C", "9D", "KD", "2S"} <= held_then
    assert not {"AH", "KH", "7C", "7S", "8D", "8S"} & held_then
    assert draw_constraints(view(game, 0)) == {}  # nothing to infer about one's own hand


def test_cards_held_through_two_forced_draws_matched_neither():
    game = scripted("action", ["4C 5C 9D", "7S 6S 5S"], "7H", "KD 6D 3S AD", dealer=1)
    game.play("draw", seat=0)  # nothing matches 7H: draws KD, which does not either
    game.play("play 7S", seat=1)
    game.play("draw", seat=0)  # nothing matches 7S: draws 6D, which does not either
    game.play("play 6S", seat=1)
    game.play("play 6D", seat=0)
    layers = draw_constraints(view(game, 1))[0]
    assert [need for _, need in layers] == [2, 1]  # 6D was laid: 2 of the first hand are left at least
    oldest, newest = (possible(mask) for mask, _ in layers)
    assert not {"AH", "AS", "7C", "8D"} & oldest  # cards held at both draws matched neither
    assert {"4C", "9D", "QD"} <= oldest
    assert "AH" in newest and not {"AS", "7C"} & newest  # KD, drawn at the first, matched only 7H
    worlds = Worlds(view(game, 1), random.Random(2))
    for _ in range(200):
        hand = worlds.deal().hands[0]
        assert len(hand) == 4
        assert sum(1 for c in hand if str(Card(c)) in oldest) >= 2
        assert sum(1 for c in hand if str(Card(c)) in newest) >= 3


def test_a_draw_at_will_shows_nothing():
    game = scripted("classic", ["4C 5C", "5D 6S"], "7H", "KS QS JD", dealer=1)
    game.play("draw", seat=0)
    assert draw_constraints(view(game, 1)) == {}


def test_a_draw_to_follow_shows_only_that_no_follow_me_card_was_held():
    game = scripted("derange", ["4C 5C 6C", "3H 5C 9S", "9D 6D 4D"], "7H", "9H QS", dealer=0)
    game.play("play 3H", seat=1)
    game.play("draw", seat=1)  # no heart and no 8 to follow the 3
    constraints = draw_constraints(view(game, 2))
    [(mask, need)] = constraints[1]
    held_then = possible(mask)
    assert {"3C", "7C", "5C"} <= held_then  # a 3 or a 7 in another suit does not follow
    assert not {"AH", "9H", "8C"} & held_then
    game.play("play 9H", seat=1)
    assert draw_constraints(view(game, 2))[1][0][1] == need - 1  # a card laid since may be one held then


def test_cards_that_may_be_held_back_stay_possible_after_a_draw():
    game = scripted("baby-eating", ["8C 4S", "5D 6S"], "7H", "KS QS JD", dealer=1)
    game.play("draw", seat=0)  # only the 8 plays, and an 8 may be held back
    [(mask, need)] = draw_constraints(view(game, 1))[0]
    held_then = possible(mask)
    assert {"8C", "8D", "KH", "GJ", "JK", "4S"} <= held_then
    assert not {"AH", "7C", "2H"} & held_then
    assert need == 2


def test_a_new_round_forgets_the_draws_of_the_last():
    game = scripted("action", ["4C 5C 9D", "5D 6S 9S"], "7H", "KS QS JD", dealer=1, score_keeping=True)
    game.play("draw", seat=0)
    assert draw_constraints(view(game, 1))
    while game.round_index == 0:
        seat = game.to_act
        game.play(game.legal_actions()[0], seat=seat)
    assert draw_constraints(view(game, game.to_act)) == {}


def test_sampled_worlds_respect_a_forced_draw():
    game = scripted("action", ["4C 5C 9D", "5D 6S 9S", "9C JC 3D"], "7H", "KS QS JD AD 2C 3C", dealer=2)
    game.play("draw", seat=0)
    seen = view(game, 1)
    [(mask, need)] = draw_constraints(seen)[0]
    worlds = Worlds(seen, random.Random(1))
    for _ in range(200):
        hand = worlds.deal().hands[0]
        assert len(hand) == 4
        assert sum(1 for c in hand if mask[c]) <= len(hand) - need


def test_a_suit_just_named_is_read_as_one_its_namer_holds():
    game = scripted("action", ["8C 4C 5H 9D", "5D 6S 9S 7S"], "7D", "KS QS JD AD 2C 3C", dealer=1)
    game.play("play 8C", seat=0)
    game.play("suit H", seat=0)
    assert named_suits(view(game, 1)) == {0: int(Suit.HEARTS)}
    assert named_suits(view(game, 0)) == {}  # one's own hand is known, not guessed
    worlds = Worlds(view(game, 1), random.Random(3))
    assert all(any(c.suit == Suit.HEARTS for c in worlds.deal().hands[0]) for _ in range(200))
    game.play("draw", seat=1)  # no heart, no 8: draws KS, which does not play
    game.play("play 5H", seat=0)
    assert named_suits(view(game, 1)) == {}  # it has laid a card since: the heart may be gone


@pytest.mark.parametrize("log", [False, True])
def test_a_seat_world_is_the_world_sampled_from_the_seats_view(log: bool):
    """``seat_world`` (a search's reading of the game for one seat) deals what ``sample`` deals from
    the view: in games without a log (play-outs), and with one (the belief's particles; baby-eating's
    blind swaps show cards of other hands)."""
    from eights.engine import Game
    from eights.engine.game import FIELDS
    from eights.engine.sampling import sample, seat_world
    from eights.rules import load_preset

    checked = 0
    for preset, players in (("classic", 2), ("action", 2), ("action", 3), ("derange", 4), ("baby-eating", 5)):
        rng = random.Random(f"seat-world:{preset}")
        for _ in range(4):
            game = Game(load_preset(preset), players, seed=rng.getrandbits(32), log=log)
            while not game.is_over and checked < 5000:
                for seat in {game.to_act, rng.randrange(players)}:
                    k = rng.getrandbits(32)
                    a, b = seat_world(game, seat, random.Random(k)), sample(view(game, seat), random.Random(k))
                    for name in FIELDS:
                        if name != "rng":
                            assert getattr(a, name) == getattr(b, name), (preset, name)
                    assert a.rng.getstate() == b.rng.getstate()
                    assert a.legal_actions() == b.legal_actions()
                    checked += 1
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))])
    assert checked > 1000
