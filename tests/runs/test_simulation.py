"""Random simulation over every preset, every option that changes play and every allowed player count.

Each game is played to the end through the checked door (``game.play``) with random legal actions
from a seeded ``random.Random``: the engine must accept every action it lists as legal, and every
game must finish with an outcome whose winners, totals and rounds agree with its event log.
"""

from __future__ import annotations

import random

import pytest

from eights.engine import Game
from eights.engine.errors import GameIsOver
from eights.engine.events import CardPlayed, GameOver, RoundOver, RoundStarted
from eights.rules import PRESETS, RulesError, RuleSet, load_preset
from tests.support.scripting import fitting_players


def play_out(game: Game, rng: random.Random) -> int:
    """Play random legal actions through the checked door to the end; return the actions played."""
    actions = 0
    round_actions = 0
    round_index = game.round_index
    while not game.is_over:
        seat = game.to_act
        legal = game.legal_actions()
        assert legal, f"seat {seat} has no legal action in phase {game.phase_name}"
        game.play(legal[rng.randrange(len(legal))], seat)
        actions += 1
        round_actions += 1
        if game.round_index != round_index:
            assert round_actions <= game.rules.max_actions
            round_index, round_actions = game.round_index, 0
    return actions


def check_finished(game: Game) -> None:
    """Everything a finished game promises: an outcome, winners, totals that add up, a final log."""
    rules, n = game.rules, game.players
    outcome = game.outcome
    assert game.is_over and outcome is not None
    assert outcome.winners, "a finished game has winners"
    assert list(outcome.winners) == sorted(set(outcome.winners))
    assert all(0 <= w < n for w in outcome.winners)
    assert outcome.totals == tuple(game.totals) and len(outcome.totals) == n
    assert game.legal_actions() == []
    with pytest.raises(GameIsOver):
        game.play("draw")

    log = game.log
    assert log is not None
    assert isinstance(log[-1], GameOver)
    assert log[-1].winners == outcome.winners and log[-1].totals == outcome.totals
    rounds = [e for e in log if isinstance(e, RoundOver)]
    assert len(rounds) == outcome.rounds == game.round_index
    assert sum(isinstance(e, RoundStarted) for e in log) == outcome.rounds
    if rules.schedule:
        assert outcome.rounds == len(rules.schedule)
    # Round points add up to the totals, round by round.
    running = [0] * n
    for event in rounds:
        # Random play ends rounds by the rules, never by the safety cap.
        assert event.reason in ("out", "blocked"), event
        running = [t + p for t, p in zip(running, event.points, strict=True)]
        assert tuple(running) == event.totals
        if event.reason == "out" and not rules.teams:
            (winner,) = event.winners
            assert event.hands[winner] == ()
        if not rules.score_keeping:
            assert set(event.points) == {0}
    assert tuple(running) == outcome.totals
    # The match winners follow from the totals (or from the single round).
    multi_round = rules.score_keeping and (rules.schedule or rules.hands or rules.match_target(n))
    if multi_round:
        best = (min if rules.lowest_wins else max)(outcome.totals)
        assert outcome.winners == tuple(s for s, t in enumerate(outcome.totals) if t == best)
        target = rules.match_target(n)
        if target and not rules.schedule:
            assert max(outcome.totals) >= target
    else:
        assert outcome.winners == rounds[-1].winners


def run(rules: RuleSet, players: int, seed: int) -> Game:
    game = Game(rules, players, seed=seed)
    actions = play_out(game, random.Random(seed * 7919 + players))
    assert actions == len(game.actions)
    check_finished(game)
    return game


# ----- classic ---------------------------------------------------------------

CLASSIC_OPTIONS = [[], ["deal_two_players=7"], ["target=100"], ["deal_two_players=7", "target=100"]]


@pytest.mark.parametrize("options", CLASSIC_OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_classic_every_player_count_and_option_finishes(options):
    rules = load_preset("classic").with_options(options)
    players = fitting_players(rules)
    assert players == list(range(2, 8))  # D6
    for n in players:
        for seed in range(4):
            game = run(rules, n, seed)
            if n == 2 and "deal_two_players=7" in options:
                assert game.rules.hand_size(2) == 7
            if "target=100" in options:
                assert max(game.outcome.totals) >= 100
            else:
                assert game.outcome.rounds == 1  # D8: one round unless a target is set


# ----- action ----------------------------------------------------------------

ACTION_OPTIONS = [
    [f"stacking={stacking}", f"score_keeping={keeping}", f"packs={packs}"]
    for stacking in ("true", "false")
    for keeping in ("true", "false")
    for packs in ("auto", "2", "3")
]


@pytest.mark.parametrize("options", ACTION_OPTIONS, ids=lambda o: ",".join(o))
def test_action_every_player_count_and_option_finishes(options):
    rules = load_preset("action").with_options(options)
    players = fitting_players(rules)
    expected = {"auto": range(2, 17), "2": range(2, 11), "3": range(8, 17)}[options[2].split("=")[1]]
    assert players == list(expected)  # D36
    stacks = 0
    for n in players:
        for seed in range(2):
            game = run(rules, n, seed)
            stacks += sum(isinstance(e, CardPlayed) and bool(e.stack) for e in game.log)
            if not rules.score_keeping:
                assert game.outcome.rounds == 1  # one hand, first out wins
            else:
                assert max(game.outcome.totals) >= 500  # to 500, lowest wins
    # Stacked plays happen exactly when the stacking option is on (D11).
    assert (stacks > 0) == rules.stacking


# ----- race ------------------------------------------------------------------


def test_race_every_player_count_finishes_at_its_target():
    rules = load_preset("race")
    players = fitting_players(rules)
    assert players == list(range(2, 8))
    for n in players:
        for seed in range(4):
            game = run(rules, n, seed)
            assert max(game.outcome.totals) >= 50 * n


# ----- derange ---------------------------------------------------------------

DERANGE_CASES = [(packs, short) for packs in (1, 2, 3, 4) for short in ("true", "false")]


@pytest.mark.parametrize(("packs", "short"), DERANGE_CASES, ids=lambda v: str(v))
def test_derange_every_pack_count_and_player_count_finishes(packs, short):
    rules = load_preset("derange").with_options([f"packs={packs}", f"short_rounds={short}"])
    schedule = rules.schedule
    assert len(schedule) == (7 if short == "true" else 15)
    for n in range(2, 9):
        if n * max(schedule) + 1 > 52 * packs:
            # A deal that does not fit the packs is refused before any card is dealt.
            with pytest.raises(RulesError, match="rounds"):
                Game(rules, n, seed=1)
            continue
        game = run(rules, n, seed=packs * 10 + n)
        assert game.outcome.rounds == len(schedule)
        dealt = [e.hand_size for e in game.log if isinstance(e, RoundStarted)]
        assert tuple(dealt) == schedule


@pytest.mark.parametrize("packs", [1, 2, 3, 4])
def test_derange_custom_short_schedule_every_player_count(packs):
    rules = load_preset("derange").with_options([f"packs={packs}", "rounds=2,1"])
    for n in range(2, 9):
        for seed in range(3):
            game = run(rules, n, seed)
            assert [e.hand_size for e in game.log if isinstance(e, RoundStarted)] == [2, 1]


def test_derange_full_fifteen_round_games():
    rules = load_preset("derange")
    for n, seed in [(2, 101), (4, 102), (8, 103)]:
        game = run(rules, n, seed)
        assert game.outcome.rounds == 15
        sizes = [e.hand_size for e in game.log if isinstance(e, RoundStarted)]
        assert sizes == [*range(8, 0, -1), *range(2, 9)]


# ----- baby-eating (the fifth preset) ------------------------------------------

BABY_OPTIONS = [[], ["teams=true"], ["expanded_deck=true"], ["expanded_deck=false"]]


@pytest.mark.parametrize("options", BABY_OPTIONS, ids=lambda o: ",".join(o) or "default")
def test_baby_eating_every_player_count_and_option_finishes(options):
    rules = load_preset("baby-eating").with_options(options)
    players = fitting_players(rules)
    assert players
    for n in players:
        for seed in range(3):
            run(rules, n, seed)


def test_every_preset_is_simulated():
    covered = {"classic", "action", "race", "derange", "baby-eating"}
    assert set(PRESETS) == covered
