"""docs/rules.md, the rules reference, against the tests and the engine; and the rules a player
reads (`eights rules`, the rules screen) explain decisions instead of citing their numbers."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from eights.rules import PRESETS, RulesError, RuleSet, load_preset, option_names
from eights.rules.describe import REFERENCE, describe, describe_text, heading

ROOT = Path(__file__).resolve().parents[2]
RULES_MD = ROOT / "docs" / "rules.md"
DECISION_NUMBER = re.compile(r"\bD\d+\b")


def reference() -> str:
    return RULES_MD.read_text(encoding="utf-8")


def decisions() -> dict[int, str]:
    """Each decision's paragraph in section 7, by number."""
    section = reference().split("## 7.", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^\*\*D(\d+)\. (.*?)(?=^\*\*D\d+\. |\Z)", section, flags=re.M | re.S)
    return {int(number): text for number, text in found}


def test_the_reference_has_decisions_d1_to_d47_in_order_each_with_question_rule_and_reason():
    found = decisions()
    assert sorted(found) == list(range(1, 48))
    numbers = [int(n) for n in re.findall(r"^\*\*D(\d+)\. ", reference(), flags=re.M)]
    assert numbers == list(range(1, 48)), "each decision once, in order"
    for number, text in found.items():
        question = text.split("**", 1)[0]
        assert question.rstrip().endswith("?"), f"D{number} asks no question"
        assert "*Why:*" in text, f"D{number} gives no reason"


def test_every_decision_a_test_is_named_after_exists_in_the_reference():
    named = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        named |= {int(n) for n in re.findall(r"def test_d(\d+)_", path.read_text(encoding="utf-8"))}
    assert named, "no test is named after a decision"
    assert named <= set(decisions())


def test_every_decision_cited_in_the_reference_exists():
    cited = {int(n) for n in re.findall(r"\bD(\d+)\b", reference())}
    assert cited <= set(decisions())


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_has_a_section_with_its_source_what_it_says_and_what_we_decided(preset):
    match = re.search(rf"^## \d+\. {re.escape(preset)}\n(.*?)(?=^## |\Z)", reference(), flags=re.M | re.S)
    assert match is not None, f"no section for {preset}"
    body = match.group(1)
    assert "**Where it comes from.**" in body
    assert "**What the source says.**" in body
    assert "what we decided.**" in body


def score_table() -> dict[str, dict[str, str]]:
    """Section 8's table: preset -> card -> value as written."""
    section = reference().split("## 8.", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip().strip("`").split()[0].strip("`") for cell in rows[0].strip("|").split("|")]
    table: dict[str, dict[str, str]] = {name: {} for name in header[1:]}
    for row in rows[2:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        for name, value in zip(header[1:], cells[1:], strict=True):
            table[name][cells[0]] = value
    return table


def test_the_worked_score_table_is_the_engines():
    table = score_table()
    assert set(table) == {name for name in PRESETS if load_preset(name).score_values}
    for name, written in table.items():
        values = dict(load_preset(name).score_values)
        seen = []
        for cards, value in written.items():
            lo, _, hi = cards.partition("-")
            for rank in [str(r) for r in range(int(lo), int(hi) + 1)] if hi else [cards]:
                expected = rank if value == "face value" else value
                assert str(values[rank]) == expected, f"{name} {rank}: written {value}, engine {values[rank]}"
                seen.append(rank)
        assert sorted(seen) == sorted(values), f"{name}: the table's ranks are not the engine's"


def test_every_option_the_docs_name_is_one_the_rules_accept():
    docs = reference() + (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    written = set(re.findall(r"`([a-z_]+=[^`\s]+)`", docs))
    assert written, "the docs name no option"
    for option in written:
        assert option.partition("=")[0] in option_names(), option
        example = option.replace("=N", "=3")  # target=N: any number
        accepted = False
        for name in PRESETS:
            try:
                load_preset(name).with_options([example])
            except RulesError:
                continue
            accepted = True
        assert accepted, f"no preset accepts {option}"


# ----- what a player reads: no decision numbers ------------------------------------------------


def variations() -> list[tuple[str, RuleSet]]:
    """Every preset as shipped, and with each option that changes the words turned on or off."""
    toggles = [f.name for f in fields(RuleSet) if f.type in ("bool", bool)]
    extra = ["packs=0", "packs=2", "deal_two_players=7", "target=100", "hands=3", "rounds=8,6,4", "expanded_deck=true"]
    cases = []
    for name in PRESETS:
        base = load_preset(name)
        cases.append((name, base))
        options = [f"{field}={'false' if getattr(base, field) else 'true'}" for field in toggles]
        for option in options + extra:
            try:
                cases.append((f"{name} {option}", base.with_options([option])))
            except RulesError:
                continue
    return cases


def test_rules_text_for_every_preset_and_option_cites_no_decision_number():
    cases = variations()
    assert len(cases) > 3 * len(PRESETS)
    for label, rules in cases:
        text = describe_text(rules)
        assert not DECISION_NUMBER.findall(text), f"{label}: {DECISION_NUMBER.findall(text)}"


@pytest.mark.parametrize("preset", PRESETS)
def test_rules_text_ends_pointing_at_the_reference_in_the_repository(preset):
    rules = load_preset(preset)
    assert REFERENCE in describe_text(rules).rstrip().splitlines()[-1]
    last = describe(rules)[-1]
    assert last.lines == (f"{REFERENCE}",) or (len(last.lines) == 1 and REFERENCE in last.lines[0])
    assert RULES_MD.is_file()
    assert "../shared" not in describe_text(rules) and "RULES.md" not in describe_text(rules)
    assert heading(rules) in describe_text(rules)


@pytest.mark.parametrize("preset", PRESETS)
def test_eights_rules_prints_no_decision_number(preset):
    from typer.testing import CliRunner

    from eights.cli import app

    for args in (["rules", preset], ["rules", preset, "-o", "stacking=true"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        assert not DECISION_NUMBER.findall(result.stdout), DECISION_NUMBER.findall(result.stdout)
        assert "docs/rules.md" in result.stdout
