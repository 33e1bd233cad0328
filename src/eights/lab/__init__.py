"""The variant lab: compare rule sets by simulation with computer players, each figure with a 95% interval
(``eights.stats``).

``run_lab(rulesets, players, games, seed, jobs=..., budget=..., cluster=...)`` plays and totals
(``eights.lab.run``); ``eights.lab.report`` draws the charts and writes the HTML page;
``eights lab`` is the command (``eights.cli.lab``). ``quick_lab`` is the short lab a server
runs before a family plays: plain data, capped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eights.lab.report import notes, panels, rows
from eights.lab.run import DEFAULT_BUDGET, LabError, LabResult, OnGame, run_lab
from eights.rules import RuleSet, load_preset

#: The caps of ``quick_lab``: games of each kind per rule set, and the expert's search iterations a move.
QUICK_MAX_GAMES = 200
QUICK_MAX_BUDGET = 200
QUICK_MAX_RULESETS = 5


def quick_lab(
    rulesets: Sequence[RuleSet | str],
    players: int,
    games: int = 40,
    budget: int = 50,
    seed: int = 0,
    *,
    names: Sequence[str] | None = None,
    on_game: OnGame | None = None,
) -> dict[str, Any]:
    """A short lab in this process, for a server's worker pool: the figures and the charts as JSON-able data.

    ``rulesets`` are rule sets or preset names (shown as ``names`` if given); ``games`` (at most
    ``QUICK_MAX_GAMES``) of each kind per rule set, the expert searching ``budget`` iterations a move
    (at most ``QUICK_MAX_BUDGET``); ``on_game`` as ``run_lab``'s (raising ``KeyboardInterrupt`` there
    stops the lab: the figures are those of the games played, marked ``partial``).
    Returns ``LabResult.to_dict()`` (the ``eights lab --json`` object) with ``charts``: each chart of
    the report as data (``eights.lab.report.Panel.to_dict``), ``rows``: the figures as text, a row
    per figure with a cell per rule set (as ``eights lab`` prints them), and ``notes``: what they rest
    on, in words (where each comes from, its interval, the edges these games can see).

    :raises LabError: beyond the caps, naming them; ``RulesError`` for rules the players cannot play.
    """
    if len(rulesets) > QUICK_MAX_RULESETS:
        raise LabError(f"a quick lab compares at most {QUICK_MAX_RULESETS} rule sets (given {len(rulesets)})")
    if not 1 <= games <= QUICK_MAX_GAMES:
        raise LabError(f"games: {games}; a quick lab plays 1 to {QUICK_MAX_GAMES}")
    if not 1 <= budget <= QUICK_MAX_BUDGET:
        raise LabError(f"budget: {budget}; a quick lab's expert searches 1 to {QUICK_MAX_BUDGET} iterations a move")
    rules = [r if isinstance(r, RuleSet) else load_preset(r) for r in rulesets]
    result = run_lab(rules, players, games, seed, names=names, budget=budget, on_game=on_game)
    data = result.to_dict()
    data["charts"] = [p.to_dict() for p in panels(result)]
    data["rows"] = [{"label": label, "cells": cells} for label, cells in rows(result)]
    data["notes"] = notes(result)
    return data


__all__ = ["DEFAULT_BUDGET", "LabError", "LabResult", "quick_lab", "run_lab"]
