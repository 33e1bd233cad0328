"""Rule sets: the presets load, options override fields by name, files load and
round-trip, and every rule set that cannot be played is refused with a RulesError
that names the field and the valid values."""

from __future__ import annotations

import pytest

from eights.engine import Game
from eights.engine.events import PlayerSkipped
from eights.rules import PRESETS, RulesError, RuleSet, load_preset, load_rules, option_names, resolve_rules
from tests.scripting import scripted


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
    with pytest.raises(RulesError, match="unknown field 'colour'"):
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
