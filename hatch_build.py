"""Hatchling build hook: compile the engine's hot path with mypyc where a C compiler exists.

The compiled build is the same modules (``COMPILED`` in ``src/eights/_build.py``) compiled, not
a second implementation. Without a C compiler, or with ``EIGHTS_PURE=1`` set at install time,
the wheel is the pure-Python build and the hook says so once. Each build writes
``eights/_compiled.json`` (the hash of every compiled module's source): the package runs the
compiled modules only while they match their sources (``eights._build``), so an editable
install whose sources changed since falls back to the pure build instead of running old code.

A wheel gets the extension modules through ``force_include``; an editable install gets them
next to the sources, in ``src/`` (ignored by git), where its import path finds them.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent
SRC = ROOT / "src"
MANIFEST = "eights/_compiled.json"

# Run in a child process: setuptools' build_ext does the compiling, and its output is shown only
# when it fails.
_COMPILE = """
import sys
from mypyc.build import mypycify
from setuptools import setup

out, temp, *paths = sys.argv[1:]
setup(
    name="eights-compiled",
    ext_modules=mypycify(paths, opt_level="3", group_name="eights", target_dir=temp),
    script_args=["build_ext", "--build-lib", out, "--build-temp", temp],
)
"""


def _compiled_modules() -> tuple[str, ...]:
    """``COMPILED`` as ``src/eights/_build.py`` lists it (read, not imported)."""
    tree = ast.parse((SRC / "eights" / "_build.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    raise RuntimeError("src/eights/_build.py lists no COMPILED modules")


def _source(module: str) -> Path:
    return SRC.joinpath(*module.split(".")).with_suffix(".py")


class CustomBuildHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        modules = _compiled_modules()
        editable = version == "editable"
        if editable:
            self._clean_in_place()
        if os.environ.get("EIGHTS_PURE", "") not in ("", "0"):
            self.app.display_info("eights: EIGHTS_PURE is set: installing the pure-Python build")
            return
        work = Path(tempfile.mkdtemp(prefix="eights-mypyc-"))
        out = work / "lib"
        paths = [str(_source(m)) for m in modules]
        try:
            done = subprocess.run(
                [sys.executable, "-c", _COMPILE, str(out), str(work / "temp"), *paths],
                cwd=SRC,
                env={**os.environ, "MYPY_CACHE_DIR": str(work / "cache")},
                capture_output=True,
                text=True,
                check=False,
            )
        except OSError as exc:
            done = subprocess.CompletedProcess([], 1, "", str(exc))
        built = sorted(out.rglob("*.so")) + sorted(out.rglob("*.pyd")) if out.is_dir() else []
        if done.returncode != 0 or not built:
            last = ((done.stderr or done.stdout).strip().splitlines() or ["no output"])[-1]
            self.app.display_warning(
                "eights: the compiled engine could not be built (it needs a C compiler and Python's headers: "
                f"{last[:160]}); installing the pure-Python build, which plays the same games, slower"
            )
            shutil.rmtree(work, ignore_errors=True)
            return
        manifest = work / "_compiled.json"
        manifest.write_text(json.dumps(_fingerprint(modules), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        if editable:
            for path in built:
                shutil.copy2(path, SRC / path.relative_to(out))
            shutil.copy2(manifest, SRC / MANIFEST)
            shutil.rmtree(work, ignore_errors=True)
        else:
            for path in built:
                build_data["force_include"][str(path)] = str(path.relative_to(out))
            build_data["force_include"][str(manifest)] = MANIFEST
            build_data["pure_python"] = False
            build_data["infer_tag"] = True
            self._work = work  # kept until the wheel holds its files
        self.app.display_info(f"eights: compiled {len(modules)} modules with mypyc")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)

    def _clean_in_place(self) -> None:
        """Remove what an earlier editable build left in ``src/``: every extension module, the manifest."""
        (SRC / MANIFEST).unlink(missing_ok=True)
        for pattern in ("*.so", "*.pyd"):
            for path in SRC.rglob(pattern):
                path.unlink()


def _fingerprint(modules: tuple[str, ...]) -> dict[str, Any]:
    import mypy.version

    return {
        "compiler": f"mypyc {mypy.version.__version__}",
        "modules": {m: hashlib.sha256(_source(m).read_bytes()).hexdigest() for m in modules},
    }
