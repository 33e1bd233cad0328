"""nginx in front of ``eights serve``, configured by docs/deploy/nginx.conf as it stands: only the site's
names, ports and paths are replaced (and its one upstream server by the instances given)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.support.browser import PATIENCE, free_port
from tests.support.extras import missing

CONFIG = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "nginx.conf"


def nginx_program() -> str:
    """Debian's nginx; the test is skipped without it (failed under CI)."""
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if nginx is None:
        missing("nginx", "not on the PATH nor in /usr/sbin", "`.ci/run` installs Debian's nginx")
    return nginx


@contextmanager
def nginx_in_front(folder: Path, https: int, upstreams: list[int]) -> Iterator[ssl.SSLContext]:
    """nginx with TLS on 127.0.0.1:``https`` (a certificate for ``localhost`` made here) in front of the
    instances on ``upstreams`` (ports on 127.0.0.1); the TLS context that trusts it."""
    nginx = nginx_program()
    certificate = ["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-days", "1"]
    files = ["-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")]
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", *certificate, *files],
        check=True,
        capture_output=True,
    )
    servers = "\n        ".join(f"server 127.0.0.1:{port};" for port in upstreams)
    site = {
        "pid /run/nginx-eights.pid;": f"pid {folder}/nginx.pid;",
        "/var/log/nginx/eights-error.log": str(folder / "error.log"),
        "/var/log/nginx/eights-access.log": str(folder / "access.log"),
        "listen 80;": f"listen 127.0.0.1:{free_port()};",
        "listen 443 ssl;": f"listen 127.0.0.1:{https} ssl;",
        "server_name eights.example.org;": "server_name localhost;",
        "/etc/letsencrypt/live/eights.example.org/fullchain.pem": str(folder / "cert.pem"),
        "/etc/letsencrypt/live/eights.example.org/privkey.pem": str(folder / "key.pem"),
        "server 127.0.0.1:8000;": servers,
    }
    text = CONFIG.read_text()
    for documented, here in site.items():
        assert documented in text, f"docs/deploy/nginx.conf no longer holds {documented!r}"
        text = text.replace(documented, here)
    (folder / "nginx.conf").write_text(text)
    process = subprocess.Popen(
        [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    context = ssl.create_default_context(cafile=str(folder / "cert.pem"))
    try:
        deadline = time.monotonic() + PATIENCE
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"nginx stopped: {process.stderr.read().decode() if process.stderr else ''}")
            try:
                get(https, context, "/api/presets")
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not answer"
                time.sleep(0.1)
        yield context
    finally:
        process.terminate()
        process.wait(10)


def get(
    port: int,
    context: ssl.SSLContext,
    path: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.9",
) -> tuple[int, Any, dict[str, str]]:
    """A request to the proxy over HTTPS, from the loopback address ``source``."""
    connection = http.client.HTTPSConnection(
        "localhost", port, context=context, timeout=PATIENCE, source_address=(source, 0)
    )
    try:
        data = None if body is None else json.dumps(body)
        connection.request(
            "GET" if body is None else "POST",
            path,
            body=data,
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        answer = connection.getresponse()
        raw = answer.read()
        headers = {name.lower(): value for name, value in answer.getheaders()}
        return answer.status, json.loads(raw) if raw.startswith(b"{") else raw.decode(), headers
    finally:
        connection.close()
