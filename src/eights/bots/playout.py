"""The search's inner loops: the tree's iterations, the paired test's play-outs and their rewards.

``eights.bots.ismcts`` drives them (its docstring says what they do and why); they live here
so that the install compiles them with the engine (``eights._build.COMPILED``): they are where
a search spends its time, one engine step after another.
"""

from __future__ import annotations

import math
import random
from typing import Any, cast

from eights.bots.belief import Dealer
from eights.bots.heuristic import HeuristicBot
from eights.bots.turnplan import Budget
from eights.cards import SUITS
from eights.engine.actions import NAME_SUIT, Action, Play
from eights.engine.game import Game, randbelow
from eights.rules import RuleSet

# An edge of the tree: [visits, reward sum, times available, children by seat to act].
VISITS, TOTAL, AVAIL, CHILDREN = range(4)
Edge = list[Any]
Node = dict[Action, Edge]


def grow(
    root: Node,
    worlds: Dealer,
    reward: Reward,
    rng: random.Random,
    c: float,
    depth: int,
    wild: bytes,
    limit: int,
    budget: Budget,
) -> int:
    """Grow the tree below ``root`` by up to ``limit`` iterations, until ``budget`` is spent (its
    positions, each step of the walk and of the roll-out counted, or its time; one iteration at
    least); the iterations run.

    Each deals a world, walks down the tree (an untried action first, else UCT with
    availability counts), rolls out with the cheap policy and backs up the rewards.
    """
    log = math.log
    sqrt = math.sqrt
    done = 0
    while done < limit:
        if done and budget.over():
            break
        done += 1
        game = worlds.deal()
        r0 = game.round_index
        node = root
        path: list[tuple[Edge, int]] = []
        # Selection and expansion.
        while True:
            legal = game.legal_actions()
            seat = game.to_act
            if len(legal) == 1:
                action = legal[0]
                edge = node.get(action)
                if edge is None:
                    edge = node[action] = [0, 0.0, 0, None]
                edge[AVAIL] += 1
                expanded = False
            else:
                untried: list[Action] | None = None
                for a in legal:
                    e = node.get(a)
                    if e is None:
                        if untried is None:
                            untried = [a]
                        else:
                            untried.append(a)
                    else:
                        e[AVAIL] += 1
                if untried is not None:
                    action = untried[randbelow(rng, len(untried))] if len(untried) > 1 else untried[0]
                    edge = node[action] = [0, 0.0, 1, None]
                    expanded = True
                else:
                    best = -1.0
                    action = legal[0]
                    edge = node[action]
                    for a in legal:
                        e = node[a]
                        v: int = e[VISITS]
                        score = e[TOTAL] / v + c * sqrt(log(e[AVAIL]) / v)
                        if score > best:
                            best = score
                            action = a
                            edge = e
                    expanded = False
            path.append((edge, seat))
            game.apply(action)
            budget.nodes += 1
            if game.round_index != r0 or expanded:
                break
            children: dict[int, Node] | None = edge[CHILDREN]
            nxt = game.to_act
            if children is None:
                children = edge[CHILDREN] = {}
            child = children.get(nxt)
            if child is None:
                child = children[nxt] = {}
                node = child
                # A new node: no statistics yet, so roll out from here.
                break
            node = child
        rewards = reward(rollout(game, r0, rng, wild, depth, None, -1, budget), r0)
        for edge, seat in path:
            edge[VISITS] += 1
            edge[TOTAL] += rewards[seat]
    return done


def duel(
    worlds: Dealer,
    actions: list[Action],
    reward: Reward,
    rng: random.Random,
    wild: bytes,
    depth: int,
    model: HeuristicBot | None,
    me: int,
    limit: int,
    budget: Budget,
) -> tuple[list[float], list[float], int]:
    """The paired test's play-outs: each deal played out once after each of ``actions``, with the
    same random choices afterwards; per action after the first, the sum of its gains over the
    first and of their squares, and the deals played (up to ``limit``, until ``budget`` is spent;
    one at least)."""
    rivals = len(actions) - 1
    sums = [0.0] * rivals
    squares = [0.0] * rivals
    # Reseeded for every play-out: the same random choices after each action.
    shuffles = random.Random(0)
    choices = random.Random(0)
    deals = 0
    while deals < limit and (not deals or not budget.over()):
        world = worlds.deal()
        seed = rng.getrandbits(48)
        r0 = world.round_index
        first = 0.0
        for i, action in enumerate(actions):
            shuffles.seed(seed)
            game = world.clone(rng=shuffles)
            game.apply(action)
            budget.nodes += 1
            choices.seed(seed ^ 1)
            got = reward(rollout(game, r0, choices, wild, depth, model, me, budget), r0)[me]
            if i == 0:
                first = got
            else:
                d = got - first
                sums[i - 1] += d
                squares[i - 1] += d * d
        deals += 1
    return sums, squares, deals


def rollout(
    game: Game,
    r0: int,
    rng: random.Random,
    wild: bytes,
    depth: int,
    model: HeuristicBot | None = None,
    me: int = -1,
    budget: Budget | None = None,
) -> Game:
    """Play ``game`` on to the end of round ``r0`` (or ``depth`` actions) with the cheap policy.

    A random card when one plays (a wild only when nothing else does), else the other
    action; a wild names the suit of a random card of the hand. With ``model``, the
    model makes the choices of the rest of ``me``'s turn and of the other seats' next
    turn (until ``me`` acts again). With ``budget``, each step counts in its positions (and
    the model's plans count theirs), and the play-out stops, cut short, once they are spent.
    """
    steps = 0
    turn = 0 if model is not None else 2  # 0: the rest of me's turn, 1: the others' next turn, 2: after
    while game.round_index == r0 and steps < depth:
        if budget is not None:
            if budget.nodes >= budget.limit:
                break
            budget.nodes += 1
        legal = game.legal_actions()
        k = len(legal)
        if turn < 2:
            if game.to_act != me:
                turn = 1
            elif turn == 1:
                turn = 2
        if k == 1:
            game.apply(legal[0])
        elif model is not None and turn < 2:
            game.apply(model.quick_move(game, None, budget))
        else:
            first = legal[0]
            if type(first) is Play:
                if type(legal[-1]) is not Play:
                    k -= 1
                action = legal[randbelow(rng, k)] if k > 1 else first
                if k > 1 and wild[cast(Play, action).card]:
                    # Keep wilds for when nothing else plays.
                    for a in legal:
                        if type(a) is Play and not wild[a.card]:
                            action = a
                            break
                game.apply(action)
            elif first is NAME_SUIT[0]:
                hand = game.hands[game.turn]
                suit = SUITS[hand[randbelow(rng, len(hand))]] if hand else 4
                game.apply(NAME_SUIT[suit] if suit < 4 else legal[randbelow(rng, k)])
            else:
                game.apply(legal[randbelow(rng, k)])
        steps += 1
    return game


class Reward:
    """Each seat's reward for a play-out: its share of the round won, or where points decide
    the match, the round's points against the others'; a play-out cut short, by hand sizes."""

    def __init__(self, rules: RuleSet, n: int, points_weight: float) -> None:
        self.n = n
        self.teams = rules.teams
        self.own_hand = rules.scoring == "own_hand"
        self.weight = points_weight if rules.points_decide(n) else 0.0

    def __call__(self, game: Game, r0: int) -> list[float]:
        if game.round_index == r0:
            return hand_estimate(game, self.n)
        return round_rewards(game, self.n, self.teams, self.weight, self.own_hand, 40.0)


def round_rewards(game: Game, n: int, teams: bool, weight: float, own_hand: bool, scale: float) -> list[float]:
    """Each seat's reward for the round just ended (or the match, when it ended too)."""
    outcome = game.outcome
    last = game.last_round
    assert last is not None
    winners = outcome.winners if outcome is not None else last.winners
    rewards = [0.0] * n
    if winners:
        if teams:
            half = n // 2
            sides = {w % half for w in winners}
            share = 1.0 / len(sides)
        else:
            share = 1.0 / len(winners)
        for w in winners:
            rewards[w] = share
    if outcome is not None or not weight:
        return rewards
    points = last.points
    total = sum(points)
    out = []
    for seat in range(n):
        others = (total - points[seat]) / (n - 1)
        gain = others - points[seat] if own_hand else points[seat] - others
        out.append((1.0 - weight) * rewards[seat] + weight * (0.5 + 0.5 * math.tanh(gain / scale)))
    return out


def hand_estimate(game: Game, n: int) -> list[float]:
    """Rewards for a rollout cut short: the fewer cards a seat holds, the likelier it wins."""
    weights = [math.exp(-0.7 * len(hand)) for hand in game.hands]
    total = sum(weights)
    return [w / total for w in weights]
