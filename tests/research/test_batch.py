"""The batched environment: N games in one process, observations and masks as one array each, every row
the engine's view of its game's seat to act, rewards as PettingZoo's environment gives them, auto-reset,
and the same seed and actions giving the same arrays."""

from __future__ import annotations

import pytest

from eights.engine import Game, view
from eights.research.encoding import ActionSpace, encode, observation_size
from eights.research.observer import match_rewards
from eights.rules import RulesError, load_preset
from eights.seeds import game_seed
from tests.support.extras import need

np = need("numpy", "research")

from eights.research.batch import BatchEnv  # noqa: E402


def pick(masks: object, rng: object) -> object:
    """A random legal action per game."""
    return (masks * rng.random(masks.shape)).argmax(axis=1)


def test_rows_are_each_game_s_view_and_masks_its_legal_actions() -> None:
    batch = BatchEnv(6, "action", 3, {"stacking": True}, seed=4)
    rules = load_preset("action").with_options(["stacking=true"])
    space = ActionSpace(rules, 3)
    observations, masks, info = batch.reset()
    rng = np.random.default_rng(1)
    assert observations.shape == (6, observation_size(3))
    assert (observations.dtype, masks.dtype, masks.shape) == (np.float32, np.int8, (6, len(space)))
    for _ in range(120):
        for slot, game in enumerate(batch.games):
            seat = game.to_act
            assert info["seats"][slot] == seat
            assert observations[slot].tolist() == encode(view(game, seat))
            assert masks[slot].tolist() == space.mask(game.legal_actions())
        observations, masks, _, _, _, info = batch.step(pick(masks, rng))


def test_the_same_seed_and_actions_give_the_same_arrays_and_each_slot_deals_its_own_games() -> None:
    runs = []
    for _ in range(2):
        batch = BatchEnv(5, "classic", 2, seed=11)
        observations, masks, _ = batch.reset()
        rng = np.random.default_rng(2)
        trace = [observations.tobytes(), masks.tobytes()]
        for _ in range(300):
            out = batch.step(pick(masks, rng))
            masks = out[1]
            trace += [part.tobytes() for part in out[:5]] + [out[5]["seats"].tobytes()]
        runs.append(trace)
    assert runs[0] == runs[1]
    other = BatchEnv(5, "classic", 2, seed=12)
    assert other.reset()[0].tobytes() != runs[0][0]
    # game k of slot i is dealt from game_seed(seed, i + N * k), whatever the other slots do
    batch = BatchEnv(3, "classic", 2, seed=5)
    batch.reset()
    assert [g.seed for g in batch.games] == [game_seed(5, i) for i in range(3)]
    assert batch.reset(seed=6)[0].tobytes() == BatchEnv(3, "classic", 2, seed=6).reset()[0].tobytes()


def test_a_finished_game_pays_its_seats_and_is_replaced_at_once() -> None:
    batch = BatchEnv(4, "classic", 3, seed=3, reward="zero_sum")
    _, masks, _ = batch.reset()
    rng = np.random.default_rng(0)
    dealt = [1] * 4
    ended = 0
    for _ in range(600):
        before = [(g, g.to_act) for g in batch.games]
        observations, masks, rewards, terminated, truncated, info = batch.step(pick(masks, rng))
        assert not truncated.any()
        for slot, (game, _) in enumerate(before):
            if terminated[slot]:
                ended += 1
                assert game.outcome is not None
                assert rewards[slot].tolist() == match_rewards(game.outcome.winners, 3, zero_sum=True)
                fresh = Game(load_preset("classic"), 3, seed=game_seed(3, slot + 4 * dealt[slot]))
                dealt[slot] += 1
                assert batch.games[slot].seed == fresh.seed and batch.games[slot].hands == fresh.hands
                assert observations[slot].tolist() == encode(view(fresh, fresh.to_act))
                assert info["seats"][slot] == fresh.to_act
            else:
                assert not rewards[slot].any()
    assert ended >= 4


def test_the_safety_cap_truncates_a_game_without_a_reward() -> None:
    batch = BatchEnv(2, rules=load_preset("classic").replace(max_actions=10), players=2, seed=0)
    _, masks, _ = batch.reset()
    for step in range(10):
        _, masks, rewards, terminated, truncated, _ = batch.step(masks.argmax(axis=1))
        assert truncated.tolist() == [step == 9] * 2
        assert not terminated.any() and not rewards.any()


def test_points_rewards_come_each_round_and_sum_to_zero() -> None:
    batch = BatchEnv(3, "race", 3, seed=2, reward="points")
    _, masks, _ = batch.reset()
    rng = np.random.default_rng(5)
    paid = 0
    for _ in range(400):
        _, masks, rewards, _, _, _ = batch.step(pick(masks, rng))
        assert rewards.sum(axis=1) == pytest.approx(np.zeros(3), abs=1e-4)
        paid += int(rewards.any(axis=1).sum())
    assert paid


def test_bad_input_is_refused_in_words() -> None:
    batch = BatchEnv(2, "classic", 2, seed=0)
    with pytest.raises(RuntimeError, match="call reset"):
        batch.step([0, 0])
    _, masks, _ = batch.reset()
    with pytest.raises(ValueError, match="3 actions for 2 games"):
        batch.step([0, 0, 0])
    illegal = int(np.flatnonzero(masks[1] == 0)[0])
    legal = int(np.flatnonzero(masks[0])[0])
    with pytest.raises(ValueError, match=rf"game 1: action {illegal} \(.*\) is not legal now; legal: "):
        batch.step([legal, illegal])
    with pytest.raises(ValueError, match="game 0: action 99 is not a number 0-57"):
        batch.step([99, 0])
    with pytest.raises(ValueError, match="num_games: 0"):
        BatchEnv(0)
    with pytest.raises(ValueError, match="points do not decide classic"):
        BatchEnv(2, "classic", 2, reward="points")
    with pytest.raises(RulesError, match="players: 9"):
        BatchEnv(2, "classic", 9)
