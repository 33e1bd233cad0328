"""The computer players: every level plays every preset legally, from its seat's view alone.

A bot's only input is ``view(game, seat)``: two games that differ only in cards the
seat cannot see give the same view, and so the same decision from identically seeded
bots; a view reaches no ``Game`` and outlives it. The search levels run on an
iteration budget here (``iterations=20``), which makes them deterministic and fast.
"""

from __future__ import annotations

import gc
import random
import time
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eights.bots import LEVELS, HeuristicBot, Hint, ISMCTSBot, RandomBot, make_bot
from eights.bots.ismcts import DUEL_RIVALS
from eights.cards import Card
from eights.engine import Game, View, view
from eights.engine.actions import Draw, Play
from eights.engine.phases import PHASES
from eights.rules import load_preset
from tests.support.scripting import scripted

SEARCH_LEVELS = ("hard", "expert")
#: The iteration budget of the search levels in these tests.
ITERATIONS = 20


def bot(level: str, seed: int | None, iterations: int = ITERATIONS) -> Any:
    """A bot of ``level``; the search levels on an iteration budget (deterministic)."""
    budget = {"iterations": iterations} if level in SEARCH_LEVELS else {}
    return make_bot(level, seed, **budget)


def new_game(preset: str, players: int, options: list[str], seed: int) -> Game:
    return Game(load_preset(preset).with_options(options), players, seed=seed)


#: (preset, players, options): every preset and the options that change play.
CASES: list[tuple[str, int, list[str]]] = [
    ("classic", 2, []),
    ("classic", 5, []),
    ("classic", 3, ["target=100"]),
    ("action", 2, ["stacking=true"]),
    ("action", 3, ["stacking=true", "score_keeping=true", "target=150"]),
    ("action", 4, ["score_keeping=true", "target=100"]),
    ("action", 9, ["packs=2"]),
    ("race", 2, []),
    ("race", 4, []),
    ("derange", 4, ["rounds=2,1"]),
    ("derange", 3, ["short_rounds=true"]),
    ("derange", 6, ["packs=2", "rounds=3,1"]),
    ("baby-eating", 2, []),
    ("baby-eating", 3, []),
    ("baby-eating", 4, ["teams=true"]),
    ("baby-eating", 6, ["teams=true"]),
    ("baby-eating", 4, ["expanded_deck=true"]),
    ("baby-eating", 7, []),
]


def case_id(case: tuple[str, int, list[str]]) -> str:
    preset, players, options = case
    return f"{preset}-{players}p" + (f"-{','.join(options)}" if options else "")


def positions(preset: str, players: int, options: list[str], seed: int, every: int = 7) -> list[Game]:
    """Copies of a game (with its log) at every ``every``-th decision and at every decision
    outside the plain play phase (suit names, jack drops, burials, 5 and 7 targets, follow-me),
    reached by random players."""
    game = new_game(preset, players, options, seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not game.is_over:
        legal = game.legal_actions()
        if len(legal) > 1 and (step % every == 0 or game.phase_name != "play"):
            out.append(game.clone(log=True))
        game.play(legal[rng.randrange(len(legal))], game.to_act)
        step += 1
    return out


# ----- the view is all a bot gets ------------------------------------------------------------


def hidden_twin(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` with every card ``seat`` cannot see dealt again: the others' hands and the
    stock shuffled together and dealt back at the same sizes, and a new RNG for later shuffles.
    Where the shuffle happens to deal them back as they were, they move on by one place, so
    the twin differs whenever the hidden cards are not all alike."""
    twin = game.clone(log=True)
    others = [s for s in range(game.players) if s != seat]
    before = [c for s in others for c in twin.hands[s]] + twin.stock
    pool = before[:]
    rng.shuffle(pool)
    if pool == before:
        pool = pool[1:] + pool[:1]
    for s in others:
        size = len(twin.hands[s])
        twin.hands[s] = pool[:size]
        del pool[:size]
    twin.stock = pool
    twin.rng = random.Random(rng.getrandbits(64))
    return twin


@settings(max_examples=40)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 10_000),
    pick=st.integers(0, 1_000),
    shuffle=st.integers(0, 1_000),
    bot_seed=st.integers(0, 1_000),
)
def test_games_differing_only_in_hidden_cards_get_the_same_decisions(case, seed, pick, shuffle, bot_seed):
    preset, players, options = case
    found = positions(preset, players, options, seed)
    if not found:
        return
    game = found[pick % len(found)]
    seat = game.to_act
    twin = hidden_twin(game, seat, random.Random(shuffle))
    others = [s for s in range(players) if s != seat]
    if len({c for s in others for c in game.hands[s]} | set(game.stock)) > 1:
        # The twin really is another game: some hidden card sits elsewhere (or in another order).
        assert [twin.hands[s] for s in others] + [twin.stock] != [game.hands[s] for s in others] + [game.stock]
    seen = view(game, seat)
    assert view(twin, seat) == seen
    for level in LEVELS:
        a = bot(level, bot_seed).choose(seen)
        b = bot(level, bot_seed).choose(view(twin, seat))
        assert a == b, (level, case, seen.phase)
        assert a in seen.legal
        # The decision is legal in both games: the checked door takes it.
        game.clone(log=True).play(a, seat)
        twin.clone(log=True).play(b, seat)


#: What the walk does not enter: classes, modules and code lead to everything.
SKIP = (type, types.ModuleType, types.FunctionType, types.CodeType, types.BuiltinFunctionType)


def objects_reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through its data (not through classes, modules or code)."""
    seen = {id(root)}
    todo = [root]
    out = []
    while todo:
        obj = todo.pop()
        out.append(obj)
        for ref in gc.get_referents(obj):
            if isinstance(ref, SKIP):
                continue
            if id(ref) not in seen:
                seen.add(id(ref))
                todo.append(ref)
    return out


@pytest.mark.parametrize("case", CASES[::3], ids=case_id)
def test_a_view_holds_no_game_and_outlives_it(case):
    preset, players, options = case
    game = positions(preset, players, options, seed=11)[-1]
    seat = game.to_act
    seen = view(game, seat)
    assert isinstance(seen, View)
    assert any(isinstance(o, Game) for o in objects_reachable([seen, game]))  # the walk finds a game
    reachable = objects_reachable(seen)
    assert any(isinstance(o, type(seen.history[0])) for o in reachable)  # it walks into the view's data
    assert not [o for o in reachable if isinstance(o, Game)], "a view must not reach the game"
    expected = {level: bot(level, 5).choose(seen) for level in LEVELS}
    # The game moves on (and is then dropped): the view is a snapshot, and enough to decide.
    game.play(game.legal_actions()[0], seat)
    del game
    gc.collect()
    for level in LEVELS:
        assert bot(level, 5).choose(seen) == expected[level]


def test_bots_are_handed_a_view_not_a_game():
    game = new_game("classic", 2, [], seed=3)
    for level in LEVELS:
        b = bot(level, 1)
        with pytest.raises(AttributeError):
            b.choose(game)  # a game has no view's fields: the bot reads only what a view holds


@pytest.mark.parametrize("level", LEVELS)
def test_a_seat_with_nothing_to_do_gets_an_error_not_a_move(level):
    game = new_game("classic", 3, [], seed=2)
    idle = (game.to_act + 1) % 3
    with pytest.raises(ValueError, match=f"seat {idle} has nothing to do"):
        bot(level, 1).choose(view(game, idle))


# ----- every level plays every preset legally ------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_finishes_every_preset_through_the_checked_door(level):
    phases: set[str] = set()
    out_of_turn = 0
    seeds = range(1) if level in SEARCH_LEVELS else range(3)
    for case in CASES:
        preset, players, options = case
        for seed in seeds:
            game = new_game(preset, players, options, seed=100 + seed)
            bots = [bot(level, seed * 31 + s) for s in range(players)]
            while not game.is_over:
                seat = game.to_act
                seen = view(game, seat)
                action = bots[seat].choose(seen)
                assert action in seen.legal, (case, seen.phase, action)
                phases.add(seen.phase)
                out_of_turn += seat != game.turn
                game.play(action, seat)  # the checked door: raises IllegalAction on an illegal one
            outcome = game.outcome
            assert outcome is not None and outcome.winners, case
            if game.rules.schedule:
                assert outcome.rounds == len(game.rules.schedule)
            elif preset == "race":
                assert max(outcome.totals) >= 50 * players
    # Every kind of decision came up, out-of-turn ones included (jack drops and burials by other seats);
    # only ``follow_drawn`` (a drawn card that follows must be played: a forced move) may not.
    assert set(PHASES) - {"over", "follow_drawn"} <= phases, set(PHASES) - phases
    assert out_of_turn > 0


# ----- the search's budget -------------------------------------------------------------------


def several_choices() -> View:
    game = scripted("classic", ["4C 5C 9C 2D 3D", "6H 7H 9H JS KS"], "7C", "QH QD QS", dealer=1)
    seen = view(game, 0)
    assert len(seen.legal) == 4  # 4C, 5C, 9C or draw (classic draws at will)
    return seen


def one_choice() -> View:
    # Action: a player who holds nothing that plays must draw (no draw at will).
    game = scripted("action", ["4C 5C 9D", "5D 6S 9S", "9C JC 3D"], "7H", "KS QS JD", dealer=2)
    seen = view(game, 0)
    assert len(seen.legal) == 1
    return seen


@pytest.mark.parametrize("level", SEARCH_LEVELS)
@pytest.mark.parametrize("iterations", [1, 7, 50, 400])
def test_an_iteration_budget_bounds_the_simulations_and_the_tree_gets_half(level, iterations):
    seen = several_choices()
    b = make_bot(level, 3, iterations=iterations)
    assert b.choose(seen) in seen.legal
    assert max(1, iterations // 2) <= b.last_iterations <= iterations


@pytest.mark.parametrize("level", SEARCH_LEVELS)
def test_a_forced_move_returns_at_once_without_searching(level):
    b = make_bot(level, 3, iterations=10)
    b.choose(several_choices())
    assert 5 <= b.last_iterations <= 10
    seen = one_choice()
    slow = make_bot(level, 3, seconds=30.0)  # a long budget it must not spend
    start = time.perf_counter()
    for searcher in (b, slow):
        assert searcher.choose(seen) == seen.legal[0]
        assert searcher.last_iterations == 0
    assert time.perf_counter() - start < 1.0
    assert b.hint(seen) == Hint(seen.legal[0], "the only legal move")


def test_time_and_iteration_budgets_stop_at_whichever_comes_first():
    seen = several_choices()
    b = ISMCTSBot(1, seconds=30.0, iterations=12)
    b.choose(seen)
    assert 6 <= b.last_iterations <= 12
    b = ISMCTSBot(1, seconds=0.05, iterations=10**9)
    start = time.perf_counter()
    b.choose(seen)
    assert time.perf_counter() - start < 1.0
    assert 0 < b.last_iterations < 10**9


def test_a_spent_time_budget_stops_the_tree_and_the_paired_test_after_one_deal_each():
    seen = several_choices()
    b = ISMCTSBot(1, seconds=1e-9)
    action = b.choose(seen)
    assert b.last_iterations <= 1 + 1 + DUEL_RIVALS  # one tree iteration, one deal for each action tested
    assert action == HeuristicBot(1).decide(seen)[0]  # too few deals to override the normal player


@pytest.mark.parametrize(
    ("budget", "message"),
    [
        ({"seconds": None, "iterations": None}, "needs a budget: seconds, iterations or both"),
        ({"seconds": None}, "needs a budget"),
        ({"iterations": 0}, "iterations: 0 is not a budget; give a whole number, 1 or more"),
        ({"iterations": 2.5}, "iterations: 2.5 is not a budget; give a whole number"),
        ({"iterations": True}, "iterations: True is not a budget"),
        ({"iterations": -5}, "iterations: -5 is not a budget"),
        ({"seconds": 0}, "seconds: 0 is not a budget; give a positive time"),
        ({"seconds": -1.0}, "seconds: -1.0 is not a budget"),
    ],
)
def test_invalid_budgets_are_refused(budget, message):
    with pytest.raises(ValueError, match=message):
        ISMCTSBot(1, **budget)
    with pytest.raises(ValueError, match=message):
        make_bot("expert", 1, **budget)


def test_make_bot_names_the_valid_levels_and_refuses_misplaced_budgets():
    with pytest.raises(ValueError, match="unknown bot level 'wizard'; valid: easy, normal, learned, hard, expert"):
        make_bot("wizard")
    with pytest.raises(ValueError, match="the easy level does not search: it takes no budget"):
        make_bot("easy", 1, iterations=5)
    with pytest.raises(ValueError, match="the normal level does not search"):
        make_bot("normal", 1, seconds=1.0)
    with pytest.raises(ValueError, match="bad budget for hard"):
        make_bot("hard", 1, horizon=3)


def test_make_bot_gives_each_level_its_player():
    assert isinstance(make_bot("easy", 1), RandomBot)
    assert isinstance(make_bot("normal", 1), HeuristicBot)
    hard, expert = make_bot("hard", 1), make_bot("expert", 1)
    assert isinstance(hard, ISMCTSBot) and isinstance(expert, ISMCTSBot)
    assert (hard.seconds, hard.iterations) == (0.2, None)
    assert (expert.seconds, expert.iterations) == (1.0, None)
    assert make_bot("hard", 1, iterations=9).seconds is None  # iterations alone: no time limit
    for level in LEVELS:
        assert make_bot(level, 1).name == level


# ----- hints ------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_every_hint_is_a_legal_action_with_a_reason(level):
    phases = set()
    for preset, players, options in CASES[::2]:
        for game in positions(preset, players, options, seed=7, every=17):
            seen = view(game, game.to_act)
            hint = bot(level, 9).hint(seen)
            assert isinstance(hint, Hint)
            assert hint.action in seen.legal
            assert isinstance(hint.reason, str) and hint.reason.strip()
            # The hint is the move the same bot would make.
            assert hint.action == bot(level, 9).choose(seen)
            phases.add(seen.phase)
    assert {"play", "name_suit", "drop_jacks", "choose_swap"} <= phases


# ----- seeded determinism ------------------------------------------------------------------------


def play_seeded(level: str, case: tuple[str, int, list[str]], seed: int, disturb: int | None) -> list:
    """A game between bots of ``level``; the global RNG reseeded before every decision when ``disturb``."""
    preset, players, options = case
    game = new_game(preset, players, options, seed=seed)
    bots = [bot(level, seed + s) for s in range(players)]
    while not game.is_over:
        if disturb is not None:
            random.seed(disturb * 100_003 + len(game.actions))
            random.random()
        seat = game.to_act
        game.play(bots[seat].choose(view(game, seat)), seat)
    return list(game.actions)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("case", [CASES[0], CASES[14]], ids=case_id)
def test_the_same_seed_makes_the_same_decisions_whatever_the_global_rng(level, case):
    first = play_seeded(level, case, 40, disturb=None)
    assert play_seeded(level, case, 40, disturb=1) == first
    assert play_seeded(level, case, 40, disturb=2) == first


def test_another_seed_makes_other_decisions():
    seen = positions("classic", 2, [], seed=3)[0]
    view0 = view(seen, seen.to_act)
    # The search without its paired test, so that the tree's own sampling decides.
    for make in (lambda s: RandomBot(s), lambda s: ISMCTSBot(s, seconds=None, iterations=ITERATIONS, trust=None)):
        choices = {make(s).choose(view0) for s in range(30)}
        assert len(choices) > 1


# ----- the search's trust in the normal player -------------------------------------------------


def test_the_paired_test_plays_every_action_on_the_same_deals():
    # The same action against itself on common deals and play-outs: every difference is zero.
    seen = several_choices()
    b = ISMCTSBot(5, seconds=None, iterations=100)
    usual = HeuristicBot(5).choose(seen)
    [(rival, gain, se, deals)] = b.duel(seen, usual, [usual], rollouts=60, deadline=None)
    assert (rival, gain, se, deals) == (usual, 0.0, 0.0, 30)


def test_the_paired_test_finds_the_move_that_goes_out():
    # Laying the last card wins at once; drawing instead (classic draws at will) loses some deals.
    game = scripted("classic", ["5D", "KH"], "5H", "7C 7D 6S 6D 9S 9D", dealer=1)
    seen = view(game, 0)
    out, draw = seen.legal
    assert isinstance(out, Play) and isinstance(draw, Draw)
    b = ISMCTSBot(2, seconds=None, iterations=100)
    [(rival, gain, se, deals)] = b.duel(seen, draw, [out], rollouts=100, deadline=None)
    assert rival == out and deals == 50
    assert gain > 3 * se > 0


def test_a_move_that_wins_the_paired_test_replaces_the_normal_players_and_says_by_how_much():
    game = scripted("classic", ["5D", "KH"], "5H", "7C 7D 6S 6D 9S 9D", dealer=1)
    seen = view(game, 0)
    out, draw = seen.legal
    b = ISMCTSBot(2, seconds=None, iterations=200)
    normal = HeuristicBot(2).decide
    b.guide.decide = lambda v: (draw, "draw") if v is seen else normal(v)  # a normal player that would not go out
    hint = b.hint(seen)
    [(rival, gain, _, deals)] = b.last_duel
    assert hint.action == out == rival
    assert hint.reason == f"{out}: scores {gain:+.0%} over the usual move on {deals} common deals"
    assert b.last_iterations <= 200


@pytest.mark.parametrize("case", CASES[::2], ids=case_id)
def test_a_search_that_trusts_the_normal_player_completely_plays_its_moves(case):
    preset, players, options = case
    for game in positions(preset, players, options, seed=5, every=5)[:8]:
        seen = view(game, game.to_act)
        trusting = ISMCTSBot(4, seconds=None, iterations=30, trust=1e9)
        assert trusting.choose(seen) == HeuristicBot(4).choose(seen)


def test_a_hint_for_a_move_kept_over_the_search_gives_the_normal_players_reason():
    kept = 0
    for game in positions("classic", 2, [], seed=3, every=1):
        seen = view(game, game.to_act)
        trusting = ISMCTSBot(4, seconds=None, iterations=30, trust=1e9)
        hint = trusting.hint(seen)
        if trusting._kept_usual is not None:
            kept += 1
            action, reason = HeuristicBot(4).decide(seen)
            assert 0 < trusting.last_iterations <= 30
            assert hint == Hint(action, f"{reason} (no move scored clearly better in {trusting.last_iterations} deals)")
    assert kept > 0


def test_without_trust_the_search_plays_the_action_it_searched_most():
    seen = several_choices()
    b = ISMCTSBot(4, seconds=None, iterations=300, trust=None)
    chosen = b.choose(seen)
    visits = {a: edge[0] for a, edge in b._last_root.items()}
    assert visits[chosen] == max(visits.values())


def test_a_search_too_short_to_try_the_normal_players_move_keeps_it():
    seen = several_choices()
    for seed in range(6):
        once = ISMCTSBot(seed, seconds=None, iterations=1, trust=1.0)
        assert once.choose(seen) == HeuristicBot(seed).choose(seen)


def test_the_tree_and_the_paired_test_deal_every_world_from_the_bots_dealer():
    # One place deals the worlds (a yardstick can give the search other worlds there), and
    # every world it deals keeps the seat's own hand and the table of the view.
    seen = several_choices()
    dealt: list[tuple[list[Card], list[Card]]] = []  # the seat's hand and the discard pile, as dealt

    class Counting(ISMCTSBot):
        def worlds(self, view: View) -> Any:
            dealer = super().worlds(view)
            deal = dealer.deal

            def recorded() -> Game:
                world = deal()
                dealt.append((sorted(world.hands[seen.seat]), world.discard[:]))
                return world

            return types.SimpleNamespace(deal=recorded)

    b = Counting(3, seconds=None, iterations=200)
    b.guide.decide = lambda v: (v.legal[-1], "the last")  # a move the search will test rivals against
    b.choose(seen)
    assert b.last_duel is not None
    duel_deals = b.last_duel[0][3]
    assert len(dealt) == 100 + duel_deals
    assert dealt == [(sorted(seen.hand), list(seen.discard))] * len(dealt)


# ----- issue 37: every search counts the positions it examines and stops at a budget of them -------------------


def test_a_search_stops_at_its_node_budget_on_a_pathological_hand() -> None:
    # The 50-card hands (2-player action, two packs): the belief's replays and the paired test's
    # play-outs ask the normal player's planner, and each step counts; the budget ends the decision.
    rules = load_preset("action").with_options({"packs": "2", "deal_two_players": "50", "deal_extra_packs": "50"})
    game = Game(rules, 2, 0)
    seen = view(game, game.to_act)
    moves, counts = [], []
    for _ in range(2):
        bot = ISMCTSBot(3, seconds=None, iterations=10**6, nodes=20_000)
        moves.append(bot.choose(seen))
        counts.append(bot.last_nodes)
    assert moves[0] in seen.legal
    assert 20_000 <= counts[0] <= 20_000 + 2 * len(seen.legal)  # a step or a plan's last position past it
    assert counts[0] == counts[1] and moves[0] == moves[1]  # a count: the same on every machine


def test_a_searchs_node_budget_follows_its_other_budgets() -> None:
    assert ISMCTSBot(1, seconds=None, iterations=100).node_budget() == 100 * 2_000
    assert ISMCTSBot(1, seconds=0.5).node_budget() == 2_500_000
    assert ISMCTSBot(1, seconds=0.5, iterations=100).node_budget() == 200_000
    assert ISMCTSBot(1, seconds=0.5, nodes=7).node_budget() == 7
    with pytest.raises(ValueError, match="nodes: 0 is not a budget"):
        ISMCTSBot(1, nodes=0)
