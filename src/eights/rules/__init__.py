"""Rule sets as data: the frozen ``RuleSet``, the shipped presets and house-rules files."""

from eights.rules.ruleset import (
    DRAW_POLICIES,
    PRESETS,
    SCORING_MODES,
    RulesError,
    RuleSet,
    load_preset,
    load_rules,
    option_names,
    resolve_rules,
)

__all__ = [
    "DRAW_POLICIES",
    "PRESETS",
    "SCORING_MODES",
    "RuleSet",
    "RulesError",
    "load_preset",
    "load_rules",
    "option_names",
    "resolve_rules",
]
