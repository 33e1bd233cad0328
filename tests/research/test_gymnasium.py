"""The Gymnasium environment: one learning seat against the computer levels. Gymnasium's own checker
passes, the mask is in ``info``, seeded resets replay exactly, the opponents are level specs, and an
action the mask refuses changes nothing."""

from __future__ import annotations

import warnings

import pytest

from eights.bots.spec import BotSpecError
from eights.engine import view
from eights.research.encoding import ActionSpace, encode
from eights.rules import load_preset
from tests.support.extras import need

gymnasium = need("gymnasium", "research")
np = need("numpy", "research")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from eights.research.gymnasium import ENV_ID, SingleSeatEnv  # noqa: E402


def test_gymnasium_check_env_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # an unbounded Box, and no render fps: advice only
        check_env(SingleSeatEnv())
        check_env(SingleSeatEnv("action", 3, opponents=["easy", "hard@10"], seat=2, render_mode="ansi"))
        check_env(gymnasium.make(ENV_ID, preset="race", players=2).unwrapped)


def play(env: SingleSeatEnv, seed: int) -> list[tuple[bytes, bytes, float, bool, bool]]:
    """A seeded episode, the learner always taking its last legal action."""
    observation, info = env.reset(seed=seed)
    trace = [(observation.tobytes(), info["action_mask"].tobytes(), 0.0, False, False)]
    while True:
        action = int(np.flatnonzero(info["action_mask"])[-1])
        observation, reward, terminated, truncated, info = env.step(action)
        trace.append((observation.tobytes(), info["action_mask"].tobytes(), reward, terminated, truncated))
        if terminated or truncated:
            return trace


def test_the_learner_sees_its_seat_s_view_and_the_mask_of_its_legal_actions() -> None:
    env = SingleSeatEnv("baby-eating", 4, seat=1, opponents="normal")
    space = ActionSpace(load_preset("baby-eating"), 4)
    observation, info = env.reset(seed=3)
    steps = 0
    while True:
        game = env.inner.game
        assert game is not None and game.to_act == 1
        assert observation.tolist() == encode(view(game, 1))
        assert info["action_mask"].tolist() == space.mask(game.legal_actions())
        assert env.action_masks().tolist() == info["action_mask"].tolist()
        observation, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        steps += 1
        if terminated or truncated:
            break
    assert game.outcome is not None
    assert reward == (1.0 if 1 in game.outcome.winners else -1.0)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_seeded_resets_replay_exactly_against_search_levels() -> None:
    env = SingleSeatEnv("classic", 3, opponents=["hard@15", "expert@15"])
    first = play(env, 8)
    assert play(env, 8) == first
    assert play(SingleSeatEnv("classic", 3, opponents=["hard@15", "expert@15"]), 8) == first
    assert play(env, 9) != first


def test_an_illegal_action_changes_nothing_and_loses_or_raises() -> None:
    env = SingleSeatEnv("classic", 2)
    observation, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    game = env.inner.game
    assert game is not None
    before = game.clone(log=True)
    after, reward, terminated, truncated, told = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert told["illegal"].startswith(f"action {illegal} (") and "is not legal now; legal: " in told["illegal"]
    assert after.tobytes() == observation.tobytes()
    assert game.hands == before.hands and game.log == before.log
    strict = SingleSeatEnv("classic", 2, illegal="raise")
    _, info = strict.reset(seed=1)
    with pytest.raises(ValueError, match=rf"action {illegal} \(.*\) is not legal now"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="is not a number 0-57"):
        strict.step(58)


def test_bad_settings_are_refused_in_words() -> None:
    with pytest.raises(BotSpecError, match="unknown bot 'wizard'"):
        SingleSeatEnv(opponents="wizard")
    with pytest.raises(BotSpecError, match="the normal level does not search"):
        SingleSeatEnv(opponents="normal@5")
    with pytest.raises(ValueError, match="opponents: 2 specs for 3 other seats"):
        SingleSeatEnv(players=4, opponents=["normal", "easy"])
    with pytest.raises(ValueError, match="seat: 4 is not a seat; valid: 0-3"):
        SingleSeatEnv(seat=4)
    with pytest.raises(ValueError, match="illegal: 'skip'; valid: lose, raise"):
        SingleSeatEnv(illegal="skip")
