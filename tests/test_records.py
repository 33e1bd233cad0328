"""Game records: a finished game saves to JSON and replays to the same game; a tampered record is refused
with a ``RecordError`` naming what is wrong."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eights.cards import ALL_CARDS
from eights.engine import Game, parse_action
from eights.engine.actions import BURY, CHOOSE, DRAW, NAME_SUIT, PASS, PLAY
from eights.record import FORMAT, GameRecord, RecordError
from eights.rules import load_preset
from tests.support.scripting import scripted

PRESET_CASES = [
    ("classic", (), 3),
    ("classic", ("target=100",), 2),
    ("action", ("stacking=true",), 4),
    ("action", ("score_keeping=true", "packs=2"), 3),
    ("race", (), 2),
    ("derange", ("short_rounds=true",), 4),
    ("derange", ("packs=3",), 2),
    ("baby-eating", (), 4),
    ("baby-eating", ("teams=true",), 4),
]


def finish(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while not game.is_over:
        legal = game.legal_actions()
        game.play(legal[rng.randrange(len(legal))])
    return game


def played(preset: str, options: tuple[str, ...], players: int, seed: int) -> Game:
    return finish(Game(load_preset(preset).with_options(list(options)), players, seed=seed), seed)


def tampered(record: GameRecord, change) -> str:
    data = json.loads(record.to_json())
    change(data)
    return json.dumps(data)


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return GameRecord.of(played("race", (), 3, 8), names=("Ann", "Bo", "Cy"))


# ----- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "options", "players"), PRESET_CASES, ids=lambda v: str(v))
def test_a_finished_game_saves_and_replays_to_the_same_game(preset, options, players, tmp_path):
    for seed in (1, 2):
        game = played(preset, options, players, seed)
        record = GameRecord.of(game)
        assert record.winners == game.outcome.winners and record.totals == game.outcome.totals
        assert len(record.actions) == len(game.actions)
        path = tmp_path / f"{preset}-{seed}.json"
        record.save(path)
        loaded = GameRecord.load(path)
        assert loaded == record
        again = loaded.replay()
        assert again.outcome == game.outcome
        assert again.log == game.log
        assert again.actions == game.actions
        assert again.hands == game.hands and again.totals == game.totals


def test_the_record_keeps_names_rules_and_format(record):
    data = json.loads(record.to_json())
    assert data["format"] == FORMAT
    assert data["names"] == ["Ann", "Bo", "Cy"]
    assert data["rules"]["name"] == "race"
    assert data["result"] == {"winners": list(record.winners), "totals": list(record.totals)}
    assert GameRecord.from_json(record.to_json()).names == ("Ann", "Bo", "Cy")
    # Every action is written in its text form and reads back to the same action.
    game = Game(record.rules, record.players, record.seed, dealer=record.dealer)
    for text in record.actions:
        assert str(parse_action(text)) == text
        game.play(parse_action(text))
    assert game.outcome.winners == record.winners


def test_a_record_with_an_explicit_deck_and_dealer_replays():
    rules = load_preset("action").with_options(["stacking=true"])
    deck = [ALL_CARDS[c] for c in rules.pack(3)]
    random.Random(4).shuffle(deck)
    game = finish(Game(rules, 3, seed=99, deck=deck, dealer=2), 5)
    record = GameRecord.of(game)
    assert record.deck == tuple(deck) and record.dealer == 2
    data = json.loads(record.to_json())
    assert data["deck"] == [str(c) for c in deck] and data["dealer"] == 2
    again = GameRecord.from_json(record.to_json()).replay()
    assert again.log == game.log and again.outcome == game.outcome
    # The deck fixes the first deal: seat 0 (the dealer's left is seat 0) gets the first card.
    assert again.log[0].hands[0][0] == deck[0]


def test_a_scripted_deal_replays_from_its_record():
    game = scripted(
        "derange",
        ["3H 3C 5H 9S", "KH 2D 8S 4C", "10D 10S 6D AH"],
        starter="7H",
        stock="QH JH 2C 4D 5S 6S 7C 9H QD KD AC 8D",
        dealer=0,
        short_rounds=True,
    )
    finish(game, 12)
    record = GameRecord.of(game)
    assert record.deck is not None and record.dealer == 0
    again = GameRecord.from_json(record.to_json()).replay()
    assert again.log == game.log and again.outcome == game.outcome


def test_an_unfinished_game_records_without_a_result_and_replays_to_where_it_stopped():
    game = Game(load_preset("derange").with_options(["short_rounds=true"]), 3, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        legal = game.legal_actions()
        game.play(legal[rng.randrange(len(legal))])
    record = GameRecord.of(game)
    assert record.winners is None and json.loads(record.to_json())["result"] is None
    again = GameRecord.from_json(record.to_json()).replay()
    assert not again.is_over
    assert again.log == game.log and again.hands == game.hands and again.stock == game.stock


def test_a_game_without_its_log_has_no_record():
    game = Game(load_preset("classic"), 2, seed=1, log=False)
    with pytest.raises(RecordError, match="without its log"):
        GameRecord.of(game)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(PRESET_CASES),
    st.integers(0, 2**32 - 1),
)
def test_records_round_trip(case, seed):
    preset, options, players = case
    game = played(preset, options, players, seed)
    again = GameRecord.from_json(GameRecord.of(game).to_json()).replay()
    assert again.log == game.log and again.outcome == game.outcome


# ----- tampered records ----------------------------------------------------------------------------


def illegal_at(record: GameRecord, index: int) -> str:
    """The text of an action that is not legal at action ``index`` of the record."""
    game = Game(record.rules, record.players, record.seed, dealer=record.dealer)
    for text in record.actions[:index]:
        game.play(parse_action(text))
    legal = game.legal_actions()
    candidates = [*PLAY[:52], DRAW, PASS, *NAME_SUIT, *BURY[:4], *CHOOSE[: record.players]]
    return next(str(a) for a in candidates if a not in legal)


@pytest.mark.parametrize("index", [0, 1, 7, -1])
def test_an_illegal_action_in_a_record_is_refused_naming_it(record, index):
    index %= len(record.actions)
    wrong = illegal_at(record, index)
    assert wrong != record.actions[index]

    def change(data):
        data["actions"][index] = wrong

    with pytest.raises(RecordError, match=rf"action {index + 1} \(line \d+\), '{wrong}', does not replay"):
        GameRecord.from_json(tampered(record, change)).replay()


def test_a_card_from_another_hand_is_refused(record):
    game = Game(record.rules, record.players, record.seed, dealer=record.dealer)
    other = (game.to_act + 1) % game.players
    card = next(c for c in game.hands[other] if c not in game.hands[game.to_act])

    def change(data):
        data["actions"][0] = f"play {card}"

    with pytest.raises(RecordError, match=r"action 1 .*do not hold"):
        GameRecord.from_json(tampered(record, change)).replay()


def test_an_action_that_is_not_an_action_is_refused(record):
    def change(data):
        data["actions"][2] = "fly away"

    with pytest.raises(RecordError, match=r"action 3 \(line \d+\), 'fly away', does not replay"):
        GameRecord.from_json(tampered(record, change)).replay()


def test_actions_after_the_end_are_refused(record):
    def change(data):
        data["actions"].append("draw")

    with pytest.raises(RecordError, match=rf"action {len(record.actions) + 1} .*game is over"):
        GameRecord.from_json(tampered(record, change)).replay()


def test_a_changed_result_is_refused(record):
    def other_winner(data):
        data["result"]["winners"] = [(record.winners[0] + 1) % record.players]

    def other_totals(data):
        data["result"]["totals"][0] += 1

    for change in (other_winner, other_totals):
        with pytest.raises(RecordError, match=r"the replay ends with seat .* winning, totals .*; the record says seat"):
            GameRecord.from_json(tampered(record, change)).replay()


def test_a_record_cut_short_does_not_reach_its_result(record):
    def change(data):
        del data["actions"][-5:]

    with pytest.raises(RecordError, match="leave the game unfinished, but the record gives its result"):
        GameRecord.from_json(tampered(record, change)).replay()


def test_a_record_cut_to_one_action_says_it_leaves_the_game_unfinished(record):
    def change(data):
        del data["actions"][1:]

    with pytest.raises(RecordError, match="the record's 1 action leaves the game unfinished"):
        GameRecord.from_json(tampered(record, change)).replay()


def test_broken_json_is_refused(record):
    text = record.to_json()
    for broken in (text[: len(text) // 2], "", "{players: 2}", text.replace(":", ";", 1)):
        with pytest.raises(RecordError, match="not a JSON game record"):
            GameRecord.from_json(broken)


def test_a_record_of_another_format_is_refused(record):
    for text in ("[]", "3", json.dumps({"players": 2}), tampered(record, lambda d: d.update(format="eights/0"))):
        with pytest.raises(RecordError, match="not a game record"):
            GameRecord.from_json(text)


@pytest.mark.parametrize("field", ["rules", "players", "seed", "dealer", "actions"])
def test_a_missing_field_is_named(record, field):
    with pytest.raises(RecordError, match=f"lacks the field '{field}'"):
        GameRecord.from_json(tampered(record, lambda d: d.pop(field)))


def test_malformed_fields_are_refused(record):
    changes = [
        (lambda d: d.update(players="many"), "players: 'many' is not a whole number; expected the number of players"),
        (lambda d: d.update(deck=["8H", "XX"]), "the record's deck: 'XX' is not a card"),
        (lambda d: d["rules"].update(deal=0), "the record's rules: deal: 0 is not valid"),
        (lambda d: d["rules"].update(colour="red"), "the record's rules: unknown rule 'colour'"),
    ]
    for change, message in changes:
        with pytest.raises(RecordError, match=message):
            GameRecord.from_json(tampered(record, change))


def test_a_record_that_cannot_start_is_refused(record):
    def too_many_players(data):
        data["players"] = 9
        data["names"] = []

    def doubled_card(data):
        data["deck"] = ["8H"] * 20

    for change, reason in ((too_many_players, "players: 9"), (doubled_card, "8H appears more often")):
        with pytest.raises(RecordError, match=f"the record's game cannot start: .*{reason}"):
            GameRecord.from_json(tampered(record, change)).replay()


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "nowhere.json")


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["Ann", "Bo"], "names: 2 names for 3 players"),
        (["Ann", "Bo", "Cy", "Di"], "names: 4 names for 3 players"),
        (["Ann", "Bo", "\u202eyC"], "the record's name: "),
        (["Ann", "Bo", "C" * 200], "too long"),
    ],
)
def test_names_that_do_not_fit_the_players_are_refused(record, names, words):
    """Issue 29, item 12: a record whose names do not match its players replayed without a word."""
    data = json.loads(record.to_json())
    data["names"] = names
    with pytest.raises(RecordError, match=re.escape(words)):
        GameRecord.from_json(json.dumps(data))
    data["names"] = []
    assert GameRecord.from_json(json.dumps(data)).names == ()
