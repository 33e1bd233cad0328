"""What the web table's page is made from that needs no server: the presets and every option a house may
change (``GET /api/presets``) and a rule set in words (``GET /api/rules``), for the server's routes and for the
page's own Python when it plays with no server (``eights.web.offline``)."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from eights.bots import LEVELS
from eights.rules import PRESETS, RuleSet, load_preset, option_names
from eights.rules.describe import describe, heading
from eights.rules.ruleset import DRAW_POLICIES, EXPANDED_DECK, SCORING_MODES
from eights.table.session import SPEED_WORDS
from eights.web.rooms.seats import rules_from
from eights.web.setup_words import CHARACTER, EXPANDED_WORDS, GROUPS, OPTIONS
from eights.web.wire import VERSION


def _label(key: str) -> str:
    return OPTIONS[key][0] if key in OPTIONS else key.replace("_", " ").capitalize()


#: What 0 means for the whole-number options where 0 is not a count (the form says it beside the box).
ZERO_WORDS = {
    "packs": "0: the fewest packs that seat everyone",
    "jokers": "0: no jokers",
    "deal_two_players": "0: as Deal",
    "deal_extra_packs": "0: as Deal",
    "draw_limit": "0: no limit",
    "target": "0: no target score",
    "target_per_player": "0: no target per player",
    "hands": "0: one hand, or play to the target",
    "expanded_from": "0: never by the player count",
    "expanded_max_players": "0: as many as the packs seat",
}

#: Text options with a fixed set of values.
CHOICES = {"draw": tuple(DRAW_POLICIES), "scoring": tuple(SCORING_MODES), "expanded_deck": EXPANDED_DECK}


def option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def option_space(rules: RuleSet) -> list[dict[str, Any]]:
    """Every option a house may change, from the rule set's own fields: kind, value and choices; the
    ones the rules show first (``main``) lead, in their order."""
    kinds = {f.name: f.type for f in fields(RuleSet)}
    out = []
    for key in option_names():
        if key in ("name", "title", "source"):
            continue
        value = getattr(rules, key)
        kind = str(kinds[key])
        group, about = OPTIONS[key][1:] if key in OPTIONS else (GROUPS[-1], "")
        entry: dict[str, Any] = {
            "key": key,
            "label": _label(key),
            "value": option_text(value),
            "group": group,
            "about": about,
        }
        if key in CHOICES:
            entry.update(kind="choice", choices=list(CHOICES[key]))
            words = {**DRAW_POLICIES, **SCORING_MODES, **EXPANDED_WORDS}
            entry["choice_words"] = [words.get(c, c.replace("_", " ")) for c in CHOICES[key]]
        elif "bool" in kind:
            entry["kind"] = "bool"
        elif "int" in kind and "tuple" not in kind:
            entry["kind"] = "int"
            if key in ZERO_WORDS:
                entry["zero"] = ZERO_WORDS[key]
        elif "tuple" in kind:
            entry["kind"] = "list"
        else:
            entry["kind"] = "text"
        entry["main"] = key in rules.shown_options
        out.append(entry)
    order = {key: index for index, key in enumerate(rules.shown_options)}
    out.sort(key=lambda e: order.get(e["key"], len(order)))
    return out


@functools.cache
def presets_json() -> dict[str, Any]:
    presets = []
    for name in PRESETS:
        rules = load_preset(name)
        summary = next((s.lines[0] for s in describe(rules) if s.lines), "")
        presets.append(
            {
                "name": name,
                "title": rules.title,
                "heading": heading(rules),
                "summary": summary,
                "character": CHARACTER.get(name, summary),
                "min_players": rules.min_players,
                "max_players": max(rules.max_players, rules.expanded_max_players),
                "default_players": min(max(4, rules.min_players), rules.max_players),
                "options": option_space(rules),
            }
        )
    return {
        "protocol": VERSION,
        "presets": presets,
        "levels": list(LEVELS),
        "groups": list(GROUPS),
        "speeds": [{"speed": n, "words": w} for n, w in SPEED_WORDS.items()],
    }


def rules_json(preset: str, options: Iterable[str]) -> dict[str, Any]:
    """``preset`` with ``options`` (``key=value`` texts) in words: its heading and its sections.

    :raises RulesError: naming the bad preset or option.
    """
    rules = rules_from(preset, dict(item.partition("=")[::2] for item in options))
    return {
        "heading": heading(rules),
        "sections": [{"title": s.title, "lines": list(s.lines)} for s in describe(rules)],
    }
