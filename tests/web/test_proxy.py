"""``eights serve`` behind nginx with TLS, configured by docs/deploy/nginx.conf as it stands (only the
site's names, ports and paths replaced): pages and the WebSocket over HTTPS, links made from the public
address, and the client's address taken from the proxy, never from what a client forges."""

from __future__ import annotations

import json
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.support.browser import PATIENCE, LiveServer, free_port
from tests.support.nginx import get, nginx_in_front

CONFIG = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "nginx.conf"


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[tuple[int, ssl.SSLContext, LiveServer]]:
    https = free_port()
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
    try:
        with nginx_in_front(tmp_path, https, [server.port]) as context:
            yield https, context, server
    finally:
        server.stop()


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
