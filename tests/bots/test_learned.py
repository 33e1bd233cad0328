"""The learned computer player: the shipped policy plays classic at two and four players from its seat's
view, the normal player elsewhere; every move is legal, seeded moves replay, hidden cards change nothing,
it plays without numpy, and the training script writes the same weights for the same command."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eights.bots import LEVELS, HeuristicBot, LearnedBot, make_bot
from eights.bots.learned import FEATURE_NAMES, LearnedError, Policies, trained
from eights.engine import Game, view
from eights.engine.actions import Draw, NameSuit, Play
from eights.rules import PRESETS, RulesError, load_preset
from tests.bots.test_bots import hidden_twin, positions
from tests.support.extras import need
from tests.support.moves import first_move
from tests.web.test_app import SCRIPTED, my_turn, send, until

#: Where the shipped policy plays.
TRAINED = (2, 4)
#: Actions each game of the every-preset walk plays at most (a whole derange match is long).
WALK = 300


def seat_counts(preset: str) -> list[int]:
    rules = load_preset(preset)
    counts = []
    for players in range(rules.min_players, rules.max_players + 1):
        try:
            rules.check_players(players)
        except RulesError:
            continue
        counts.append(players)
    return counts


@pytest.mark.parametrize("preset", PRESETS)
def test_every_move_is_legal_in_every_preset_at_every_player_count(preset):
    for players in seat_counts(preset):
        game = Game(load_preset(preset), players, seed=players)
        bots = [LearnedBot(10 * players + seat) for seat in range(players)]
        while not game.is_over and len(game.actions) < WALK:
            seat = game.to_act
            seen = view(game, seat)
            action = bots[seat].choose(seen)
            assert action in seen.legal, (preset, players, seen.phase, action)
            game.play(action, seat)  # the checked door


@pytest.mark.parametrize("players", TRAINED)
def test_classic_is_played_by_the_policy_s_best_scored_action(players):
    policy = trained().get(load_preset("classic"), players)
    assert policy is not None
    kinds = set()
    weighed = set()
    unlike_normal = 0
    for seed in range(6):
        game = Game(load_preset("classic"), players, seed=seed)
        bots = [LearnedBot(seat) for seat in range(players)]
        while not game.is_over:
            seat = game.to_act
            seen = view(game, seat)
            action = bots[seat].choose(seen)
            if len(seen.legal) > 1:
                scores = policy.scores(seen, seen.legal)
                assert scores[seen.legal.index(action)] == max(scores)
                kinds.add(type(action))
                weighed.update(type(a) for a in seen.legal)
                unlike_normal += action != HeuristicBot(seat).choose(seen)
            game.play(action, seat)
    # Every kind of choice classic offers is the policy's to weigh (plays, draws at will, suits named),
    # and it plays cards and names suits (whether it ever draws at will is the policy's own choice).
    assert {Play, Draw, NameSuit} <= weighed and {Play, NameSuit} <= kinds
    assert unlike_normal > 0  # not the normal player under another name


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [("classic", 3, []), ("classic", 2, ["deal_two_players=7"]), ("action", 2, []), ("derange", 4, ["rounds=2,1"])],
)
def test_where_no_policy_was_trained_it_plays_the_normal_player_s_moves(preset, players, options):
    rules = load_preset(preset).with_options(options)
    assert trained().get(rules, players) is None
    moves = []
    for kind in (LearnedBot, HeuristicBot):
        game = Game(rules, players, seed=5)
        bots = [kind(seat) for seat in range(players)]
        while not game.is_over:
            seat = game.to_act
            game.play(bots[seat].choose(view(game, seat)), seat)
        moves.append(game.actions)
    assert moves[0] == moves[1]


def test_its_hints_are_its_moves_in_words():
    game = Game(load_preset("classic"), 2, seed=3)
    reasons = []
    while not game.is_over:
        seat = game.to_act
        seen = view(game, seat)
        hint = LearnedBot(1).hint(seen)
        assert hint.action == LearnedBot(1).choose(seen)
        reasons.append(hint.reason)
        game.play(hint.action, seat)
    assert any("the trained policy's choice (" in reason for reason in reasons)
    assert all(reason.strip() for reason in reasons)


@settings(max_examples=30)
@given(
    players=st.sampled_from(TRAINED),
    seed=st.integers(0, 10_000),
    pick=st.integers(0, 1_000),
    shuffle=st.integers(0, 1_000),
)
def test_cards_the_seat_cannot_see_change_nothing(players, seed, pick, shuffle):
    found = positions("classic", players, [], seed, every=3)
    if not found:
        return
    game = found[pick % len(found)]
    seat = game.to_act
    twin = hidden_twin(game, seat, random.Random(shuffle))
    seen = view(game, seat)
    assert view(twin, seat) == seen
    assert LearnedBot(7).choose(seen) == LearnedBot(7).choose(view(twin, seat))


def test_the_same_seed_replays_the_same_game():
    def play(seed: int) -> list:
        game = Game(load_preset("classic"), 4, seed=9)
        bots = [make_bot("learned", seed + seat) for seat in range(4)]
        while not game.is_over:
            seat = game.to_act
            game.play(bots[seat].choose(view(game, seat)), seat)
        return list(game.actions)

    assert play(1) == play(1)


def test_it_is_offered_wherever_the_levels_are():
    from eights.bots.spec import research_bot
    from eights.table.session import build_config
    from eights.tui.screens.setup import SEAT_CHOICES

    assert LEVELS.index("normal") + 1 == LEVELS.index("learned") == LEVELS.index("hard") - 1
    assert ("Computer: learned", "learned") in SEAT_CHOICES  # the terminal's setup screen
    assert build_config("classic", players=2, bots="learned").seats[1] == "learned"  # eights play --bots
    assert isinstance(research_bot("learned", 1), LearnedBot)  # the lab, tournaments, evaluate()
    with pytest.raises(ValueError, match="the learned level does not search: it takes no budget"):
        make_bot("learned", 1, iterations=5)


def test_it_plays_in_the_terminal(tmp_path: Path):
    from typer.testing import CliRunner

    from eights.cli import app

    args = ["play", "--plain", "--variant", "classic", "--players", "2", "--humans", "0", "--bots", "learned"]
    result = CliRunner().invoke(app, [*args, "--seed", "3", "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 0, result.output
    assert "Game over" in result.stdout and "(learned)" in result.stdout


def test_a_copy_plays_as_the_original_and_shares_its_policies():
    # The web table thinks on a copy of the seat's bot at every decision.
    game = Game(load_preset("classic"), 2, seed=6)
    bot = LearnedBot(3)
    twin = copy.deepcopy(bot)
    assert twin.policies is bot.policies
    seen = view(game, game.to_act)
    assert [twin.choose(seen) for _ in range(3)] == [bot.choose(seen) for _ in range(3)]


def test_a_web_table_game_against_the_learned_player_to_the_end(tmp_path: Path):
    from fastapi.testclient import TestClient

    from eights.store import Store, database_url
    from eights.web.app import create_app

    store = Store(database_url(str(tmp_path / "web.db")))
    with TestClient(create_app(store, pace=0, settings=SCRIPTED)) as client:
        assert "learned" in client.get("/api/presets").json()["levels"]
        room = client.post(
            "/api/rooms", json={"name": "Ann", "preset": "classic", "seats": ["me", "learned"], "start": True}
        ).json()
        with client.websocket_connect("/ws") as ws:
            send(ws, type="hello", room=room["code"], token=room["token"])
            while True:
                state = until(ws, "state", my_turn)
                if state["table"]["result"] is not None:
                    break
                send(ws, type="act", version=state["version"], action=first_move(state["table"]))
        seats = state["room"]["seats"]
        assert seats[1]["kind"] == "computer" and seats[1]["level"] == "learned"
    store.close()


def test_it_plays_without_numpy():
    # The bots are standard library only (they run in the browser): numpy blocked, a game is played through.
    script = textwrap.dedent(
        """
        import sys
        sys.modules["numpy"] = None
        from eights.bots import make_bot
        from eights.engine import Game, view
        from eights.rules import load_preset
        game = Game(load_preset("classic"), 2, seed=4)
        bots = [make_bot("learned", 1), make_bot("learned", 2)]
        while not game.is_over:
            seat = game.to_act
            game.play(bots[seat].choose(view(game, seat)), seat)
        assert "numpy" not in [name.partition(".")[0] for name, module in sys.modules.items() if module]
        print("played", len(game.actions))
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("played ")


def test_the_shipped_weights_say_how_they_were_made_and_what_they_scored():
    policies = trained()
    assert policies.header["command"].startswith("python -m eights.research.train ")
    assert f"--seed {policies.header['seed']}" in policies.header["command"]
    assert policies.header["features"] == list(FEATURE_NAMES)
    for players in TRAINED:
        policy = policies.get(load_preset("classic"), players)
        assert policy is not None
        score = policy.about["against_normal"]
        assert score["command"].startswith(f"eights tournament --variant classic --players {players} ")
        # Stronger than the normal player: the whole 95% interval above an even share.
        assert score["low"] > 0.5, score


def test_a_weights_file_of_other_features_is_refused_saying_how_to_retrain():
    data = json.loads(json.dumps({**trained().header, "policies": []}))
    assert Policies.from_data(data).by_table == {}
    with pytest.raises(LearnedError, match=r"trained on other features; retrain it: python -m eights\.research\.train"):
        Policies.from_data({**data, "features": ["play", "draw"]})
    with pytest.raises(LearnedError, match="format 0, not 1; retrain it"):
        Policies.from_data({**data, "format": 0})


def test_training_writes_the_same_file_for_the_same_command(tmp_path: Path):
    need("numpy", "research")
    from eights.research.train import main

    args = ["--players", "2", "3", "--updates", "2", "--batch", "6", "--slots", "3", "--eval-games", "2"]
    main([*args, "--out", str(tmp_path / "a.json")])
    main([*args, "--out", str(tmp_path / "b.json")])
    first = (tmp_path / "a.json").read_text()
    assert first.replace("a.json", "b.json") == (tmp_path / "b.json").read_text()
    data = json.loads(first)
    assert data["command"].startswith("python -m eights.research.train --players 2 3 --seed 1 --updates 2 ")
    policies = Policies.from_data(data)
    weights = policies.get(load_preset("classic"), 3)
    assert weights is not None and any(weights.weights)  # it learned something from its 12 games
    assert weights.about["against_normal"]["games"] == 2
    # The file plays: a learned player reading it finishes a game of classic at three.
    game = Game(load_preset("classic"), 3, seed=1)
    bots = [LearnedBot(seat, policies) for seat in range(3)]
    while not game.is_over:
        seat = game.to_act
        game.play(bots[seat].choose(view(game, seat)), seat)
