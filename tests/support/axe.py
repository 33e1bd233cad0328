"""axe-core 4 (Deque's accessibility engine, from the npm registry) run on a page in the browser tests.

It is never committed: ``npm pack axe-core@4`` fetches it once into a cache outside the checkout
(``$EIGHTS_AXE_CACHE``, else ``~/.cache/eights/axe``), read from there afterwards. Without npm and
without a cached copy the tests that use it skip, except under CI, where they fail.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
from functools import cache
from pathlib import Path
from typing import Any

#: The impacts that fail a page.
FAILING = ("serious", "critical")


class AxeUnavailable(RuntimeError):
    """No axe-core in the cache and no npm to fetch it."""


def cache_dir() -> Path:
    return Path(os.environ.get("EIGHTS_AXE_CACHE") or Path.home() / ".cache" / "eights" / "axe")


@cache
def axe_source() -> str:
    """axe.min.js, fetched into the cache the first time.

    :raises AxeUnavailable: when it is not cached and npm cannot fetch it.
    """
    folder = cache_dir()
    script = folder / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            raise AxeUnavailable("no axe-core cached and no npm to fetch it (Debian's package: npm)")
        folder.mkdir(parents=True, exist_ok=True)
        packed = subprocess.run(
            [npm, "pack", "axe-core@4", "--silent"], cwd=folder, capture_output=True, text=True, check=False
        )
        if packed.returncode != 0:
            raise AxeUnavailable(f"npm pack axe-core@4 failed: {packed.stderr.strip()[-500:]}")
        archive = folder / packed.stdout.strip().splitlines()[-1]
        with tarfile.open(archive) as tar:
            member = tar.extractfile("package/axe.min.js")
            assert member is not None
            partial = folder / "axe.min.js.part"
            partial.write_bytes(member.read())
            partial.replace(script)  # whole or not at all: a test run cut short leaves no half a file
    return script.read_text(encoding="utf-8")


def findings(page: Any) -> list[dict[str, Any]]:
    """axe's serious and critical findings on the page as it is now (its context made with
    ``bypass_csp=True``: the page's policy allows no script but its own)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    result: list[dict[str, Any]] = page.evaluate(
        """async (failing) => {
          const { violations } = await axe.run(document, { resultTypes: ["violations"] });
          return violations.filter((v) => failing.includes(v.impact)).map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.target.join(" ") + ": " + n.failureSummary.split("\\n").slice(0, 3).join(" ")),
          }));
        }""",
        list(FAILING),
    )
    return result


def assert_no_findings(page: Any, where: str) -> None:
    found = findings(page)
    assert not found, f"axe on the {where}: " + "; ".join(f"{f['id']} ({f['impact']}): {f['nodes'][:5]}" for f in found)
