"""The layers of docs/architecture.md as a newcomer meets them: what importing a module brings with it.

``lint-imports`` (scripts/check.sh) holds the import graph to the contracts in pyproject.toml; these tests
hold what is loaded when a module is imported, in a fresh interpreter, and that the core of the game is
the standard library's and ours alone (so that it runs in a browser on WebAssembly as it is)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "eights"

#: The modules and packages that use the standard library only (and one another).
CORE = ["cards.py", "words.py", "seeds.py", "stats.py", "tokens.py", "saving.py", "rules", "engine", "bots"]


def loaded_after(module: str) -> set[str]:
    """The top-level names in sys.modules after ``import module`` in a fresh interpreter."""
    code = f"import sys, json, {module}; print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return set(json.loads(out))


@pytest.mark.parametrize(
    "module",
    [
        "eights.research.pettingzoo",
        "eights.web.rooms.registry",
        "eights.lab.run",
        "eights.tui.app",
        "eights.runs.tournament",
    ],
)
def test_only_the_command_line_brings_typer(module: str) -> None:
    """Before, `import eights.pettingzoo` loaded Typer through the tournaments, and eights.web.rooms the
    serve command."""
    assert "typer" not in loaded_after(module)


def test_eights_version_loads_no_command_and_no_database() -> None:
    loaded = loaded_after("eights.cli")
    assert not loaded & {"sqlalchemy", "fastapi", "textual", "numpy"}


def test_a_room_loads_no_web_framework_database_or_redis() -> None:
    """The room actor is the one a browser runs with no server."""
    loaded = loaded_after("eights.web.rooms.room")
    assert not loaded & {"fastapi", "starlette", "sqlalchemy", "redis", "pydantic", "uvicorn"}


def imported_by(path: Path) -> set[str]:
    """The top-level packages a module imports (at any depth of the file)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("part", CORE)
def test_the_core_uses_the_standard_library_only(part: str) -> None:
    files = [SRC / part] if part.endswith(".py") else sorted((SRC / part).rglob("*.py"))
    for path in files:
        foreign = imported_by(path) - set(sys.stdlib_module_names) - {"eights"}
        assert not foreign, f"{path.relative_to(SRC)} imports {sorted(foreign)}"
