"""The PettingZoo environment: PettingZoo's own API test for every preset and player count, exact seeded
replays, observations from the seat's view, rewards from the outcome, and the example against a level."""

from __future__ import annotations

import warnings

import pytest

from eights.bots import ISMCTSBot
from eights.bots.spec import ITERATIONS, BotSpecError, research_bot
from eights.engine import Game, view
from eights.research.encoding import encode
from eights.research.observer import match_rewards
from eights.rules import PRESETS, RulesError, load_preset
from tests.support.extras import need

need("pettingzoo", "research")
np = need("numpy", "research")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from eights.research.pettingzoo import Observation, Policy, env, evaluate, random_policy, raw_env  # noqa: E402


def seatings() -> list[tuple[str, int]]:
    return [
        (preset, players)
        for preset in PRESETS
        for players in range(load_preset(preset).min_players, load_preset(preset).max_players + 1)
    ]


@pytest.mark.parametrize(("preset", "players"), seatings())
def test_pettingzoo_api_test(preset: str, players: int) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns of every Dict observation (its own classic games' form, with the action mask)
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(preset=preset, players=players), num_cycles=400)


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_seed_test(preset: str) -> None:
    seed_test(lambda: env(preset=preset, players=3), num_cycles=300)


def play_out(e: raw_env, seed: int, pick: int) -> list[tuple[str, bytes, float]]:
    """Play a seeded game by a fixed rule (the legal action at ``pick`` modulo their count)."""
    e.reset(seed=seed)
    trace = []
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        trace.append((agent, observation["observation"].tobytes(), float(reward)))
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(legal[pick % len(legal)]))
    return trace


def test_seeded_resets_replay_exactly_and_deal_the_engine_s_game() -> None:
    e = raw_env("derange", 4, {"packs": 2, "rounds": "3,2"})
    first = play_out(e, 5, 3)
    again = play_out(e, 5, 3)
    assert first == again
    assert play_out(e, 6, 3) != first
    e.reset(seed=5)
    game = Game(load_preset("derange").with_options(["packs=2", "rounds=3,2"]), 4, seed=5)
    seat = game.to_act
    assert e.agent_selection == f"player_{seat}"
    assert e.observe(e.agent_selection)["observation"].tolist() == encode(view(game, seat))
    # unseeded resets follow the sequence of the last seed given
    e.reset(seed=9)
    e.reset()
    after = e.observe(e.agent_selection)["observation"].tobytes()
    e.reset(seed=9)
    e.reset()
    assert e.observe(e.agent_selection)["observation"].tobytes() == after


def test_observation_is_the_seat_s_view_and_the_mask_its_legal_actions() -> None:
    e = raw_env("baby-eating", 4)
    e.reset(seed=2)
    assert e.game is not None
    for agent in e.possible_agents:
        seat = e.possible_agents.index(agent)
        seen = e.observe(agent)
        assert seen["observation"].tolist() == encode(view(e.game, seat))
        legal = view(e.game, seat).legal
        assert [e.space.actions[i] for i in np.flatnonzero(seen["action_mask"])] == sorted(legal, key=e.space.number)
        assert (seen["action_mask"].sum() > 0) == (seat == e.game.to_act)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env("classic", 2)
    e.reset(seed=1)
    before = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(before["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=r"is not legal now; legal: "):
        e.step(illegal)
    with pytest.raises(ValueError, match=r"is not a number 0-57"):
        e.step(58)
    assert e.observe(e.agent_selection)["observation"].tobytes() == before["observation"].tobytes()


def test_outcome_rewards_go_to_the_winners() -> None:
    e = raw_env("classic", 3)
    play_out(e, 4, 0)
    assert e.game is not None and e.game.outcome is not None
    winners = e.game.outcome.winners
    # the last step's rewards, as the agents saw them on their way out
    e.reset(seed=4)
    rewards: dict[str, float] = {}
    for agent in e.agent_iter():
        observation, reward, terminated, _, _ = e.last()
        if terminated:
            rewards[agent] = float(reward)
            e.step(None)
        else:
            e.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert rewards == {f"player_{s}": (1.0 if s in winners else -1.0) for s in range(3)}


def test_points_rewards_sum_to_zero_each_round_and_only_where_points_decide() -> None:
    e = raw_env("race", 3, reward="points")
    e.reset(seed=8)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for _agent in e.agent_iter():
        observation, _, terminated, _, _ = e.last()
        if terminated:
            e.step(None)
            continue
        e.step(int(np.flatnonzero(observation["action_mask"])[-1]))
        assert sum(e.rewards.values()) == pytest.approx(0.0)
        for name, r in e.rewards.items():
            totals[name] += r
    assert e.game is not None and e.game.outcome is not None
    best = max(range(3), key=lambda s: totals[f"player_{s}"])
    assert best in e.game.outcome.winners
    with pytest.raises(ValueError, match="points do not decide classic"):
        raw_env("classic", 3, reward="points")


def test_bad_rules_are_refused_in_words() -> None:
    with pytest.raises(RulesError, match="valid presets"):
        env(preset="nope")
    with pytest.raises(RulesError, match="players: 9"):
        env(preset="classic", players=9)


def test_ansi_render_shows_the_table_to_the_seat_to_act() -> None:
    e = env(preset="action", players=4, render_mode="ansi")
    e.reset(seed=3)
    inner = e.unwrapped
    assert isinstance(inner, raw_env) and inner.game is not None
    text = e.render()
    assert isinstance(text, str)
    assert f"Top card {inner.game.top.pretty()}" in text
    seat = inner.game.to_act
    assert f"Seat {seat}'s hand: " + " ".join(c.pretty() for c in sorted(inner.game.hands[seat])) in text


def test_random_agent_against_normal_example() -> None:
    """The documented example: a random agent at seat 0 against three normal players."""
    result = evaluate(random_policy(0), preset="classic", players=4, level="normal", games=40, seed=1)
    assert result["games"] == 40
    assert result["ci_low"] <= result["win_rate"] <= result["ci_high"]
    assert result["win_rate"] < 0.25  # a fair seat would win a quarter; the normal players are stronger


def test_the_safety_cap_truncates_the_episode_without_a_reward() -> None:
    """A round stopped by the rules' cap on actions is a truncation (issue 41): every agent truncated,
    none terminated, and no reward, where it used to end the match as terminated with +1/-1."""
    e = raw_env(rules=load_preset("classic").replace(max_actions=12), players=3)
    e.reset(seed=1)
    ends: dict[str, tuple[float, bool, bool]] = {}
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            ends[agent] = (float(reward), terminated, truncated)
            e.step(None)
            continue
        e.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 12
    assert e.game is not None and e.game.last_round is not None and e.game.last_round.reason == "cap"
    assert ends == {f"player_{s}": (0.0, False, True) for s in range(3)}


def test_zero_sum_rewards_are_the_match_s_as_the_last_step_gives_them() -> None:
    for players in (2, 3):
        e = raw_env("classic", players, reward="zero_sum")
        for seed in range(12):
            e.reset(seed=seed)
            rewards: dict[str, float] = {}
            for agent in e.agent_iter():
                observation, reward, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    rewards[agent] = float(reward)
                    e.step(None)
                    continue
                e.step(int(np.flatnonzero(observation["action_mask"])[-1]))
            assert e.game is not None and e.game.outcome is not None
            winners = e.game.outcome.winners
            assert sum(rewards.values()) == pytest.approx(0.0)
            assert [rewards[f"player_{s}"] for s in range(players)] == match_rewards(winners, players, zero_sum=True)


def test_evaluate_takes_level_specs_and_a_seeded_evaluation_replays_exactly() -> None:
    """``expert@200`` was refused although the lab takes it (issue 41); a search level now searches a fixed
    number of iterations, so the same seed gives the same games and figures."""
    traces: list[list[bytes]] = []
    results = []
    for _ in range(2):
        trace: list[bytes] = []
        pick = random_policy(3)

        def policy(observation: Observation, trace: list[bytes] = trace, pick: Policy = pick) -> int:
            trace.append(observation["observation"].tobytes())
            return pick(observation)

        results.append(evaluate(policy, preset="classic", players=3, level="hard@25", games=3, seed=5))
        traces.append(trace)
    assert results[0] == results[1]
    assert traces[0] == traces[1] and len(traces[0]) > 10
    assert results[0]["level"] == "hard@25" and results[0]["capped"] == 0
    assert evaluate(random_policy(0), players=2, level="expert@20", games=1)["games"] == 1
    with pytest.raises(BotSpecError, match="unknown bot 'wizard'; valid levels: easy, normal, learned, hard, expert"):
        evaluate(random_policy(0), level="wizard", games=1)


def test_search_levels_without_a_budget_search_iterations_in_research() -> None:
    for level, iterations in ITERATIONS.items():
        bot = research_bot(level, 1)
        assert isinstance(bot, ISMCTSBot)
        assert (bot.iterations, bot.seconds) == (iterations, None)
    timed = research_bot("expert@2s", 1)
    assert isinstance(timed, ISMCTSBot) and timed.seconds == 2.0


def test_the_wrapped_environment_refuses_a_bad_action_in_words() -> None:
    """``env()`` leaves the checking of actions to the environment, whose error lists the legal ones (PettingZoo's
    bounds wrapper raised a bare AssertionError before it), and still enforces the order of calls."""
    e = env("classic", 2)
    with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
        e.agent_selection  # noqa: B018
    e.reset(seed=1)
    with pytest.raises(ValueError, match=r"action 58 is not a number 0-57"):
        e.step(58)
    with pytest.raises(ValueError, match=r"is not legal now; legal: \d+ \("):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0]))
