"""The real parts and optional extras the tests need: a test that lacks one is skipped, saying why, except
under CI (CI=true), where a missing one fails."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest


def missing(part: str, why: object, remedy: str = "`.ci/run` installs one") -> NoReturn:
    """``part`` is not on this machine (``why``): skip the test (or its module) saying so and what installs
    it; under CI, fail."""
    if os.environ.get("CI"):
        pytest.fail(f"needed under CI and missing: {part} ({why})", pytrace=False)
    pytest.skip(f"skipped: no {part} here ({why}); {remedy}", allow_module_level=True)


def need(module: str, extra: str) -> ModuleType:
    """``module`` imported, or the test module skipped (failed under CI) naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        missing(module, exc, f"pip install -e '.[{extra}]' installs it")
