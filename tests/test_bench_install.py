"""The README's command for the server benchmark installs what bench/server.py imports (issue 29, item 17:
after the README's install it failed with "No module named 'httpx'")."""

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


def test_the_readme_command_installs_every_module_bench_server_imports() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"\.venv/bin/pip install '\.\[([a-z-]+)\]'\n\s*\.venv/bin/python bench/server\.py", readme)
    assert command, "the README gives an install command right before bench/server.py"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [*project["dependencies"], *project["optional-dependencies"][command[1]]]
    installed: set[str] = set()
    for requirement in wanted:
        installed |= needed(requirement)
    tree = ast.parse((ROOT / "bench" / "server.py").read_text(encoding="utf-8"))
    modules = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom) and (isinstance(node, ast.Import) or node.module)
        for alias in node.names
    }
    owners = packages_distributions()
    for module in sorted(modules - set(sys.stdlib_module_names) - {"eights", "tests", "__future__"}):
        distributions = {d.lower().replace("_", "-") for d in owners.get(module, [module])}
        assert distributions & installed, (
            f"bench/server.py imports {module}, which `pip install '.[{command[1]}]'` lacks"
        )
