"""The search's belief about the other hand: particles replayed and weighed by the normal player."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from eights.bots import HeuristicBot, ISMCTSBot
from eights.bots.belief import DEADLINE_TRIES, Belief
from eights.bots.ismcts import DUEL_RIVALS, Worlds
from eights.bots.playout import rollout
from eights.bots.turnplan import Budget
from eights.cards import Card, Suit, standard_pack
from eights.engine import Action, Game, View, view
from eights.engine.events import CardPlayed, CardsDrawn, Passed
from eights.rules import load_preset
from tests.support.scripting import scripted


def belief_for(seed: int) -> Belief:
    rng = random.Random(seed)
    return Belief(rng, HeuristicBot(seed), lambda seen: Worlds(seen, rng, True))


def share(belief: Belief, test: Callable[[Game], bool]) -> float:
    """The weighted share of the particles for which ``test(particle)`` holds."""
    total = sum(belief.weights)
    return sum(w for p, w in zip(belief.particles, belief.weights, strict=True) if test(p)) / total


def laid_an_8_on_7h() -> tuple[Game, Belief]:
    # Seat 0 lays 7H; seat 1, the normal player, holds no heart and no 7: it lays its 8 and names spades,
    # its longest suit.
    hands = ["7H 9D 3C 4C 5C 10S JC", "8C 2S 3S 4S 6S KC QD"]
    dealt = {Card(c) for c in " ".join([*hands, "7D"]).split()}
    stock = " ".join(str(c) for c in standard_pack() if c not in dealt)  # the rest of the pack: a real deal
    game = scripted("action", hands, "7D", stock, dealer=1)
    belief = belief_for(1)
    belief.update(view(game, 0))  # the seat's first decision: the belief starts here
    game.play("7H", 0)
    normal = HeuristicBot(2)
    while game.to_act == 1:
        game.play(normal.choose(view(game, 1)), 1)
    assert game.discard[-1] == Card("8C") and game.active_suit == Suit.SPADES
    belief.update(view(game, 0))
    return game, belief


def follows_7h(card: Card) -> bool:
    return card.suit == Suit.HEARTS or card.rank == 7


def test_the_belief_reads_an_8_laid_as_nothing_else_following() -> None:
    game, belief = laid_an_8_on_7h()
    # The normal player lays an 8 only when no other card follows: the belief reads that ...
    lacking = share(belief, lambda p: not any(follows_7h(c) for c in p.hands[1]))
    assert lacking >= 0.9
    # ... where the resampler alone, reading only the suit named, deals such a hand rarely.
    worlds = Worlds(view(game, 0), random.Random(2), True)
    plain = sum(not any(follows_7h(c) for c in worlds.deal().hands[1]) for _ in range(400)) / 400
    assert plain <= 0.2


def test_the_belief_reads_the_suit_named_as_the_longest() -> None:
    _, belief = laid_an_8_on_7h()

    def spades_longest(p: Game) -> bool:
        suits = Counter(c.suit for c in p.hands[1] if c.rank != 8)
        return suits[Suit.SPADES] >= max(suits.values())

    assert share(belief, spades_longest) >= 0.9


@pytest.mark.parametrize("variant", ["classic", "action"])
def test_every_particle_agrees_with_the_view_and_the_replay_keeps_the_thread(variant: str) -> None:
    rules = load_preset(variant)
    restarts = updates = 0
    for g in range(12):
        game = Game(rules, 2, 500 + g)
        bots = [HeuristicBot(g), HeuristicBot(g + 50)]
        belief = belief_for(g)
        first = True
        while not game.is_over:
            seat = game.to_act
            seen = view(game, seat)
            if seat == 0 and len(seen.legal) > 1:
                before = belief.particles
                belief.update(seen)
                updates += 1
                restarts += not first and not any(p in before for p in belief.particles)
                first = False
                assert len(belief.particles) == len(belief.weights) == 128
                for p in belief.particles:
                    assert_agrees(p, seen, game)
            game.play(bots[seat].choose(seen), seat)
    assert updates > 80
    assert restarts <= updates // 20  # the replay follows the table; it rarely has to deal afresh


def assert_agrees(p: Game, seen: View, game: Game) -> None:
    assert sorted(p.hands[0]) == sorted(seen.hand)
    assert [len(h) for h in p.hands] == list(seen.hand_counts)
    assert p.discard == list(seen.discard)
    assert len(p.stock) == seen.stock_count and p.to_act == seen.to_act
    every = Counter(p.stock) + Counter(p.discard) + sum((Counter(h) for h in p.hands), Counter())
    assert every == Counter(game.rules.pack(2))


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_paired_test_lets_the_model_play_the_rest_of_the_turn_and_the_others_next_turn(seed: int) -> None:
    game = Game(load_preset("action"), 2, seed)
    me = game.to_act
    played = game.clone(log=True)
    played.apply(played.legal_actions()[0])
    asked: list[tuple[int, int]] = []  # the length of the log and the seat, at each question

    class Model(HeuristicBot):
        def decide(self, seen: View) -> tuple[Action, str]:
            assert seen.seat is not None
            asked.append((len(played.log or ()), seen.seat))
            return super().decide(seen)

    start = len(played.log or ())
    rollout(played, played.round_index, random.Random(1), played.t.wild, 1 << 30, Model(1), me)
    log = played.log or []
    acts = [(i, e.seat) for i, e in enumerate(log) if i >= start and isinstance(e, CardPlayed | CardsDrawn | Passed)]
    theirs = next(i for i, seat in acts if seat != me)  # the others' next turn starts ...
    back = next(i for i, seat in acts if seat == me and i > theirs)  # ... and ends when the seat acts again
    assert any(seat != me for _, seat in asked)
    assert all(at <= theirs for at, seat in asked if seat == me)  # the seat's choices: only the rest of its turn
    assert all(at <= back for at, _ in asked)  # then the cheap policy, for everyone ...
    assert any(seat != me for i, seat in acts if i > back)  # ... though the others play on


def test_the_expert_reads_the_other_player_only_where_the_normal_player_plans() -> None:
    bot = ISMCTSBot(1, seconds=None, iterations=50)
    two = view(Game(load_preset("action"), 2, 1), 0)
    three = view(Game(load_preset("action"), 3, 1), 0)
    race = view(Game(load_preset("race"), 2, 1), 0)
    assert bot.modelled(two)
    assert not bot.modelled(three) and not bot.modelled(race)
    assert not ISMCTSBot(1, seconds=None, iterations=50, model=False).modelled(two)
    assert isinstance(bot.worlds(two), Belief) and isinstance(bot.worlds(three), Worlds)


# ----- the hard level overshot its 0.2 s budget: the belief's update could not be interrupted -----


def test_the_belief_update_stops_at_its_deadline() -> None:
    """Past its budget's deadline an update replays one particle (a few, if none lives) and keeps a full,
    usable belief; without a budget it replays them all. Counts only: a deadline of 0 has always passed."""
    rules = load_preset("classic")
    calls = {}
    for deadline in (0.0, None):
        game = Game(rules, 2, 507)
        bots = [HeuristicBot(7), HeuristicBot(57)]
        belief = belief_for(7)
        asked = 0
        move = belief.model.quick_move

        def counted(
            game: Game,
            voids: set[int] | None = None,
            budget: Budget | None = None,
            move: Callable[[Game, set[int] | None, Budget | None], Action] = move,
        ) -> Action:
            nonlocal asked
            asked += 1
            return move(game, voids, budget)

        belief.model.quick_move = counted  # type: ignore[method-assign]
        replays: list[int] = []
        while not game.is_over:
            seat = game.to_act
            seen = view(game, seat)
            if seat == 0 and len(seen.legal) > 1:
                belief.update(seen, None if deadline is None else Budget(10**9, deadline))
                replays.append(belief.replayed)
                assert len(belief.particles) == len(belief.weights) == 128
                for p in belief.particles:
                    assert_agrees(p, seen, game)
                assert_agrees(belief.deal(), seen, game)
                if deadline is not None:
                    assert belief.replayed <= DEADLINE_TRIES
                    assert belief.cut == (belief.replayed > 0)
                else:
                    assert belief.replayed in (0, 128) and not belief.cut
            game.play(bots[seat].choose(seen), seat)
        assert len(replays) > 5 and any(replays)
        calls[deadline] = asked
    assert calls[0.0] * 10 < calls[None]  # the model was asked far less


def test_the_hard_bot_counts_the_belief_update_against_its_time_budget() -> None:
    # A budget already spent at the first look at the clock: the belief's update stops at once, the tree
    # runs one iteration and the paired test one deal, and the move is still legal.
    game = Game(load_preset("classic"), 2, 21)
    bot = ISMCTSBot(5, seconds=1e-9)
    other = HeuristicBot(6)
    decisions = 0
    while not game.is_over:
        seat = game.to_act
        seen = view(game, seat)
        if seat == 0 and len(seen.legal) > 1:
            move = bot.choose(seen)
            assert move in seen.legal
            assert bot.belief.replayed <= DEADLINE_TRIES
            assert bot.last_iterations <= 1 + 1 + DUEL_RIVALS
            decisions += 1
        else:
            move = (bot if seat == 0 else other).choose(seen)
        game.play(move, seat)
    assert decisions >= 5
