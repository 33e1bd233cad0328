"""Which build of the engine runs: the modules compiled with mypyc, or their pure-Python sources.

The compiled modules are the ``COMPILED`` modules below, built from these very sources by the
install (``hatch_build.py``), which records the hash of each source in ``_compiled.json``. They
run only while every hash still matches and ``EIGHTS_PURE`` is unset (or ``0``); otherwise a
finder placed first on ``sys.meta_path`` loads each of them from its ``.py`` source, so the two
builds never mix. ``BUILD`` says which one runs and why.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The modules the install compiles: the engine's hot path, the search's inner loops and the observations.
COMPILED = (
    "eights.engine.actions",
    "eights.engine.tables",
    "eights.engine.phases",
    "eights.engine.game",
    "eights.engine.sampling",
    "eights.research.encoding",
    "eights.research.observer",
    "eights.bots.turnplan",
    "eights.bots.belief",
    "eights.bots.playout",
)

_HERE = Path(__file__).resolve().parent


class _Sources(importlib.abc.MetaPathFinder):
    """Loads the compiled modules from their sources."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, _source(fullname))


def _source(module: str) -> Path:
    return _HERE.parent.joinpath(*module.split(".")).with_suffix(".py")


def _choose() -> str:
    """``compiled (mypyc ...)``, or ``pure Python`` with the reason."""
    if os.environ.get("EIGHTS_PURE", "") not in ("", "0"):
        return "pure Python (EIGHTS_PURE is set)"
    try:
        manifest = json.loads((_HERE / "_compiled.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "pure Python (no compiled engine was built at install: it needs a C compiler)"
    hashes = manifest.get("modules", {})
    for module in COMPILED:
        try:
            source = _source(module).read_bytes()
        except OSError:
            source = b""
        if hashes.get(module) != hashlib.sha256(source).hexdigest():
            return f"pure Python (the compiled {module} is older than its source: reinstall to rebuild it)"
    return f"compiled ({manifest.get('compiler', 'mypyc')})"


BUILD = _choose()
if BUILD.startswith("pure") and not any(isinstance(f, _Sources) for f in sys.meta_path):
    sys.meta_path.insert(0, _Sources())
