"""Write a transcript of a whole plain-text match of each preset to ``docs/transcripts/PRESET.txt``.

Each is what ``eights play --plain --humans 0 --bots normal --variant PRESET --seed 1 --players 4``
prints: four computer players at the normal level, seed 1, nothing saved. They show what a new
player reads: every move, each rule said the first time it acts, each round's end and the result.

Regenerate them after any change to the narration (``src/eights/table/narrate.py``), the plain
mode, the rules or the computer players, and commit them with that change::

    .venv/bin/python scripts/transcripts.py

``tests/table/test_narrate.py`` fails while a committed transcript differs from what this script makes.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from eights.rules.ruleset import PRESETS
from eights.table.session import Session, build_config
from eights.tui.plain import run_plain

#: Where the transcripts go, in the repository.
FOLDER = Path(__file__).resolve().parent.parent / "docs" / "transcripts"
SEED = 1
PLAYERS = 4
LEVEL = "normal"


def transcript(preset: str) -> str:
    """The plain-text match of ``preset`` between computer players, as printed."""
    config = build_config(preset, players=PLAYERS, bots=LEVEL, humans=0, seed=SEED)
    out = io.StringIO()
    run_plain(Session(config), io.StringIO(""), out)
    return out.getvalue()


def path_for(preset: str) -> Path:
    return FOLDER / f"{preset}.txt"


def main() -> int:
    FOLDER.mkdir(parents=True, exist_ok=True)
    for preset in PRESETS:
        path = path_for(preset)
        path.write_text(transcript(preset), encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
