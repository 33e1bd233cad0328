"""The page's JavaScript modules (``web/static/``) as a graph of imports (issue 38): no module imports one that
imports it back, however far round (the score sheet's modules, split from one file whose parts called each
other in every direction, are given a function where a lower one must call up); the score sheet's service
worker keeps every module its page loads, so that the page opens with no network; and the offline app leaves
out the modules only the score sheet loads."""

from __future__ import annotations

import re
from pathlib import Path

from eights.web.assets import STATIC
from eights.web.site import LEFT_OUT

ROOT = Path(str(STATIC))
#: ``import … from "./x.js"`` (over several lines too), ``import "./x.js"``, ``export … from "./x.js"`` and
#: ``import("./x.js")``: the relative imports a module makes.
IMPORT = re.compile(
    r"""\b(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?["'](\.{1,2}/[^"']+)["']"""
    r"""|\bimport\(\s*["'](\.{1,2}/[^"']+)["']\s*\)"""
)


def module_graph(root: Path) -> dict[str, list[str]]:
    """Every module under ``root`` by its path there ("app.js", "scorecard/sheet.js"), with the paths it imports."""
    graph: dict[str, list[str]] = {}
    for path in sorted([*root.rglob("*.js"), *root.rglob("*.mjs")]):
        targets = []
        for match in IMPORT.finditer(path.read_text(encoding="utf-8")):
            target = (path.parent / (match[1] or match[2])).resolve()
            targets.append(target.relative_to(root.resolve()).as_posix())
        graph[path.relative_to(root).as_posix()] = targets
    return graph


def cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """A cycle of imports, as the modules round it with the first again at the end; None when there is none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for target in graph.get(module, []):
            found = visit(target)
            if found:
                return found
        path.pop()
        done.add(module)
        return None

    for module in graph:
        found = visit(module)
        if found:
            return found
    return None


def loaded(graph: dict[str, list[str]], entry: str) -> set[str]:
    """The modules a page whose script is ``entry`` loads: it and all it imports, however far down."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, []))
    return seen


def test_no_module_of_the_pages_imports_itself_round_a_cycle() -> None:
    graph = module_graph(ROOT)
    assert {"scorecard.js", "scorecard/state.js", "app.js"} <= set(graph)
    assert "scorecard/state.js" in loaded(graph, "scorecard.js")
    found = cycle(graph)
    assert found is None, "these modules import each other round a cycle: " + " -> ".join(found or [])


def test_the_graph_reads_every_form_of_import_and_finds_a_cycle(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "top.js").write_text('import { a,\n  b } from "./sub/low.js";\nimport "./side.js";\n')
    (tmp_path / "side.js").write_text('export { c } from "./sub/low.js";\nconst x = import.meta.url;\n')
    (tmp_path / "sub" / "low.js").write_text('const later = await import("../late.js");\n')
    (tmp_path / "late.js").write_text("export const d = 1; // imports nothing\n")
    graph = module_graph(tmp_path)
    assert graph == {
        "late.js": [],
        "side.js": ["sub/low.js"],
        "sub/low.js": ["late.js"],
        "top.js": ["sub/low.js", "side.js"],
    }
    assert cycle(graph) is None
    (tmp_path / "late.js").write_text('import { a } from "./side.js";\n')
    assert cycle(module_graph(tmp_path)) == ["late.js", "side.js", "sub/low.js", "late.js"]


def test_the_score_sheets_worker_keeps_every_module_its_page_loads() -> None:
    worker = (ROOT / "scorecard-sw.js").read_text(encoding="utf-8")
    listing = re.search(r"const FILES = \[(.*?)\];", worker, re.DOTALL)
    assert listing is not None
    files = set(re.findall(r'"([^"]+)"', listing[1]))
    page = loaded(module_graph(ROOT), "scorecard.js")
    assert len(page) > 10
    missing = {f"/static/{module}" for module in page} - files
    assert not missing, f"scorecard-sw.js does not keep {sorted(missing)}"
    assert all((ROOT / name.removeprefix("/static/")).is_file() for name in files if name.startswith("/static/"))


def test_the_offline_app_leaves_out_the_modules_only_the_score_sheet_loads() -> None:
    graph = module_graph(ROOT)
    only_the_sheet = loaded(graph, "scorecard.js") - loaded(graph, "app.js")
    assert {"scorecard.js", "scoring.js", "scorecard/sheet.js"} <= only_the_sheet
    missing = only_the_sheet - set(LEFT_OUT)
    assert not missing, f"site.py's LEFT_OUT does not leave out {sorted(missing)}"
    assert all((ROOT / name).is_file() for name in LEFT_OUT)
