from eights.engine import Game
from eights.rules import PRESETS, load_preset
from tests.support.scripting import scripted


def test_every_preset_plays_to_the_end_with_random_legal_actions():
    for name in PRESETS:
        game = Game(load_preset(name), 3, seed=7)
        steps = 0
        while not game.is_over:
            legal = game.legal_actions()
            game.play(legal[steps % len(legal)])
            steps += 1
        assert game.outcome is not None and game.outcome.winners


def test_scripted_deal_gives_the_hands_asked_for():
    game = scripted("classic", ["AH 2H 3H 4H 5H", "AC 2C 3C 4C 5C"], "9H", "KS", dealer=1)
    assert [str(c) for c in game.hands[0]] == ["AH", "2H", "3H", "4H", "5H"]
    assert str(game.top) == "9H"
    assert game.turn == 0
