"""``eights site``: the app as static files (issue 39): the page with relative paths and its manifest, the
Pyodide runtime, a zip of only the package's modules the worker imports, and a service worker that lists
every file; and one clear sentence when npm is missing."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from eights.web.site import (
    PYODIDE,
    RUNTIME,
    SiteError,
    build,
    imported_modules,
    python_zip,
    runtime_dir,
    stdlib_zip,
)
from tests.support.command import run


def test_without_npm_the_build_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a machine with no npm on its PATH
    with pytest.raises(SiteError, match=r"install Node\.js and npm \(apt-get install nodejs npm\)"):
        runtime_dir(tmp_path / "cache")
    assert not (tmp_path / "cache" / f"pyodide-{PYODIDE}").exists()


def test_the_command_fails_in_one_line_without_npm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    code, out, err = run("site", str(tmp_path / "out"))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "npm" in err, err


def test_the_zip_holds_the_rooms_and_nothing_of_the_server() -> None:
    modules = imported_modules()
    names = zipfile.ZipFile(io.BytesIO(python_zip(modules))).namelist()
    for needed in ("eights/web/offline.py", "eights/web/rooms/room.py", "eights/rules/presets/classic.toml"):
        assert needed in names
    assert "confusable_homoglyphs/confusables.json" in names  # the rule for names needs its data
    for server in ("eights/web/app.py", "eights/web/protocol.py", "eights/web/socket.py", "eights/store/"):
        assert not any(name.startswith(server) for name in names), server
    assert not any(m.split(".")[0] in ("pydantic", "fastapi", "redis", "starlette") for m in modules)


def test_the_site_lists_every_file_for_the_service_worker(tmp_path: Path) -> None:
    files = build(tmp_path / "site")
    out = tmp_path / "site"
    for name in RUNTIME:
        assert f"pyodide/{name}" in files
    page = (out / "index.html").read_text()
    assert '<link rel="manifest" href="eights.webmanifest">' in page
    assert '"/static/' not in page and 'src="./app.js"' in page
    worker = (out / "app-sw.js").read_text()
    listed = json.loads(re.search(r"const FILES = (\[.*\]);", worker)[1])  # type: ignore[index]
    assert set(listed) == {"./", *(name for name in files if name != "app-sw.js")}
    assert re.search(r'const VERSION = "[0-9a-f]{16}";', worker)
    manifest = json.loads((out / "eights.webmanifest").read_text())
    assert manifest["name"] == "Eights" and manifest["start_url"] == "./"
    assert not any(name.startswith("scorecard") for name in files)  # the score sheet is an app of its own


def test_the_standard_library_is_shipped_without_what_no_module_of_the_game_imports(tmp_path: Path) -> None:
    whole = zipfile.ZipFile(runtime_dir() / "python_stdlib.zip").namelist()
    kept = zipfile.ZipFile(io.BytesIO(stdlib_zip(runtime_dir() / "python_stdlib.zip"))).namelist()
    assert "unittest/__init__.py" in whole and not any(name.startswith("unittest/") for name in kept)
    assert "encodings/cp1252.py" in whole and "encodings/cp1252.py" not in kept
    for needed in (
        "difflib.py",
        "email/__init__.py",
        "encodings/utf_8.py",
        "asyncio/__init__.py",
        "tomllib/__init__.py",
    ):
        assert needed in kept  # (the browser tests play every preset on what is kept)
