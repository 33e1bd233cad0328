"""The OpenSpiel game python_eights: OpenSpiel's own random simulation test for every preset, the same
games action for action through pyspiel and through eights, and OpenSpiel's ISMCTS and MCTS bots."""

from __future__ import annotations

import random

import pytest

from eights.bots.spec import BotSpecError, research_bot
from eights.engine import Game, view
from eights.research.encoding import ActionSpace, encode
from eights.research.observer import match_rewards
from eights.rules import PRESETS, load_preset
from tests.support.extras import need

pyspiel = need("pyspiel", "research")
np = need("numpy", "research")

import eights.research.openspiel  # noqa: E402  (registers python_eights)
from eights.research.openspiel import SEED_BYTES, EightsState, LevelBot, crazy_eights_action  # noqa: E402


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
    observer = eights.research.openspiel.EightsObserver(public, 2)
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
    assert isinstance(game, eights.research.openspiel.EightsGame)
    assert game.rules == load_preset("derange").with_options(["packs=2", "rounds=3,2", "short_rounds=false"])
    again = pyspiel.load_game(str(game))
    assert isinstance(again, eights.research.openspiel.EightsGame) and again.rules == game.rules
    with pytest.raises(Exception, match="is not KEY=VALUE"):
        load("derange", 4, "packs")


def random_states(game: object, games: int, seed: int) -> object:
    """Every player node of ``games`` random games: (state, player to act)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        deal(state, rng.getrandbits(48))
        while not state.is_terminal():
            yield state, state.current_player()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


def test_no_tensor_is_declared_perfect_recall_and_the_observation_tensor_is_not() -> None:
    """Issue 41: the game declared an information state tensor that was the observation's summary, which
    is not perfect recall (draw-draw-draw encodes like draw-pass-pass), and rl_environment, NFSP and Deep
    CFR read it. Now no tensor is declared perfect recall: asking for one says why, rl_environment reads
    the observation tensor, and the information state string stays perfect recall."""
    from open_spiel.python import rl_environment
    from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation

    game = load("classic", 2)
    kind = game.get_type()
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    assert not kind.provides_information_state_tensor
    assert make_observation(game, INFO_STATE_OBS_TYPE).tensor is None
    assert rl_environment.Environment(game)._use_observation
    seen: dict[bytes, str] = {}
    strings: dict[str, bytes] = {}
    collisions = 0
    for state, player in random_states(game, 100, 7):
        tensor = np.asarray(state.observation_tensor(player), np.float32).tobytes()
        past = state.information_state_string(player)
        collisions += seen.setdefault(tensor, past) != past
        # the string is perfect recall: one past, one string (a string never stands for two tensors)
        assert strings.setdefault(past, tensor) == tensor
    assert collisions, "the observation tensor forgets the order of draws and passes: not perfect recall"
    with pytest.raises(Exception, match="python_eights has no information state tensor"):
        state.information_state_tensor(player)


def test_the_safety_cap_ends_the_game_with_every_return_zero() -> None:
    game = load("classic", 3)
    game.rules = game.rules.replace(max_actions=12)  # the cap is no option: set on the loaded game
    state = game.new_initial_state()
    deal(state, 1)
    steps = 0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
        steps += 1
    assert steps == 12
    assert isinstance(state, EightsState) and state.capped
    assert state.game is not None and state.game.last_round is not None and state.game.last_round.reason == "cap"
    assert state.returns() == [0.0, 0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []
    assert state.clone().capped and state.clone().is_terminal()


def test_the_zero_sum_reward_is_declared_so_and_sums_to_zero() -> None:
    game = pyspiel.load_game("python_eights(players=2,reward=zero_sum)")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert load("classic", 2).get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    four = pyspiel.load_game("python_eights", {"players": 4, "reward": "zero_sum"})
    assert (four.min_utility(), four.max_utility()) == (-1.0, 3.0)
    rng = random.Random(4)
    for _ in range(20):
        state = game.new_initial_state()
        deal(state, rng.getrandbits(48))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        assert isinstance(state, EightsState) and state.game is not None and state.game.outcome is not None
        assert sum(state.returns()) == 0.0
        assert state.returns() == match_rewards(state.game.outcome.winners, 2, zero_sum=True)
    pyspiel.random_sim_test(four, num_sims=2, serialize=True, verbose=False)
    with pytest.raises(Exception, match="reward: 'points'; valid: outcome, zero_sum"):
        pyspiel.load_game("python_eights", {"players": 2, "reward": "points"})


def test_a_level_bot_plays_its_seat_from_its_view_against_ismcts() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("classic", 2, "deal=4")
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game=game, evaluator=evaluator, uct_c=2.0, max_simulations=10, random_state=rng),
        LevelBot(game, 1, "hard@20", seed=5),
    ]
    state = game.new_initial_state()
    deal(state, 9)
    first = True
    while not state.is_terminal():
        player = state.current_player()
        if player == 1 and first:
            # the level's own choice, from the seat's view
            assert isinstance(state, EightsState) and state.game is not None
            chosen = research_bot("hard@20", 5).choose(view(state.game, 1))
            assert bots[1].step(state) == state.space.number(chosen)
            bots[1] = LevelBot(game, 1, "hard@20", seed=5)
            first = False
        state.apply_action_with_legality_check(bots[player].step(state))
    assert not first and set(state.returns()) <= {-1.0, 1.0}
    with pytest.raises(ValueError, match="LevelBot: seat 1 does not act"):
        fresh = game.new_initial_state()
        deal(fresh, 2)
        while fresh.current_player() == 1:
            fresh.apply_action(fresh.legal_actions()[0])
        bots[1].step(fresh)
    with pytest.raises(BotSpecError, match="unknown bot 'wizard'"):
        LevelBot(game, 0, "wizard")


def test_our_58_actions_map_onto_openspiel_s_crazy_eights() -> None:
    """docs/research.md's table: the same card, draw, pass or suit under each game's own number."""
    space = ActionSpace(load_preset("classic"), 4)
    theirs = pyspiel.load_game("crazy_eights", {"players": 4}).new_initial_state()
    assert len(space) == 58
    words = {"draw": "Draw", "pass": "Pass"}
    for number, action in enumerate(space.actions):
        text = str(action)
        if text.startswith("play "):
            card = text.split()[1]
            expected = f"Play {card[-1]}{card[:-1].replace('10', 'T')}"
        elif text.startswith("suit "):
            expected = f"Nominate suit {text[-1]}"
        else:
            expected = words[text]
        assert theirs.action_to_string(0, crazy_eights_action(number)) == expected
    assert crazy_eights_action(0) == 48 and crazy_eights_action(4) == 0
    assert sorted(crazy_eights_action(n) for n in range(58)) == list(range(58))
    with pytest.raises(ValueError, match="action 58: crazy_eights has actions 0-57"):
        crazy_eights_action(58)
