"""The web table's app: pages and static files, the JSON API, and the WebSocket (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import fields
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.types import Receive, Scope, Send

from eights.bots import LEVELS
from eights.describe import describe, heading
from eights.rules import PRESETS, RulesError, RuleSet, load_preset, option_names
from eights.rules.ruleset import DRAW_POLICIES, EXPANDED_DECK, SCORING_MODES
from eights.store import Store, StoreError
from eights.store.sheets import Sheets
from eights.table.session import SPEED_WORDS
from eights.web.protocol import VERSION, ProtocolError, error, parse
from eights.web.rooms import DEFAULT_AWAY, Connection, Hub, RoomError, rules_from
from eights.web.scorecard import scorecard_routes
from eights.web.workers import BotPool

STATIC = resources.files("eights.web") / "static"
#: Messages a connection may send a second, and in a burst.
RATE, BURST = 20.0, 40
#: Refused messages in a row before a flooding connection is closed.
FLOOD_LIMIT = 200
#: Messages waiting for a slow browser before it is dropped.
OUTBOX = 512
#: Closing codes (4000-4999 are the application's own).
CLOSE_REPLACED, CLOSE_FLOOD, CLOSE_SLOW = 4000, 4008, 4009
#: Young collections between two full ones, at the least (Python's default is 10, when the old
#: objects also grew by a quarter). A full collection looks at every object of every room and
#: connection: with 500 rooms (half a million objects) it stops the server for about 0.3 s, which
#: the default made happen every 20-30 s (bench/server.py).
FULL_COLLECTION_EVERY = 1000


class NewRoom(BaseModel):
    """``POST /api/rooms``."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=64)]
    preset: Annotated[str, Field(max_length=40)] = "classic"
    options: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=80)]] = {}
    players: Annotated[int, Field(ge=1, le=32)] | None = None
    seats: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=32)] | None = None
    away_seconds: Annotated[int, Field(ge=5, le=3600)] = DEFAULT_AWAY
    start: bool = False


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


#: Text options with a fixed set of values.
CHOICES = {"draw": tuple(DRAW_POLICIES), "scoring": tuple(SCORING_MODES), "expanded_deck": EXPANDED_DECK}


def option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def option_space(rules: RuleSet) -> list[dict[str, Any]]:
    """Every option a house may change, from the rule set's own fields: kind, value and choices; the
    ones the rules show first (``main``) lead, in their order."""
    kinds = {f.name: f.type for f in fields(RuleSet)}
    out = []
    for key in option_names():
        if key in ("name", "title", "source"):
            continue
        value = getattr(rules, key)
        kind = str(kinds[key])
        entry: dict[str, Any] = {"key": key, "label": _label(key), "value": option_text(value)}
        if key in CHOICES:
            entry.update(kind="choice", choices=list(CHOICES[key]))
        elif "bool" in kind:
            entry["kind"] = "bool"
        elif "int" in kind and "tuple" not in kind:
            entry["kind"] = "int"
        elif "tuple" in kind:
            entry["kind"] = "list"
        else:
            entry["kind"] = "text"
        entry["main"] = key in rules.shown_options
        out.append(entry)
    order = {key: index for index, key in enumerate(rules.shown_options)}
    out.sort(key=lambda e: order.get(e["key"], len(order)))
    return out


def presets_json() -> dict[str, Any]:
    presets = []
    for name in PRESETS:
        rules = load_preset(name)
        summary = next((s.lines[0] for s in describe(rules) if s.lines), "")
        presets.append(
            {
                "name": name,
                "title": rules.title,
                "heading": heading(rules),
                "summary": summary,
                "min_players": rules.min_players,
                "max_players": max(rules.max_players, rules.expanded_max_players),
                "default_players": min(max(4, rules.min_players), rules.max_players),
                "options": option_space(rules),
            }
        )
    return {
        "protocol": VERSION,
        "presets": presets,
        "levels": list(LEVELS),
        "speeds": [{"speed": n, "words": w} for n, w in SPEED_WORDS.items()],
    }


class Bucket:
    """A token bucket: ``rate`` messages a second, bursts of ``burst``."""

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def tune_gc() -> None:
    """For the process that serves: the objects made so far (modules, the app) are left out of every
    later collection, and full collections become rare (``FULL_COLLECTION_EVERY``)."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


async def gone(message: dict[str, Any]) -> None:
    """Where a closed connection's messages go."""


class App(FastAPI):
    """The app, with the WebSocket at ``/ws`` taken straight to its handler (``socket``): a connection
    lasts a whole match, and the layers of middleware and routing each kept a coroutine of it alive
    for as long (with their frames and closures: 65 of an idle connection's 172 objects, each looked
    at by every full garbage collection)."""

    socket: Callable[[WebSocket], Awaitable[None]]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            await self.socket(WebSocket(scope, receive, send))
        else:
            await super().__call__(scope, receive, send)


def create_app(store: Store, *, pace: float = 0.7, pool: BotPool | None = None, rate: float = RATE) -> FastAPI:
    """The app on ``store``; ``pace``: seconds between computer moves; ``rate``: messages a connection may
    send a second (scripted clients in tests and benches send faster than people)."""
    hub = Hub(store, pool, pace=pace)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.restore()
        yield
        await hub.close()

    app = App(title="eights", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.hub = hub
    app.mount("/static", StaticFiles(directory=str(STATIC), check_dir=False), name="static")
    app.include_router(scorecard_routes(Sheets(store)))

    def page() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return page()

    @app.get("/r/{code}", include_in_schema=False)
    async def room_page(code: str) -> FileResponse:
        return page()

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return presets_json()

    @app.get("/api/rules", response_model=None)
    async def rules_text(
        preset: str = "classic", option: Annotated[list[str] | None, Query()] = None
    ) -> dict[str, Any] | JSONResponse:
        try:
            options = dict(item.partition("=")[::2] for item in option or [])
            rules = rules_from(preset, options)
        except RulesError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return {
            "heading": heading(rules),
            "sections": [{"title": s.title, "lines": list(s.lines)} for s in describe(rules)],
        }

    @app.post("/api/rooms", response_model=None)
    async def new_room(body: NewRoom, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            room, token, seat = await hub.create(
                body.name, body.preset, body.options, body.players, body.seats, body.away_seconds, body.start
            )
        except RoomError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except StoreError as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)
        return {"code": room.code, "token": token, "seat": seat, "url": f"{request.base_url}r/{room.code}"}

    @app.get("/api/rooms/{code}", response_model=None)
    async def room_info(code: str) -> dict[str, Any] | JSONResponse:
        try:
            room = hub.get(code)
        except RoomError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        public = room.public()
        return {"code": room.code, "phase": public["phase"], "seats": public["seats"]}

    @app.get("/api/rooms/{code}/qr.svg", response_model=None)
    async def room_qr(code: str, request: Request) -> Response:
        import segno

        try:
            room = hub.get(code)
        except RoomError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        out = io.BytesIO()
        segno.make(f"{request.base_url}r/{room.code}", error="m").save(out, kind="svg", scale=6, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml")

    @app.get("/api/rooms/{code}/record", response_model=None)
    async def room_record(code: str) -> Response:
        try:
            room = hub.get(code)
            if room.match_id is None:
                raise RoomError("wrong_phase", "this room has not started a match yet")
            record = store.record(room.match_id)
        except RoomError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        except StoreError as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)
        name = f"eights-{room.code}-match-{room.match_id}.json"
        return Response(
            record.to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX)

        async def send(message: dict[str, Any]) -> None:
            try:
                outbox.put_nowait(message)
            except asyncio.QueueFull:
                connection.replaced = True  # a browser that reads nothing: let it go
                await websocket.close(CLOSE_SLOW)

        connection = Connection(send)

        async def pump() -> None:
            while (message := await outbox.get()) is not None:
                await websocket.send_text(json.dumps(message, ensure_ascii=False))
                if message.get("type") == "replaced":
                    await websocket.close(CLOSE_REPLACED)
                    return

        sender = asyncio.create_task(pump())
        bucket, refused = Bucket(rate, max(BURST, int(2 * rate))), 0
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text, raw = frame.get("text"), frame.get("bytes")
                data: str | bytes = text if isinstance(text, str) else raw if isinstance(raw, bytes) else b""
                if not bucket.take():
                    refused += 1
                    if refused >= FLOOD_LIMIT:
                        await websocket.close(CLOSE_FLOOD)
                        break
                    if refused == 1 or refused % 20 == 0:
                        await send(error("too_fast", f"too many messages: at most {rate:g} a second"))
                    continue
                refused = 0
                try:
                    message = parse(data)
                except ProtocolError as exc:
                    await send(error(exc.code, str(exc)))
                    continue
                await hub.receive(connection, message)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await hub.disconnect(connection)
            sender.cancel()
            connection.send = gone  # its closure held the connection: a cycle that only a full collection frees

    app.socket = socket
    return app
