"""The app that plays with no server, as static files (``eights site OUT``, and ``/app/`` of ``eights serve``).

The page is the web table's own (``static/``); its rooms are played by the package's own Python in a Web
Worker on Pyodide, the CPython of WebAssembly (npm ``pyodide``, MPL-2.0). The build puts together:

- the page's files, its ``index.html`` with its paths made relative (the app may live in any folder);
- the Pyodide runtime, fetched once from the npm registry (``npm pack``) into the user's cache;
- ``eights.zip``: the package's source files that ``eights.web.offline`` imports, and their data (the presets),
  and the one pure-Python package they need (``confusable_homoglyphs``, MIT, for the rule for names);
- the service worker (``app-sw.js``) with the list of every file to keep and the build's version, so that
  the app opens with no network after one visit.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable
from importlib import resources
from pathlib import Path

from platformdirs import user_cache_path

STATIC = resources.files("eights.web") / "static"
#: The Pyodide the app runs on (npm ``pyodide``: Python 3.14, MPL-2.0) and the files of it the app ships.
PYODIDE = "314.0.7"
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: Parts of Python's standard library (top-level names of Pyodide's ``python_stdlib.zip``) the app leaves out:
#: no module of the game imports them, nor Pyodide to start (XML, databases, processes, the
#: debugger, the test runner, the help, profilers): some 0.5 MB less to download the first time.
STDLIB_LEFT_OUT = frozenset(
    [
        "_pyrepl",
        "multiprocessing",
        "xml",
        "xmlrpc",
        "unittest",
        "wsgiref",
        "sqlite3",
        "pdb.py",
        "bdb.py",
        "doctest.py",
        "pydoc.py",
        "pickletools.py",
        "mailbox.py",
        "imaplib.py",
        "smtplib.py",
        "poplib.py",
        "ftplib.py",
        "antigravity.py",
        "this.py",
        "webbrowser.py",
        "cProfile.py",
        "profile.py",
        "pstats.py",
        "trace.py",
        "tracemalloc.py",
        "timeit.py",
        "tabnanny.py",
        "pyclbr.py",
        "modulefinder.py",
        "zipapp.py",
        "compileall.py",
        "py_compile.py",
        "mimetypes.py",
        "plistlib.py",
        "shelve.py",
        "wave.py",
        "optparse.py",
        "getopt.py",
        "csv.py",
        "configparser.py",
        "sched.py",
        "netrc.py",
        "pty.py",
        "tty.py",
        "_pyio.py",
        "argparse.py",
        "__hello__.py",
        "__phello__",
    ]
)
#: The text encodings the app keeps of ``encodings/`` (the game's text is UTF-8; the rest are the ones Python
#: and the modules it loads ask for by name): the scores of other codecs are left out, some 0.25 MB.
ENCODINGS_KEPT = frozenset(
    """__init__ aliases utf_8 utf_8_sig ascii latin_1 idna punycode charmap utf_16 utf_16_le utf_16_be utf_32
    utf_32_le utf_32_be raw_unicode_escape unicode_escape cp437""".split()  # noqa: SIM905 (a list of names)
)
#: The module the worker imports, whose imports make the zip.
ENTRY = "eights.web.offline"
#: Packages other than ours that the worker's Python imports (pure Python, with their data).
THIRD_PARTY = ("confusable_homoglyphs",)
#: Data files of the package's modules that the worker reads (the presets).
DATA = (".toml", ".json")
#: Files beside the modules that are not their data (the record of a compiled build, ``eights._build``).
NOT_DATA = ("_compiled.json",)
#: Page files the app leaves out: the score sheet's (an app of its own, on the server).
LEFT_OUT = (
    "scorecard.html",
    "scorecard-sw.js",
    "scorecard.webmanifest",
    "scorecard.js",
    "scorecard/basics.js",
    "scorecard/changes.js",
    "scorecard/entry.js",
    "scorecard/keep.js",
    "scorecard/live.js",
    "scorecard/offline.js",
    "scorecard/picker.js",
    "scorecard/share.js",
    "scorecard/sheet.js",
    "scorecard/start.js",
    "scorecard/state.js",
    "scorecard/sync.js",
    "scorecard.css",
    "scoring.js",
    "icons/scorecard.svg",
    "icons/scorecard-192.png",
    "icons/scorecard-512.png",
)


class SiteError(RuntimeError):
    """The app cannot be built; says why and what to do."""


def runtime_dir(cache: Path | None = None) -> Path:
    """The Pyodide runtime's files, fetched from the npm registry the first time into the user's cache.

    :raises SiteError: when npm is missing or the registry cannot be reached.
    """
    folder = (cache or user_cache_path("eights")) / f"pyodide-{PYODIDE}"
    if all((folder / name).is_file() for name in RUNTIME):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise SiteError(
            f"the app needs the Pyodide runtime (npm pyodide@{PYODIDE}), fetched with npm at build time: "
            "install Node.js and npm (apt-get install nodejs npm) and build again"
        )
    with tempfile.TemporaryDirectory() as temp:
        done = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE}", "--silent", "--pack-destination", temp],
            capture_output=True,
            text=True,
            check=False,
        )
        packs = list(Path(temp).glob("pyodide-*.tgz"))
        if done.returncode != 0 or not packs:
            raise SiteError(
                f"npm could not fetch pyodide@{PYODIDE} from its registry "
                f"({done.stderr.strip()[-200:] or 'no answer'}): check the network or npm's registry and build again"
            )
        folder.mkdir(parents=True, exist_ok=True)
        with tarfile.open(packs[0]) as pack:
            for name in RUNTIME:
                member = pack.extractfile(f"package/{name}")
                if member is None:
                    raise SiteError(f"the npm package pyodide@{PYODIDE} has no {name}")
                (folder / name).write_bytes(member.read())
    return folder


def imported_modules() -> list[str]:
    """The modules of ours (and ``THIRD_PARTY``'s) that the worker's entry imports, found by importing it in a
    fresh interpreter (so the build process's own imports do not count)."""
    probe = f"import sys, json, {ENTRY}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    roots = ("eights", *THIRD_PARTY)
    return [name for name in json.loads(done.stdout) if name.split(".")[0] in roots]


def source_of(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise SiteError(f"the module {module} has no source file to ship")
    origin = Path(spec.origin)
    if origin.suffix != ".py":  # a compiled build: its source lies beside it
        origin = origin.with_name(f"{module.rpartition('.')[2]}.py")
        if spec.submodule_search_locations:
            origin = origin.with_name("__init__.py")
    return origin


def python_zip(modules: Iterable[str]) -> bytes:
    """A zip of the modules' source files (each at its import path) and their packages' data files."""
    files: dict[str, Path] = {}
    for module in modules:
        source = source_of(module)
        parts = module.split(".")
        inner = "/".join(parts) + ("/__init__.py" if source.name == "__init__.py" else ".py")
        files[inner] = source
        if source.name == "__init__.py":  # a package: its data, and its data folders'
            for data in sorted(source.parent.rglob("*")):
                below = data.relative_to(source.parent)
                folders = [source.parent.joinpath(*below.parts[:i]) for i in range(1, len(below.parts))]
                inside = any((f / "__init__.py").exists() for f in folders) or "static" in below.parts
                if data.suffix in DATA and not inside and data.name not in NOT_DATA:
                    files["/".join(parts) + "/" + below.as_posix()] = data
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for inner, path in sorted(files.items()):
            info = zipfile.ZipInfo(inner, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return out.getvalue()


def stdlib_zip(path: Path) -> bytes:
    """Pyodide's standard library without ``STDLIB_LEFT_OUT`` and the codecs not in ``ENCODINGS_KEPT``."""
    out = io.BytesIO()
    with zipfile.ZipFile(path) as whole, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as kept:
        for info in whole.infolist():
            top, _, rest = info.filename.partition("/")
            codec = rest.rpartition(".")[0]
            if top == "encodings" and rest and codec not in ENCODINGS_KEPT:
                continue
            if top not in STDLIB_LEFT_OUT:
                kept.writestr(info, whole.read(info), compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return out.getvalue()


def app_page(page: str) -> str:
    """The table's page as the app's: its paths relative to its folder, with the app's manifest."""
    page = page.replace('"/static/', '"./')
    marks = '<meta name="eights-app" content="offline">\n<link rel="manifest" href="eights.webmanifest">\n'
    marks += '<meta name="theme-color" content="#1a4a2e">\n<link rel="apple-touch-icon" href="icons/eights-192.png">\n'
    return page.replace('<meta charset="utf-8">\n', '<meta charset="utf-8">\n' + marks, 1)


def build(out: Path, cache: Path | None = None) -> list[str]:
    """Write the whole app into ``out`` (made if need be; files of an earlier build are replaced). The files
    written, relative to ``out``.

    :raises SiteError: when the runtime cannot be had (npm or its registry missing).
    """
    runtime = runtime_dir(cache)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, bytes] = {}
    for item in _static_files():
        name, data = item
        if name == "index.html":
            data = app_page(data.decode()).encode()
        written[name] = data
    for name in RUNTIME:
        written[f"pyodide/{name}"] = (runtime / name).read_bytes()
    written["pyodide/python_stdlib.zip"] = kept_stdlib(runtime)
    written["eights.zip"] = python_zip(imported_modules())
    version = hashlib.sha256(b"".join(hashlib.sha256(d).digest() for _, d in sorted(written.items()))).hexdigest()[:16]
    keep = ["./", *sorted(name for name in written if name != "app-sw.js")]
    worker = written["app-sw.js"].decode()
    filled = f"const VERSION = {json.dumps(version)};\nconst FILES = {json.dumps(keep)};\n"
    written["app-sw.js"] = worker.replace("const VERSION = null;\nconst FILES = [];\n", filled, 1).encode()
    for name, data in written.items():
        target = out / name
        if target.is_file() and target.stat().st_size == len(data) and target.read_bytes() == data:
            continue  # (as `eights serve` builds it at every start)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return sorted(written)


def kept_stdlib(runtime: Path) -> bytes:
    """``stdlib_zip`` of the runtime's library, made once for each choice of what is left out (kept beside it)."""
    choice = json.dumps([sorted(STDLIB_LEFT_OUT), sorted(ENCODINGS_KEPT)]).encode()
    made = runtime / f"python_stdlib-app-{hashlib.sha256(choice).hexdigest()[:12]}.zip"
    if not made.is_file():
        made.write_bytes(stdlib_zip(runtime / "python_stdlib.zip"))
    return made.read_bytes()


def _static_files() -> list[tuple[str, bytes]]:
    found = []
    root = Path(str(STATIC))
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_file() and name not in LEFT_OUT:
            found.append((name, path.read_bytes()))
    return found
