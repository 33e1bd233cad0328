"""The optional extras' libraries for the tests that need them: skipped, saying why, when one is missing,
except under CI (CI=true), where a missing one fails."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str, extra: str) -> ModuleType:
    """``module`` imported, or the test module skipped (failed under CI) naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        message = f"{module} is not installed ({exc}); pip install -e '.[{extra}]' installs it"
        if os.environ.get("CI"):
            pytest.fail(f"needed under CI: {message}", pytrace=False)
        pytest.skip(f"skipped: {message}", allow_module_level=True)
