"""The page's own files (``static/``), read into memory once when the server starts and served from there
with an ETag: a reinstall of the package while ``eights serve`` runs (which removes and writes again the
installed files) cannot pull them from under the running server, and every page it serves stays the
version its code was started with."""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

STATIC = resources.files("eights.web") / "static"
#: The types of the page's files (the machine's own table may lack some, or name JavaScript otherwise).
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
}


@dataclass(frozen=True)
class Asset:
    body: bytes
    etag: str
    media_type: str


class Assets:
    """Every file under ``root``, by its path there ("app.js", "vendor/uqr.js"), read at once."""

    def __init__(self, root: Traversable = STATIC) -> None:
        self.files: dict[str, Asset] = {}
        self._read(root, "")

    def _read(self, folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            name = prefix + entry.name
            if entry.is_dir():
                self._read(entry, name + "/")
                continue
            body = entry.read_bytes()
            suffix = "." + name.rpartition(".")[2]
            media_type = TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            self.files[name] = Asset(body, etag, media_type)

    def response(self, name: str, request: Request) -> Response:
        """The file ``name`` (304 when the browser's copy, named by its ETag, is this one; 404 when there is
        no such file). Browsers ask again each time (``no-cache``), so a new version is seen at once."""
        asset = self.files.get(name)
        if asset is None:
            return JSONResponse({"error": "there is nothing at that address"}, status_code=404)
        headers = {"ETag": asset.etag, "Cache-Control": "no-cache"}
        if asset.etag in (tag.strip() for tag in request.headers.get("if-none-match", "").split(",")):
            return Response(status_code=304, headers=headers)
        return Response(asset.body, media_type=asset.media_type, headers=headers)
