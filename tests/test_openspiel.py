"""The OpenSpiel game python_eights: OpenSpiel's own random simulation test for every preset, the same
games action for action through pyspiel and through eights, and OpenSpiel's ISMCTS and MCTS bots."""

from __future__ import annotations

import random

import pytest

from eights.encoding import ActionSpace, encode
from eights.engine import Game, view
from eights.rules import PRESETS, load_preset
from tests.extras import need

pyspiel = need("pyspiel", "research")
np = need("numpy", "research")

import eights.openspiel  # noqa: E402  (registers python_eights)
from eights.openspiel import SEED_BYTES, EightsState  # noqa: E402


def load(preset: str, players: int, options: str = "") -> object:
    return pyspiel.load_game("python_eights", {"preset": preset, "players": players, "options": options})


def deal(state: object, seed: int) -> None:
    """Draw the seed's bytes at the chance nodes, most significant first."""
    for byte in seed.to_bytes(SEED_BYTES, "big"):
        assert state.is_chance_node()
        state.apply_action(byte)


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [
        *((preset, 2, "") for preset in PRESETS),
        ("classic", 5, ""),
        ("action", 4, "stacking=true"),
        ("derange", 4, "packs=2;rounds=4,3"),
        ("baby-eating", 4, "teams=true"),
        ("race", 3, ""),
    ],
)
def test_openspiel_random_sim_test(preset: str, players: int, options: str) -> None:
    pyspiel.random_sim_test(load(preset, players, options), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("preset", "players", "options"), [("race", 3, ""), ("baby-eating", 4, ""), ("action", 3, "stacking=true")]
)
def test_lockstep_pyspiel_and_eights_agree_action_for_action(preset: str, players: int, options: str) -> None:
    game = pyspiel.load_game(f"python_eights(preset={preset},players={players},options={options.replace('=', ':')})")
    rules = load_preset(preset).with_options([o for o in options.split(";") if o])
    space = ActionSpace(rules, players)
    rng = random.Random(preset)
    for seed in (1, 2**47 + 12345, 9_999_999):
        state = game.new_initial_state()
        deal(state, seed)
        ours = Game(rules, players, seed=seed)
        steps = 0
        while not ours.is_over:
            assert not state.is_terminal()
            assert state.current_player() == ours.to_act
            legal = sorted(space.number(a) for a in ours.legal_actions())
            assert state.legal_actions() == legal
            seat = ours.to_act
            assert state.observation_tensor(seat) == pytest.approx(encode(view(ours, seat)))
            action = legal[rng.randrange(len(legal))]
            assert state.action_to_string(seat, action) == str(space.actions[action])
            state = state.child(action)  # a clone each time: OpenSpiel's copy is played on
            ours.play(space.actions[action], seat)
            steps += 1
        assert state.is_terminal()
        assert ours.outcome is not None
        assert state.returns() == [1.0 if s in ours.outcome.winners else -1.0 for s in range(players)]
        assert len(state.history()) == SEED_BYTES + steps


def test_resampled_worlds_keep_the_seat_s_information_state() -> None:
    game = load("action", 3)
    state = game.new_initial_state()
    deal(state, 77)
    rng = random.Random(3)
    for _ in range(12):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(20):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        assert isinstance(world, EightsState) and world.game is not None
        others.add(tuple(tuple(sorted(h)) for s, h in enumerate(world.game.hands) if s != player))
    assert len(others) > 1  # the hidden hands are dealt afresh


def test_public_observer_sees_no_hand_and_strings_tell_the_seat_s_past() -> None:
    game = load("classic", 2)
    state = game.new_initial_state()
    deal(state, 5)
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observer = eights.openspiel.EightsObserver(public, 2)
    observer.set_from(state, 0)
    assert not observer.dict["hand"].any()
    assert state.observation_tensor(0)[:54] != [0.0] * 54
    assert isinstance(state, EightsState) and state.game is not None
    hand = " ".join(str(c) for c in sorted(state.game.hands[1]))
    assert state.information_state_string(1).endswith(f"seat 1 holds {hand}")
    assert hand not in state.information_state_string(0)


def test_bad_parameters_are_refused_in_words() -> None:
    with pytest.raises(Exception, match="valid presets"):
        load("nope", 2)
    with pytest.raises(Exception, match="players: 9"):
        load("classic", 9)


def test_openspiel_ismcts_and_mcts_play_it() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("classic", 2, "deal=3")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=20, random_state=rng),
        mcts.MCTSBot(game, 2.0, 20, evaluator, random_state=rng),
    ]
    for seed in (1, 2):
        state = game.new_initial_state()
        deal(state, seed)
        while not state.is_terminal():
            state.apply_action_with_legality_check(bots[state.current_player()].step(state))
        # ISMCTS resamples with OpenSpiel's unseeded sampler, so the game is not the same each run;
        # a blocked round can end in a tie, which both seats win
        returns = state.returns()
        assert set(returns) <= {-1.0, 1.0} and 1.0 in returns
        assert isinstance(state, EightsState) and state.game is not None and state.game.outcome is not None
        assert returns == [1.0 if s in state.game.outcome.winners else -1.0 for s in range(2)]


def test_options_load_from_a_dict_and_from_the_game_s_own_string() -> None:
    game = load("derange", 4, "packs=2;rounds=3,2;short_rounds=false")
    assert isinstance(game, eights.openspiel.EightsGame)
    assert game.rules == load_preset("derange").with_options(["packs=2", "rounds=3,2", "short_rounds=false"])
    again = pyspiel.load_game(str(game))
    assert isinstance(again, eights.openspiel.EightsGame) and again.rules == game.rules
    with pytest.raises(Exception, match="is not KEY=VALUE"):
        load("derange", 4, "packs")
