#!/usr/bin/env bash
# Install everything into .venv and run every check: lint, format, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev,research,lab,ray]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports  # the layers of docs/architecture.md (pyproject.toml, [tool.importlinter])
# The app that plays with no server (issue 39), built as a static host gets it: npm fetches its runtime
# once. Without npm (a fresh machine) it is skipped, saying why, as the tests that need it are; under CI it must run.
if command -v npm >/dev/null 2>&1 || [ "${CI:-}" = "true" ]; then
    .venv/bin/eights site build/site
else
    echo "skipped: building the offline app (eights site) needs Node.js and npm (Debian's nodejs and npm packages)"
fi
.venv/bin/pytest
# The engine's two builds (issue 32). The install above compiles the engine's hot path with mypyc
# where a C compiler exists, and the suite above ran on that build (tests/engine/test_builds.py plays the
# same random games in both); the engine, property and determinism tests run again on the pure one.
.venv/bin/eights --version
EIGHTS_PURE=1 .venv/bin/pytest tests/engine/test_properties.py tests/engine/test_determinism.py \
    tests/engine/test_pickle.py tests/engine/test_sampling.py tests/rules/test_classic.py tests/rules/test_action.py \
    tests/rules/test_race.py tests/rules/test_derange_*.py tests/rules/test_baby_eating_*.py
