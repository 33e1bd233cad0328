"""The README's command for the server benchmarks installs what they import (issue 29, item 17: after the
README's install bench/server.py failed with "No module named 'httpx'")."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, packages_distributions, requires
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def needed(requirement: str, extras: set[str] | None = None) -> set[str]:
    """The distributions a requirement brings in, itself and all it requires (with its extras)."""
    found: set[str] = set()
    todo = [Requirement(requirement)]
    while todo:
        req = todo.pop()
        name = req.name.lower().replace("_", "-")
        if name in found:
            continue
        found.add(name)
        try:
            for text in requires(req.name) or ():
                sub = Requirement(text)
                if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in req.extras or {""}):
                    todo.append(sub)
        except PackageNotFoundError:
            pass
    return found


def test_the_readme_command_installs_every_module_the_server_benches_import() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"\.venv/bin/pip install '\.\[([a-z-]+)\]'\n((?:\s*\.venv/bin/python bench/\w+\.py\n)+)", readme)
    assert block, "the README gives an install command right before the server benches"
    scripts = re.findall(r"bench/(\w+\.py)", block[2])
    assert "server.py" in scripts
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"][block[1]]]
    installed: set[str] = set()
    for requirement in wanted:
        installed |= needed(requirement)
    local = {path.stem for path in (ROOT / "bench").glob("*.py")} | {"eights", "tests", "__future__"}
    owners = packages_distributions()
    for script in scripts:
        for module in sorted(imported(ROOT / "bench" / script, local) - set(sys.stdlib_module_names) - local):
            distributions = {d.lower().replace("_", "-") for d in owners.get(module, [module])}
            lacking = f"bench/{script} imports {module}, which `pip install '.[{block[1]}]'` does not install"
            assert distributions & installed, lacking


def imported(script: Path, local: set[str]) -> set[str]:
    """The top-level modules ``script`` imports, with those of the bench's own modules it imports (its
    parts: bench/server.py's clients and instances)."""
    found: set[str] = set()
    todo, seen = [script], set()
    while todo:
        path = todo.pop()
        seen.add(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and (isinstance(node, ast.Import) or node.module):
                for alias in node.names:
                    name = (node.module if isinstance(node, ast.ImportFrom) else alias.name) or ""
                    top = name.split(".")[0]
                    found.add(top)
                    part = script.parent / f"{top}.py"
                    if top in local and part.is_file() and part not in seen:
                        todo.append(part)
    return found
