"""How long the ``eights`` command takes to answer its quickest questions, as a whole process: ``eights
--version`` and ``eights rules classic``, each run ``--runs`` times (default 15) after one run to warm the
disk cache; the median, the fastest and the slowest, in milliseconds, and the modules each loads
(``python -X importtime``: the count, and whether Typer, SQLAlchemy, Textual or FastAPI are among them).

Run from the repository root::

    python bench/startup.py
    python bench/startup.py --runs 30 --eights .venv/bin/eights

JSON on stdout.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = (["--version"], ["rules", "classic"])
#: Heavy libraries a quick command should not load.
HEAVY = ("typer", "sqlalchemy", "textual", "fastapi", "uvicorn", "redis", "numpy")


def timed(program: list[str], args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([*program, *args], check=True, capture_output=True)
    return time.perf_counter() - started


def loaded(args: list[str]) -> tuple[int, list[str]]:
    """The modules ``eights ARGS`` imports, and which of the heavy ones."""
    code = "import sys; from eights.cli import main; sys.argv = ['eights', *sys.argv[1:]]; main()"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, *args], capture_output=True, text=True, check=False
    )
    names = [line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]
    names = [name for name in names if name and not name.startswith("imported")]
    heavy = sorted({name.split(".")[0] for name in names} & set(HEAVY))
    return len(names), heavy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--eights", default=None, help="the eights program (default: .venv/bin/eights, else PATH)")
    args = parser.parse_args()
    found = args.eights or (str(ROOT / ".venv" / "bin" / "eights") if (ROOT / ".venv/bin/eights").exists() else None)
    found = found or shutil.which("eights")
    if found is None:
        parser.error("no eights program: install the project (README) or give --eights")
    program = [found]
    results: dict[str, Any] = {}
    for command in COMMANDS:
        timed(program, command)
        times = sorted(timed(program, command) for _ in range(args.runs))
        modules, heavy = loaded(command)
        results["eights " + " ".join(command)] = {
            "median_ms": round(statistics.median(times) * 1000, 1),
            "min_ms": round(times[0] * 1000, 1),
            "max_ms": round(times[-1] * 1000, 1),
            "modules": modules,
            "heavy_modules": heavy,
        }
    report = {
        "benchmark": "eights' start-up, whole processes",
        "command": " ".join(["python", "bench/startup.py", *sys.argv[1:]]),
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()[0]},
        "runs": args.runs,
        "results": results,
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
