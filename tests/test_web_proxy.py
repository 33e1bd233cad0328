"""``eights serve`` behind nginx with TLS, configured by docs/deploy/nginx.conf as it stands (only the
site's names, ports and paths replaced): pages and the WebSocket over HTTPS, links made from the public
address, and the client's address taken from the proxy, never from what a client forges."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.browser import PATIENCE, LiveServer, free_port

CONFIG = Path(__file__).resolve().parent.parent / "docs" / "deploy" / "nginx.conf"


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[tuple[int, ssl.SSLContext, LiveServer]]:
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if nginx is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is needed under CI and is missing (Debian's package: nginx)")
        pytest.skip("skipped: no nginx here; `.ci/run` installs Debian's nginx")
    certificate = ["-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-days", "1"]
    files = ["-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")]
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", *certificate, *files],
        check=True,
        capture_output=True,
    )
    https, plain = free_port(), free_port()
    server = LiveServer(
        tmp_path / "proxied.db",
        pace=0,
        options=(
            "--public-url",
            f"https://localhost:{https}",
            "--trust-proxy",
            "127.0.0.1",
            "--set-limit",
            "rooms_per_client=2/hour",
        ),
    )
    site = {
        "pid /run/nginx-eights.pid;": f"pid {tmp_path}/nginx.pid;",
        "/var/log/nginx/eights-error.log": str(tmp_path / "error.log"),
        "/var/log/nginx/eights-access.log": str(tmp_path / "access.log"),
        "listen 80;": f"listen 127.0.0.1:{plain};",
        "listen 443 ssl;": f"listen 127.0.0.1:{https} ssl;",
        "server_name eights.example.org;": "server_name localhost;",
        "/etc/letsencrypt/live/eights.example.org/fullchain.pem": str(tmp_path / "cert.pem"),
        "/etc/letsencrypt/live/eights.example.org/privkey.pem": str(tmp_path / "key.pem"),
        "server 127.0.0.1:8000;": f"server 127.0.0.1:{server.port};",
    }
    text = CONFIG.read_text()
    for documented, here in site.items():
        assert documented in text, f"docs/deploy/nginx.conf no longer holds {documented!r}"
        text = text.replace(documented, here)
    (tmp_path / "nginx.conf").write_text(text)
    process = subprocess.Popen(
        [nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
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
        yield https, context, server
    finally:
        process.terminate()
        process.wait(10)
        server.stop()


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


def test_a_match_is_played_through_nginx_with_tls(proxy: tuple[int, ssl.SSLContext, LiveServer]) -> None:
    https, context, _ = proxy
    status, page, headers = get(https, context, "/")
    assert status == 200 and "<!doctype html>" in page.lower()
    assert "max-age" in headers["strict-transport-security"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    status, made, _ = get(https, context, "/api/rooms", {"name": "Ann", "seats": ["me", "easy"], "start": True})
    assert status == 200 and made["url"] == f"https://localhost:{https}/r/{made['code']}"
    origin = f"https://localhost:{https}"
    with connect(
        f"wss://localhost:{https}/ws",
        ssl=context,
        additional_headers={"Origin": origin},
        source_address=("127.0.0.9", 0),
        open_timeout=PATIENCE,
    ) as ws:
        ws.send(json.dumps({"type": "hello", "room": made["code"], "token": made["token"]}))
        kinds = []
        while "state" not in kinds:
            kinds.append(json.loads(ws.recv(timeout=PATIENCE))["type"])
        assert kinds == ["welcome", "state"]


def test_behind_the_proxy_a_forged_address_changes_nothing(proxy: tuple[int, ssl.SSLContext, LiveServer]) -> None:
    """The client's address is the one nginx saw: a forged X-Forwarded-For does not buy more rooms."""
    https, context, _ = proxy
    body = {"name": "Ann", "seats": ["me", "open"]}
    statuses = [get(https, context, "/api/rooms", body, {"X-Forwarded-For": f"203.0.113.{i}"})[0] for i in range(3)]
    assert statuses == [200, 200, 429]
    assert get(https, context, "/api/rooms", body, source="127.0.0.10")[0] == 200  # another client has its own
