"""Rule sets: the presets load, options override fields by name, files load and
round-trip, and every rule set that cannot be played is refused with a RulesError
that names the field and the valid values."""

from __future__ import annotations

import json

import pytest

from eights.cards import Card, parse_cards
from eights.engine import Game
from eights.engine.events import PlayerSkipped
from eights.rules import PRESETS, RulesError, RuleSet, load_preset, load_rules, option_names, resolve_rules
from tests.support.scripting import scripted


@pytest.mark.parametrize("name", PRESETS)
def test_each_preset_loads_and_seats_its_smallest_table(name):
    rules = load_preset(name)
    assert isinstance(rules, RuleSet)
    assert rules.name == name
    game = Game(rules, rules.min_players, seed=1)
    assert len(game.hands) == rules.min_players
    assert all(len(hand) == game.hand_size for hand in game.hands)


def test_classic_preset_values():
    rules = load_preset("classic")
    assert rules.packs == 1
    assert (rules.min_players, rules.max_players) == (2, 7)
    assert rules.deal == 5 and rules.hand_size(2) == 5 and rules.hand_size(7) == 5
    assert rules.starter_bury == ("8",)
    assert rules.draw_at_will and not rules.reshuffle
    assert rules.scoring == "winner_collects" and rules.target == 0 and not rules.lowest_wins


def test_action_preset_values():
    rules = load_preset("action")
    assert rules.packs == 0
    assert (rules.min_players, rules.max_players) == (2, 16)
    assert rules.jokers == 0
    assert not rules.stacking and not rules.score_keeping
    assert rules.target == 500 and rules.lowest_wins


def test_race_preset_values():
    rules = load_preset("race")
    assert rules.packs == 1 and rules.reshuffle
    assert (rules.min_players, rules.max_players) == (2, 7)
    assert rules.hand_size(2) == 7 and rules.hand_size(3) == 5
    assert rules.match_target(2) == 100


def test_unknown_preset_names_the_valid_presets():
    with pytest.raises(RulesError) as info:
        load_preset("crazy")
    assert "'crazy'" in str(info.value)
    for name in PRESETS:
        assert name in str(info.value)


# ----- options ------------------------------------------------------------------


def test_option_stacking_true_overrides_the_field():
    rules = load_preset("action").with_options(["stacking=true"])
    assert rules.stacking is True
    assert load_preset("action").stacking is False  # presets are frozen values
    assert rules.replace(stacking=False) == load_preset("action")


@pytest.mark.parametrize("text", ["true", "True", "yes", "on", "1"])
def test_option_booleans_read_common_words(text):
    assert load_preset("action").with_options([f"stacking={text}"]).stacking is True


def test_option_packs_2_overrides_the_fewest_packs_default():
    rules = load_preset("action").with_options(["packs=2"])
    assert rules.packs == 2
    assert rules.packs_for(3) == 2
    assert rules.hand_size(3) == 7
    game = Game(rules, 3, seed=1)
    assert sum(map(len, game.hands)) + len(game.stock) + len(game.discard) == 104
    assert rules.with_options(["packs=auto"]).packs == 0


def test_option_target_200_overrides_the_target():
    rules = load_preset("classic").with_options(["target=200"])
    assert rules.target == 200
    assert rules.match_target(4) == 200


def test_option_deal_two_players_7():
    rules = load_preset("classic").with_options(["deal_two_players=7"])
    assert rules.hand_size(2) == 7
    assert rules.hand_size(3) == 5
    assert len(Game(rules, 2, seed=3).hands[0]) == 7


def test_option_names_accept_dashes():
    assert load_preset("classic").with_options(["deal-two-players=7"]).deal_two_players == 7


def test_several_options_apply_together():
    rules = resolve_rules("action", options=["stacking=true", "score_keeping=true", "target=300"])
    assert (rules.stacking, rules.score_keeping, rules.target) == (True, True, 300)


def test_unknown_option_names_it_and_the_valid_options():
    with pytest.raises(RulesError) as info:
        load_preset("action").with_options(["stackin=true"])
    message = str(info.value)
    assert "'stackin'" in message
    for name in ("stacking", "packs", "target", "deal_two_players"):
        assert name in message
    assert "stacking" in option_names()


def test_option_without_a_value_is_refused():
    with pytest.raises(RulesError, match=r"stacking.*KEY=VALUE"):
        load_preset("action").with_options(["stacking"])


@pytest.mark.parametrize(
    ("option", "field", "valid"),
    [
        ("stacking=maybe", "stacking", "true or false"),
        ("packs=two", "packs", "whole number"),
        ("target=lots", "target", "whole number"),
        ("deal_two_players=7.5", "deal_two_players", "whole number"),
        ("rounds=8,x", "rounds", "whole numbers"),
    ],
)
def test_option_of_the_wrong_type_names_the_field_and_the_valid_values(option, field, valid):
    with pytest.raises(RulesError) as info:
        load_preset("action").with_options([option])
    assert field in str(info.value)
    assert valid in str(info.value)
    assert repr(option.partition("=")[2]) in str(info.value)


def test_table_fields_cannot_be_set_as_options():
    with pytest.raises(RulesError, match="effects is a table"):
        load_preset("action").with_options(["effects=8"])


@pytest.mark.parametrize(
    ("option", "field", "valid"),
    [
        ("packs=5", "packs", "1, 2, 3"),
        ("draw=sometimes", "draw", "one_may_play"),
        ("scoring=best", "scoring", "winner_collects"),
        ("deal=0", "deal", "1 or more"),
        ("deal=-1", "deal", "1 or more"),
        ("deal_two_players=-2", "deal_two_players", "0 or more"),
        ("packs=-1", "packs", "1, 2, 3"),
        ("jokers=3", "jokers", "0, 1 or 2"),
        ("target=-5", "target", "0 or more"),
        ("starter_effects=explode", "starter_effects", "skip"),
        ("starter_bury=9Z", "starter_bury", "a rank"),
    ],
)
def test_option_with_an_invalid_value_names_the_field_and_the_valid_values(option, field, valid):
    with pytest.raises(RulesError) as info:
        load_preset("action").with_options([option])
    assert str(info.value).startswith(field)
    assert valid in str(info.value)


# ----- player counts and deals --------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "players", "valid"),
    [("classic", 8, "2-7"), ("classic", 1, "2-7"), ("race", 8, "2-7"), ("action", 17, "2-16")],
)
def test_impossible_player_count_is_refused_naming_the_valid_range(preset, players, valid):
    with pytest.raises(RulesError) as info:
        Game(load_preset(preset), players, seed=1)
    message = str(info.value)
    assert message.startswith("players")
    assert str(players) in message
    assert valid in message


def test_player_count_that_does_not_fit_a_forced_pack_count_is_refused():
    with pytest.raises(RulesError) as info:
        Game(load_preset("action").with_options(["packs=1"]), 5, seed=1)
    assert "players" in str(info.value) and "2-4" in str(info.value)
    with pytest.raises(RulesError, match="8-16"):
        load_preset("action").with_options(["packs=3"]).check_players(7)


def test_a_deal_that_does_not_fit_the_packs_is_refused_before_dealing():
    rules = load_preset("classic").with_options(["deal=11"])
    with pytest.raises(RulesError) as info:
        Game(rules, 5, seed=1)
    message = str(info.value)
    assert message.startswith("deal")
    assert "56" in message and "52" in message
    assert "at most 10" in message
    # 10 each fits: 50 dealt, the starter, one card left.
    assert len(Game(load_preset("classic").with_options(["deal=10"]), 5, seed=1).stock) == 1


def test_dealer_out_of_range_is_refused():
    with pytest.raises(RulesError, match=r"dealer.*0-2"):
        Game(load_preset("classic"), 3, seed=1, dealer=3)


# ----- files --------------------------------------------------------------------


def test_to_toml_round_trips_through_load_rules(tmp_path):
    for name in PRESETS:
        rules = load_preset(name)
        path = tmp_path / f"{name}.toml"
        path.write_text(rules.to_toml(), encoding="utf-8")
        assert load_rules(path) == rules


def test_to_toml_round_trips_a_changed_rule_set(tmp_path):
    rules = load_preset("action").with_options(["stacking=true", "packs=2", "score_keeping=true", "target=200"])
    path = tmp_path / "house.toml"
    path.write_text(rules.to_toml(), encoding="utf-8")
    again = load_rules(path)
    assert again == rules
    assert (again.stacking, again.packs, again.score_keeping, again.target) == (True, 2, True, 200)


def test_house_rules_file_with_a_base_preset_and_overrides(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(
        'base = "action"\nname = "house"\nstacking = true\nscore_keeping = true\ntarget = 250\n\n'
        '[effects]\n"8" = ["wild"]\n"Q" = ["skip"]\n"A" = ["reverse"]\n"2" = ["draw:2"]\n"J" = ["skip"]\n',
        encoding="utf-8",
    )
    rules = load_rules(path)
    action = load_preset("action")
    assert rules.name == "house"
    assert (rules.stacking, rules.score_keeping, rules.target) == (True, True, 250)
    assert dict(rules.effects)["J"] == ("skip",)
    # Everything not overridden comes from the base.
    assert rules.seats == action.seats
    assert rules.score_values == action.score_values
    assert rules.draw == action.draw
    restored = rules.replace(
        name="action", stacking=False, score_keeping=False, target=500, effects=action.to_dict()["effects"]
    )
    assert restored == action
    # And the house rules play: the J skips, and stacking is on.
    game = scripted(rules, ["3C 4C 5C", "JS JH 6S", "9H 6H 7C", "9D 6D 7D"], "7H", "KS KD", dealer=0)
    game.play("play JS JH")
    assert [e for e in game.log if isinstance(e, PlayerSkipped)] == [PlayerSkipped(2), PlayerSkipped(3)]
    assert game.turn == 0


def test_house_rules_file_with_an_unknown_base(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "poker"\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert "'poker'" in str(info.value)
    assert "classic" in str(info.value) and "action" in str(info.value)


def test_broken_toml_file_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('base = "action"\nstacking = \n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert str(path) in str(info.value)
    assert "not valid TOML" in str(info.value)


def test_missing_rules_file_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "nowhere.toml"
    with pytest.raises(RulesError, match=r"nowhere\.toml"):
        load_rules(path)


def test_unknown_field_in_a_file_names_it_and_the_valid_fields(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "classic"\nstackin = true\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    message = str(info.value)
    assert str(path) in message
    assert "'stackin'" in message
    assert "stacking" in message and "deal" in message


def test_wrong_type_in_a_file_names_the_field_and_the_expected_type(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "action"\nstacking = "yes"\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert "stacking" in str(info.value) and "true or false" in str(info.value)
    path.write_text('base = "action"\npacks = "two"\n', encoding="utf-8")
    with pytest.raises(RulesError, match=r"packs.*whole number"):
        load_rules(path)


def test_bad_effect_in_a_file_names_the_valid_effects(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "action"\n[effects]\n"8" = ["wild"]\n"9" = ["explode"]\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert "'explode'" in str(info.value)
    assert "wild" in str(info.value) and "reverse" in str(info.value)


def test_missing_score_value_is_refused(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "classic"\n[score_values]\n"8" = 50\n', encoding="utf-8")
    with pytest.raises(RulesError, match="score_values: no value for rank A"):
        load_rules(path)


def test_replace_refuses_an_unknown_field():
    with pytest.raises(RulesError, match="unknown rule 'colour'"):
        load_preset("classic").replace(colour="red")


@pytest.mark.parametrize(
    ("preset", "options", "decide"),
    [
        ("classic", [], False),  # one round: the first out wins (D8)
        ("classic", ["target=100"], True),
        ("action", [], False),
        ("action", ["score_keeping=true"], True),
        ("race", [], True),
        ("derange", [], True),
        ("baby-eating", [], False),
    ],
)
def test_points_decide_the_match_only_where_scores_are_kept_over_several_rounds(preset, options, decide):
    assert load_preset(preset).with_options(options).points_decide(2) is decide


def test_resolve_rules_takes_a_preset_or_a_file_not_both(tmp_path):
    with pytest.raises(RulesError, match=r"give a preset \(--variant\) or a rules file \(--rules\), not both"):
        resolve_rules("classic", tmp_path / "house.toml")
    assert resolve_rules(None, None, ["target=100"]) == load_preset("classic").with_options(["target=100"])


# ----- rules files people write (issue 23) ----------------------------------------------


def test_rules_file_that_is_not_utf8_is_refused_naming_the_line_not_a_traceback(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes('base = "classic"\nname = "café"\n'.encode("latin-1"))
    with pytest.raises(RulesError) as info:
        load_rules(path)
    message = str(info.value)
    assert str(path) in message
    assert "line 2 is not UTF-8 text (byte 0xe9)" in message
    assert "save the rules file as UTF-8" in message


def test_rules_file_with_a_byte_order_mark_loads(tmp_path):
    path = tmp_path / "notepad.toml"
    path.write_bytes(b"\xef\xbb\xbf" + b'base = "classic"\ndeal = 7\n')
    assert load_rules(path) == load_preset("classic").with_options(["deal=7"])


def test_rules_file_without_base_says_the_base_is_missing_not_that_score_values_are(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text("stacking = true\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    message = str(info.value)
    assert "score_values" not in message
    assert f"{path}: no base preset" in message
    assert 'base = "classic"' in message
    for name in PRESETS:
        assert name in message


def test_rules_file_without_base_giving_every_rule_still_loads(tmp_path):
    # Files saved before `base` was written hold every rule; they still play.
    rules = load_preset("race").with_options(["deal=6"])
    data = rules.to_dict()
    tables = {name: data.pop(name) for name in ("effects", "score_values")}
    lines = [f"{name} = {json.dumps(value)}" for name, value in data.items()]  # JSON values are TOML values
    for name, table in tables.items():
        lines += [f"[{name}]", *(f"{json.dumps(key)} = {json.dumps(value)}" for key, value in table.items())]
    path = tmp_path / "old.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert load_rules(path) == rules
    path.write_text("\n".join(line for line in lines if not line.startswith("deal =")) + "\n", encoding="utf-8")
    with pytest.raises(RulesError, match="no base preset"):
        load_rules(path)


def test_a_rule_under_a_table_header_is_named_as_misplaced_not_as_a_bad_score_value(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "classic"\n[score_values]\n"A" = 1\nstacking = true\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    message = str(info.value)
    assert "'stacking' is a rule, not a card, but it sits in the [score_values] table" in message
    assert "move the line stacking = ... above [score_values]" in message
    assert "wrong type" not in message


def test_an_unknown_rule_in_a_file_names_it_and_the_nearest_rule(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "classic"\nscore_value = 5\n', encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    message = str(info.value)
    assert "unknown rule 'score_value' (did you mean score_values?)" in message
    assert "valid rules: name, title" in message


def test_a_wrong_value_in_a_table_names_the_card_and_what_is_expected(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('base = "classic"\n[score_values]\n"8" = "fifty"\n', encoding="utf-8")
    with pytest.raises(RulesError, match=r'score_values: 8 = \'fifty\'; expected points, a whole number like "8" = 50'):
        load_rules(path)
    path.write_text('base = "classic"\n[effects]\n"8" = 5\n', encoding="utf-8")
    with pytest.raises(RulesError, match=r'effects: 8 = 5; expected a list of effects like "8" = \["wild"\]'):
        load_rules(path)


def test_deeply_nested_rules_file_is_refused_not_a_recursion_error(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("rounds = " + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(RulesError, match="nested too deeply"):
        load_rules(path)


# ----- preset names in any case (issue 23) --------------------------------------------------


@pytest.mark.parametrize("given", ["Classic", "CLASSIC", " classic ", "cLaSsIc"])
def test_preset_names_are_read_in_any_case(given, tmp_path):
    assert load_preset(given) == load_preset("classic")
    assert resolve_rules(given) == load_preset("classic")
    path = tmp_path / "house.toml"
    path.write_text(f'base = "{given}"\ndeal = 6\n', encoding="utf-8")
    assert load_rules(path) == load_preset("classic").with_options(["deal=6"])


def test_option_names_and_word_values_are_read_in_any_case():
    baby = load_preset("baby-eating")
    assert baby.with_options(["Teams=TRUE"]).teams is True
    assert baby.with_options([" EXPANDED_DECK = True "]).expanded_deck == "true"
    classic = load_preset("classic")
    assert classic.with_options(["draw=One_Ends_Turn", "Scoring=OWN_HAND"]) == classic.with_options(
        ["draw=one_ends_turn", "scoring=own_hand"]
    )


def test_an_unknown_preset_suggests_the_nearest():
    with pytest.raises(RulesError, match="unknown preset 'clasic' \\(did you mean classic\\?\\); valid presets"):
        load_preset("clasic")


# ----- saving house rules (issue 23) ---------------------------------------------------------

PRESET_OPTIONS = {
    "classic": ["deal=7", "target=100"],
    "action": ["stacking=true", "packs=2", "score_keeping=true"],
    "race": ["deal_two_players=5", "reshuffle=false"],
    "derange": ["short_rounds=true", "packs=3"],
    "baby-eating": ["teams=true", "expanded_deck=false"],
}


def test_every_preset_option_table_is_tried():
    assert set(PRESET_OPTIONS) == set(PRESETS)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("with_options", [False, True])
def test_saved_rules_load_back_to_the_same_rule_set(tmp_path, preset, with_options):
    options = PRESET_OPTIONS[preset] if with_options else []
    rules = load_preset(preset).with_options(options)
    path = tmp_path / "house.toml"
    path.write_text(rules.to_toml(file=str(path)), encoding="utf-8")
    again = load_rules(path)
    assert again == rules
    assert again.notes == rules.notes


@pytest.mark.parametrize("preset", PRESETS)
def test_saved_rules_name_the_base_and_only_the_rules_that_differ(preset):
    options = PRESET_OPTIONS[preset]
    text = load_preset(preset).with_options(options).to_toml(file="house.toml")
    comments = [line for line in text.splitlines() if line.startswith("#")]
    body = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert body[0] == f'base = "{preset}"'
    changed = sorted(line.partition(" = ")[0] for line in body[1:])
    assert changed == sorted(option.partition("=")[0] for option in options)
    assert any("eights play --rules house.toml" in line for line in comments)
    plain = load_preset(preset).to_toml()
    assert [line for line in plain.splitlines() if line and not line.startswith("#")] == [f'base = "{preset}"']


def test_saved_rules_write_a_whole_table_that_differs_and_odd_text_safely(tmp_path):
    classic = load_preset("classic")
    rules = classic.replace(
        name='my "house"\nrules\x7f', effects={"8": ["wild"], "Q": ["skip"]}, notes=["tab\there", "back\\slash"]
    )
    text = rules.to_toml()
    assert 'base = "classic"' in text  # the preset it differs from least
    assert '[effects]\n"8" = ["wild"]\n"Q" = ["skip"]' in text
    assert "[score_values]" not in text
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    again = load_rules(path)
    assert again == rules and again.notes == rules.notes


# ----- what a pack holds (issue 23) ----------------------------------------------------------


def test_pack_counts_come_from_the_pack_the_engine_deals():
    from collections import Counter

    for name in PRESETS:
        rules = load_preset(name)
        for players in range(rules.min_players, rules.max_players + 1):
            try:
                rules.check_players(players)
            except RulesError:
                continue
            assert rules.pack_counts(players) == Counter(rules.pack(players))


def test_pack_counts_without_players_is_the_largest_pack():
    classic = load_preset("classic").pack_counts()
    assert len(classic) == 52 and set(classic.values()) == {1}
    assert set(load_preset("derange").pack_counts().values()) == {2}
    assert set(load_preset("action").pack_counts().values()) == {3}  # three packs from 8 players
    baby = load_preset("baby-eating").pack_counts()
    assert baby[Card("GJ")] == baby[Card("JK")] == 1  # the expanded deck adds no jokers
    assert baby[Card("KH")] == baby[Card("AS")] == 1 and baby[Card("8H")] == 2
    assert load_preset("baby-eating").with_options(["expanded_deck=false"]).pack_counts()[Card("8H")] == 1


@pytest.mark.parametrize(
    ("preset", "hand", "players", "message"),
    [
        (
            "classic",
            "8H JK",
            None,
            "JK cannot be in a hand: classic's pack holds no JK (one pack of 52 cards, no jokers)",
        ),
        ("classic", "8H 8H 8H", None, "8♥ is given three times, but classic's pack holds only one (one pack of 52"),
        ("action", "8H 8H 8H 8H", None, "action's largest pack holds only three (three packs of 52 cards)"),
        ("action", "8H 8H", 3, "8♥ is given twice, but action's pack for 3 players holds only one"),
        ("derange", "GJ", None, "derange's pack holds no GJ (two packs of 52 cards, no jokers)"),
        ("classic", "", None, "the hand has no cards"),
    ],
)
def test_check_hand_refuses_a_hand_the_pack_cannot_deal(preset, hand, players, message):
    with pytest.raises(RulesError) as info:
        load_preset(preset).check_hand(parse_cards(hand), players)
    assert message in str(info.value)


def test_check_hand_accepts_what_the_pack_holds():
    load_preset("derange").check_hand(parse_cards("8H 8H KS"))
    load_preset("action").check_hand(parse_cards("8H 8H 8H"))
    load_preset("baby-eating").check_hand(parse_cards("GJ JK 8H 8H"))


def test_a_rule_set_no_table_can_play_is_refused_when_it_is_read(tmp_path):
    # `eights rules --rules` used to describe it, and only a game found out.
    path = tmp_path / "huge.toml"
    path.write_text('base = "classic"\ndeal = 99999999999999999999\n', encoding="utf-8")
    with pytest.raises(RulesError, match=r"deal: dealing 99999999999999999999 cards to 2 players plus a starter"):
        load_rules(path)
    with pytest.raises(RulesError, match="with 2 players deal at most 25 cards"):
        load_preset("classic").with_options(["deal=26"])
    assert load_preset("race").with_options(["deal=30"]).hand_size(2) == 7  # two players still fit


def test_a_number_too_long_to_read_is_refused_in_words(tmp_path):
    path = tmp_path / "long.toml"
    path.write_text('base = "classic"\ndeal = ' + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(RulesError, match="a number in it is too long to read"):
        load_rules(path)


@pytest.mark.parametrize(
    "option", ["deal=\u0665", "deal=1_0", "target=+50", "deal= 7x", "rounds=8,+6,4", "rounds=8,\u0666,4"]
)
def test_option_numbers_are_digits_0_to_9(option):
    """Found with issue 29, item 9: int() read "+50", "1_0" and Arabic-Indic digits in --option too."""
    with pytest.raises(RulesError, match="whole number"):
        load_preset("derange").with_options([option])
    assert load_preset("derange").with_options(["deal=7", "rounds=8,6,4"]).rounds == (8, 6, 4)
