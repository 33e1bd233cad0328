"""Hostile clients against a real ``eights serve`` (its own process, real sockets; docs/security.md): what
they may read, what they may make, and what they cannot do to anyone else. Each test names the limit or
door it checks; limits are set low with ``--set-limit`` so that a few messages reach them."""

from __future__ import annotations

import json
import re
import socket as socket_module
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.support.browser import PATIENCE, LiveServer, deaf_socket
from tests.support.moves import first_move

PUBLIC = "https://eights.example.org"
#: The largest rules' states (100-card hands of four packs, with stacking), the sockets that read nothing, and
#: the bytes that may wait for each (in the server; the system holds a little more: ``send_buffer_bytes``).
DEEPEST = {"packs": "4", "stacking": "true", "rounds": "100,100,100"}
DEAF = 20
OUTBOX = 16384


def call(
    base: str, path: str, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> tuple[int, Any, dict[str, str]]:
    """An HTTP request: its status, its body (JSON when it is) and its headers; errors are answers too."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json", **(headers or {})}
    )
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            status, raw, got = answer.status, answer.read(), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        status, raw, got = exc.code, exc.read(), dict(exc.headers)
    try:
        return status, json.loads(raw), got
    except ValueError:
        return status, raw.decode(), got


def socket(server: LiveServer, **headers: str) -> ClientConnection:
    return connect(server.base.replace("http", "ws") + "/ws", additional_headers=headers, open_timeout=PATIENCE)


def say(ws: ClientConnection, **message: Any) -> None:
    ws.send(json.dumps(message))


def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=PATIENCE))
        if message["type"] == kind:
            return message


def closed_with(ws: ClientConnection) -> int | None:
    """Read until the server closes the socket; the code it closed with."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10_000):
            ws.recv(timeout=PATIENCE)
    return closed.value.rcvd.code if closed.value.rcvd else None


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    options = getattr(request, "param", ())
    live = LiveServer(tmp_path / "hostile.db", pace=0, options=("--public-url", PUBLIC, *options))
    try:
        yield live
    finally:
        live.stop()


def with_options(*options: str) -> Any:
    return pytest.mark.parametrize("server", [options], indirect=True)


def room(server: LiveServer, **body: Any) -> dict[str, Any]:
    status, made, _ = call(server.base, "/api/rooms", {"name": "Ann", **body})
    assert status == 200, made
    return dict(made)


def post_from(server: LiveServer, forwarded: str) -> int:
    """The status of a new room asked for with ``X-Forwarded-For: forwarded``."""
    return call(server.base, "/api/rooms", {"name": "Ann", "seats": ["me", "open"]}, {"X-Forwarded-For": forwarded})[0]


# ----- 1. hidden cards ---------------------------------------------------------------------------------------


def test_no_record_of_a_match_in_play_to_anyone(server: LiveServer) -> None:
    made = room(server, seats=["me", "normal"], start=True)
    path = f"/api/rooms/{made['code']}/record"
    status, answer, _ = call(server.base, path)
    assert status == 403 and "seed" not in json.dumps(answer)
    status, answer, _ = call(server.base, path, headers={"X-Seat-Token": "not-a-token"})
    assert status == 403
    status, answer, _ = call(server.base, path, headers={"X-Seat-Token": made["token"]})
    words = "the record can be had once the match is over: it shows every hand"
    assert status == 409 and answer == {"error": words, "code": "not_over"}


def test_no_message_or_public_answer_names_the_seed(server: LiveServer) -> None:
    made = room(server, seats=["me", "easy"], start=True)
    seen: list[str] = [json.dumps(call(server.base, f"/api/rooms/{made['code']}")[1])]
    with socket(server) as host, socket(server) as watcher:
        say(host, type="hello", room=made["code"], token=made["token"])
        say(watcher, type="hello", room=made["code"], token=None)
        seen.append(json.dumps(until(watcher, "state")))
        state = until(host, "state")
        seen.append(json.dumps(state))
        say(host, type="act", version=state["version"], action="nonsense 99")
        seen.append(json.dumps(until(host, "error")))
    assert not any(re.search(r'"seed"', text) for text in seen)


# ----- 2. computer budgets -----------------------------------------------------------------------------------


def test_a_computer_with_a_budget_of_its_own_is_refused(server: LiveServer) -> None:
    status, answer, _ = call(
        server.base, "/api/rooms", {"name": "Ann", "seats": ["me", "expert@99999999999999999999s"], "start": True}
    )
    assert status == 400 and answer["error"] == (
        "seats: unknown computer 'expert@99999999999999999999s'; valid: open, easy, normal, learned, hard, expert"
    )
    made = room(server, seats=["me", "open"])
    with socket(server) as host:
        say(host, type="hello", room=made["code"], token=made["token"])
        state = until(host, "state")
        say(
            host,
            type="setup",
            version=state["version"],
            preset="classic",
            players=2,
            seats=["person", "hard@100000000"],
        )
        assert until(host, "error")["code"] == "bad_setup"


# ----- 3. rooms ----------------------------------------------------------------------------------------------


@with_options("--set-limit", "rooms_per_client=3/hour")
def test_a_client_makes_only_its_share_of_rooms(server: LiveServer) -> None:
    for _ in range(3):
        room(server, seats=["me", "open"])
    status, answer, _ = call(server.base, "/api/rooms", {"name": "Ann", "seats": ["me", "open"]})
    assert status == 429 and answer["code"] == "too_many_rooms"


@with_options("--set-limit", "rooms_per_client=2/hour", "--trust-proxy", "127.0.0.1")
def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_share(server: LiveServer) -> None:
    statuses = [post_from(server, client) for client in ("203.0.113.7", "203.0.113.8") * 2]
    assert statuses == [200] * 4 and post_from(server, "203.0.113.7") == 429


@with_options("--set-limit", "rooms_per_client=2/hour")
def test_without_a_trusted_proxy_a_forwarded_address_changes_nothing(server: LiveServer) -> None:
    statuses = [
        call(
            server.base, "/api/rooms", {"name": "Ann", "seats": ["me", "open"]}, {"X-Forwarded-For": f"198.51.100.{i}"}
        )[0]
        for i in range(3)
    ]
    assert statuses == [200, 200, 429]


@with_options("--set-limit", "max_rooms=2", "--trust-proxy", "127.0.0.1")
def test_the_server_holds_at_most_max_rooms(server: LiveServer) -> None:
    statuses = [post_from(server, f"192.0.2.{i}") for i in range(3)]
    assert statuses == [200, 200, 429]


# ----- 4. amplification and idle sockets --------------------------------------------------------------------


def test_a_spectators_hello_answers_only_its_sender(server: LiveServer) -> None:
    made = room(server, seats=["me", "open"])
    with socket(server) as first, socket(server) as second:
        say(first, type="hello", room=made["code"], token=None)
        until(first, "state")
        for _ in range(3):
            say(second, type="hello", room=made["code"], token=None)
            until(second, "state")
        say(first, type="ping")
        assert json.loads(first.recv(timeout=PATIENCE))["type"] == "pong"  # no state of the others' hellos


@with_options("--set-limit", "connections_per_client=3")
def test_a_client_holds_only_its_share_of_sockets(server: LiveServer) -> None:
    with ExitStack() as stack:
        held = [stack.enter_context(socket(server)) for _ in range(3)]
        with socket(server) as extra:
            assert json.loads(extra.recv(timeout=PATIENCE))["code"] == "too_many_connections"
            assert closed_with(extra) == 4029
        held[0].close()
        answers = []
        for _ in range(50):  # the server hears of the close a moment later
            with socket(server) as again:
                say(again, type="ping")
                answers.append(json.loads(again.recv(timeout=PATIENCE)).get("code", "pong"))
            if answers[-1] == "pong":
                break
        assert answers[-1] == "pong", "a socket closed gives its share back"


@with_options("--set-limit", "connections_per_room=2")
def test_a_room_takes_only_so_many_watchers_but_always_its_players(server: LiveServer) -> None:
    made = room(server, seats=["me", "open"])
    with ExitStack() as stack:
        for ws in [stack.enter_context(socket(server)) for _ in range(2)]:
            say(ws, type="hello", room=made["code"], token=None)
            until(ws, "state")
        with socket(server) as late:
            say(late, type="hello", room=made["code"], token=None)
            assert until(late, "error")["code"] == "room_full"
        with socket(server) as host:
            say(host, type="hello", room=made["code"], token=made["token"])
            assert until(host, "welcome")["seat"] == 0


@with_options("--set-limit", "hello_seconds=0.5")
def test_a_socket_that_says_nothing_is_closed(server: LiveServer) -> None:
    with socket(server) as silent:
        assert closed_with(silent) == 4010


@with_options("--set-limit", "refused_per_minute=10")
def test_a_sustained_rate_of_refused_messages_closes_the_connection(server: LiveServer) -> None:
    """Refusals between accepted messages add up: no streak to break."""
    with socket(server) as ws:
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(40):
                ws.send("not json")
                say(ws, type="ping")
                for _ in range(2):
                    ws.recv(timeout=PATIENCE)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4008


def test_binary_frames_are_refused(server: LiveServer) -> None:
    with socket(server) as ws:
        ws.send(json.dumps({"type": "ping"}).encode())
        assert until(ws, "error") == {
            "type": "error",
            "code": "bad_message",
            "message": "send messages as text frames of JSON",
        }


# ----- 6. room codes -----------------------------------------------------------------------------------------


def test_room_codes_have_forty_bits_or_more_without_look_alikes(server: LiveServer) -> None:
    codes = {room(server, seats=["me", "open"])["code"] for _ in range(5)}
    assert len(codes) == 5
    for code in codes:
        assert re.fullmatch(r"[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{9}", code)  # 31**9: 44.6 bits
        status, _, _ = call(server.base, f"/api/rooms/{code[:3]}-{code[3:6]}-{code[6:].lower()}")
        assert status == 200  # typed in groups, in any case


@with_options("--set-limit", "misses_per_client=5/minute")
def test_guessing_codes_is_throttled(server: LiveServer) -> None:
    made = room(server, seats=["me", "open"])
    statuses = [call(server.base, f"/api/rooms/ZZZZZZZ{i}{i}")[0] for i in range(2, 9)]
    assert statuses[:5] == [404] * 5 and statuses[5:] == [429, 429]
    assert call(server.base, f"/api/rooms/{made['code']}")[0] == 429  # even a right guess, for a while
    with socket(server) as ws:
        say(ws, type="hello", room="ZZZZZZZ22", token=None)
        assert until(ws, "error")["code"] == "too_fast"


def test_an_unknown_room_link_is_a_404_page(server: LiveServer) -> None:
    status, page, _ = call(server.base, "/r/NOSUCHRM")
    assert status == 404 and "There is no room NOSUCHRM" in page


# ----- 7. HTTP hygiene ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/", "/scorecard", "/api/presets", "/static/app.js", "/r/NOSUCHRM", "/scorecard-sw.js", "/scorecard.webmanifest"],
)
def test_every_answer_carries_the_security_headers(server: LiveServer, path: str) -> None:
    _, _, headers = call(server.base, path)
    got = {k.lower(): v for k, v in headers.items()}
    policy = got["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy
    assert got["x-content-type-options"] == "nosniff"
    assert got["referrer-policy"] == "no-referrer"
    assert "server" not in got


def test_a_socket_from_a_foreign_page_is_refused(server: LiveServer) -> None:
    with pytest.raises(InvalidStatus) as refused:
        socket(server, Origin="https://evil.example")
    assert refused.value.response.status_code == 403
    for origin in (PUBLIC, server.base):
        with socket(server, Origin=origin) as ws:
            say(ws, type="ping")
            assert until(ws, "pong")


def test_links_come_from_the_public_url_not_the_host_header(server: LiveServer) -> None:
    status, made, _ = call(
        server.base, "/api/rooms", {"name": "Ann", "seats": ["me", "open"]}, {"Host": "evil.example"}
    )
    assert status == 200 and made["url"] == f"{PUBLIC}/r/{made['code']}"
    _, svg, _ = call(server.base, f"/api/rooms/{made['code']}/qr.svg", headers={"Host": "evil.example"})
    assert "<svg" in svg


def test_every_error_has_one_shape(server: LiveServer) -> None:
    for path, body in [("/api/rooms", {"nme": "typo"}), ("/api/rooms", {"name": 5}), ("/api/nothing", None)]:
        status, answer, _ = call(server.base, path, body)
        assert status in (400, 404) and set(answer) == {"error"} and isinstance(answer["error"], str), answer


# ----- the command itself ------------------------------------------------------------------------------------


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "eights.cli", "serve", *args], capture_output=True, text=True, timeout=PATIENCE
    )


def test_a_busy_port_or_a_bad_address_is_one_line_and_nothing_announced(tmp_path: Path) -> None:
    with socket_module.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = serve("--port", str(port), "--db", str(tmp_path / "a.db"))
    assert busy.returncode == 2 and busy.stdout == ""
    assert busy.stderr.strip().splitlines() == [
        f"eights: error: cannot listen on 127.0.0.1 port {port}: it is in use (another server?); "
        "choose another with --port or --host"
    ]
    bad = serve("--host", "203.0.113.250", "--port", str(port), "--db", str(tmp_path / "b.db"))
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1
    assert "cannot listen on 203.0.113.250" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            ("--set-limit", "max_room=5"),
            "unknown limit 'max_room'; valid limits: rooms_per_client, sheets_per_client,",
        ),
        (("--set-limit", "max_rooms=lots"), "limit max_rooms: 'lots' is not a whole number"),
        (("--set-limit", "rooms_per_client=often"), "limit rooms_per_client: 'often' is not a rate like 20/hour"),
        (("--set-limit", "max_rooms"), "--set-limit 'max_rooms': give NAME=VALUE, like max_rooms=500"),
        (("--public-url", "eights.example.org"), "public URL 'eights.example.org': give the address people open"),
        (("--trust-proxy", "my-proxy"), "trusted proxy 'my-proxy': give an address like 127.0.0.1"),
    ],
)
def test_bad_settings_are_refused_in_one_line(tmp_path: Path, args: tuple[str, ...], words: str) -> None:
    done = serve(*args, "--db", str(tmp_path / "c.db"))
    assert done.returncode == 2 and done.stdout == "" and words in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# ----- what the operator watches -----------------------------------------------------------------------------


def test_health_for_anyone_and_metrics_for_this_machine_only(server: LiveServer) -> None:
    made = room(server, seats=["me", "hard"], start=True)
    with socket(server) as ws:
        say(ws, type="hello", room=made["code"], token=made["token"])
        until(ws, "state")
        status, health, _ = call(server.base, "/healthz")
        assert status == 200 and health == {"status": "ok", "rooms": 1, "connections": 1}
        status, text, headers = call(server.base, "/metrics")
    assert status == 200 and {k.lower(): v for k, v in headers.items()}["content-type"].startswith("text/plain")
    samples = dict(
        line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#")
    )  # name{labels} value
    assert samples['eights_rooms{phase="playing"}'] == "1.0" and samples["eights_connections"] == "1.0"
    assert "eights_decisions_queued" in samples and "eights_decision_seconds_count" in samples
    assert samples["eights_reviews_running"] == "0.0"
    assert samples['eights_labs{state="waiting"}'] == samples['eights_labs{state="playing"}'] == "0.0"


@with_options("--trust-proxy", "127.0.0.1")
def test_metrics_are_not_for_a_client_behind_the_proxy(server: LiveServer) -> None:
    status, answer, _ = call(server.base, "/metrics", headers={"X-Forwarded-For": "198.51.100.7"})
    assert status == 404 and answer == {"error": "there is nothing at that address"}
    assert call(server.base, "/metrics")[0] == 200  # the proxy's own machine (a scraper beside it)


# ----- from the review: more doors -------------------------------------------------------------------------


def test_a_body_larger_than_any_form_is_refused_unread(server: LiveServer) -> None:
    huge = {"name": "Ann", "options": {f"k{i}": "v" * 70 for i in range(400)}}
    status, answer, _ = call(server.base, "/api/rooms", huge)
    assert status == 413 and answer == {"error": "a request may hold at most 16384 bytes"}
    many = {"name": "Ann", "seats": ["me", "open"], "options": {f"k{i}": "1" for i in range(65)}}
    status, answer, _ = call(server.base, "/api/rooms", many)
    assert status == 400 and answer["error"].startswith("options:")


@with_options("--set-limit", "connections_per_client=2", "--set-limit", "sheets_per_client=2/hour")
def test_score_sheet_sockets_and_sheets_pass_the_same_door(server: LiveServer) -> None:
    made = [call(server.base, "/api/sheets", {"preset": "classic", "players": ["Ann", "Bob"]}) for _ in range(3)]
    assert [status for status, _, _ in made] == [200, 200, 429]
    code = made[0][1]["code"]
    url = server.base.replace("http", "ws") + f"/ws/sheets/{code}"
    with pytest.raises(InvalidStatus):
        connect(url, additional_headers={"Origin": "https://evil.example"}, open_timeout=PATIENCE)
    with connect(url, open_timeout=PATIENCE), connect(url, open_timeout=PATIENCE):
        with pytest.raises(InvalidStatus):  # the client's share of sockets counts these too
            connect(url, open_timeout=PATIENCE)
        with socket(server) as ws:
            assert json.loads(ws.recv(timeout=PATIENCE))["code"] == "too_many_connections"


def test_a_seated_persons_hello_said_again_is_not_sent_to_everyone(server: LiveServer) -> None:
    made = room(server, seats=["me", "open"])
    with socket(server) as host, socket(server) as watcher:
        say(host, type="hello", room=made["code"], token=made["token"])
        until(host, "state")
        say(watcher, type="hello", room=made["code"], token=None)
        until(watcher, "state")
        for _ in range(5):
            say(host, type="hello", room=made["code"], token=made["token"])
            until(host, "state")
        say(watcher, type="ping")
        assert json.loads(watcher.recv(timeout=PATIENCE))["type"] == "pong"


@with_options("--set-limit", "hello_seconds=1")
def test_pings_do_not_put_off_the_hello(server: LiveServer) -> None:
    with socket(server) as ws, pytest.raises(ConnectionClosed) as closed:
        for _ in range(200):
            say(ws, type="ping")
            ws.recv(timeout=PATIENCE)
            time.sleep(0.05)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4010


@with_options("--set-limit", "rooms_per_client=1/hour", "--trust-proxy", "127.0.0.1")
def test_every_line_of_x_forwarded_for_is_read(server: LiveServer) -> None:
    """A proxy that adds a line of its own: the client's forged line before it does not win."""
    request = (
        "POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "X-Forwarded-For: 127.0.0.1\r\nX-Forwarded-For: 203.0.113.9\r\nContent-Length: {n}\r\n"
        "Connection: close\r\n\r\n{body}"
    )
    body = json.dumps({"name": "Ann", "seats": ["me", "open"]})
    statuses = []
    for _ in range(2):
        with socket_module.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as raw:
            raw.sendall(request.format(n=len(body), body=body).encode())
            statuses.append(int(raw.recv(100).split()[1]))
    assert statuses == [200, 429]  # counted as 203.0.113.9, twice
    status, _, _ = call(server.base, "/metrics", headers={"X-Forwarded-For": "203.0.113.9"})
    assert status == 404


def test_behind_an_untrusted_proxy_metrics_are_not_public(server: LiveServer) -> None:
    status, _, _ = call(server.base, "/metrics", headers={"X-Forwarded-For": "198.51.100.3"})
    assert status == 404


def test_a_host_name_made_to_point_here_gets_no_socket(server: LiveServer) -> None:
    """DNS rebinding: a page of a name of the attacker's that resolves to this machine."""
    rebound = f"rebind.evil.example:{server.port}"
    with pytest.raises(InvalidStatus):
        socket(server, Origin=f"http://{rebound}", Host=rebound)
    with socket(server, Origin=server.base) as ws:  # the page opened by the machine's address
        say(ws, type="ping")
        assert until(ws, "pong")


def metrics(server: LiveServer) -> dict[str, float]:
    """The server's metrics, by name (with its labels)."""
    _, text, _ = call(server.base, "/metrics")
    return {
        name: float(value)
        for name, value in (line.rsplit(" ", 1) for line in text.splitlines() if line and not line.startswith("#"))
    }


@with_options(
    *("--set-limit", f"outbox_bytes={OUTBOX}", "--set-limit", "send_buffer_bytes=8192"),
    *("--set-limit", "messages_per_second=1000", "--set-limit", "message_burst=2000"),  # the person plays at once
    *("--set-limit", "max_hand_size=100"),  # the largest states: hands this server's operator chose to allow
)
def test_sockets_that_never_read_hold_little_and_are_let_go(server: LiveServer) -> None:
    """Derange with four packs, stacking and 100-card deals (the largest states), played by a person who reads
    everything, watched by 20 sockets that read nothing: the states waiting for each are one (the newest, with
    the narration of the ones it replaced), the bytes waiting in the server stay under each socket's limit, and
    each reader that falls that far behind is closed (4009: its browser would reconnect); the person plays on."""
    made = room(server, preset="derange", options=DEEPEST, seats=["me", "easy"], start=True)
    readers = [deaf_socket(server.port, {"type": "hello", "room": made["code"], "token": None}) for _ in range(DEAF)]
    most, moves, seen = 0.0, 0, metrics(server)
    try:
        with socket(server) as ws:
            say(ws, type="hello", room=made["code"], token=made["token"])
            deadline = time.monotonic() + 4 * PATIENCE
            while seen["eights_outbox_slow_readers_total"] < DEAF:
                assert time.monotonic() < deadline, f"after {moves} moves: {seen}"
                message = json.loads(ws.recv(timeout=PATIENCE))
                table = message.get("table") if message["type"] == "state" else None
                if table and table["legal"]:
                    say(ws, type="act", version=message["version"], action=first_move(table))
                    moves += 1
                    seen = metrics(server)
                    most = max(most, seen["eights_outbox_bytes"])
            assert metrics(server)["eights_connections"] == 1  # the person's socket is not one of them
    finally:
        for reader in readers:
            reader.close()
    assert seen["eights_outbox_states_replaced_total"] > DEAF  # states waiting were replaced by newer ones
    assert 0 < most <= (DEAF + 1) * OUTBOX, most
