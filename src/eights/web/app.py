"""The web table's app: pages and static files, the JSON API, and the WebSocket (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import functools
import gc
import html
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import Message, Receive, Scope, Send

from eights.cluster.leases import Cluster
from eights.rules import RulesError
from eights.store import Store, StoreError
from eights.store.sheets import Sheets
from eights.tokens import new_token
from eights.web.assets import Assets
from eights.web.catalog import presets_json, rules_json
from eights.web.lab import LabDesk, LabRefused
from eights.web.metrics import CONTENT_TYPE, Metrics
from eights.web.outbox import Tally
from eights.web.reviews import Reviewer, ReviewError
from eights.web.rooms.errors import RoomError
from eights.web.rooms.registry import Hub
from eights.web.rooms.room import Room
from eights.web.rooms.seats import DEFAULT_AWAY, HERE
from eights.web.scorecard import SheetDesk, scorecard_routes
from eights.web.settings import Settings
from eights.web.socket import Sockets, peer_of
from eights.web.workers import Pool

log = logging.getLogger("eights.web")
#: The largest HTTP body any route takes (a new room, a round of a score sheet), in bytes.
MAX_BODY = 16384
#: Room errors that HTTP answers with 429 (too many) rather than 400, and others with their own status.
TOO_MANY = ("too_many_rooms", "too_fast")
STATUS = {"no_room": 404, "not_a_player": 403, "not_over": 409, "busy": 503}
#: Every page's headers: no script but the page's own files, no framing, no sniffing, no referrer.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
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
    options: Annotated[
        dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=80)]], Field(max_length=64)
    ] = {}
    players: Annotated[int, Field(ge=1, le=32)] | None = None
    seats: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=32)] | None = None
    #: a name for each seat given as "here" (pass and play on this device), in seat order
    names: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=32)] = []
    away_seconds: Annotated[int, Field(ge=5, le=3600)] = DEFAULT_AWAY
    start: bool = False


#: The most rooms a page asks about at once for its Continue list.
MINE_MAX = 8


class Held(BaseModel):
    """A room this browser holds a seat in: its code and the seat's token."""

    model_config = ConfigDict(extra="forbid")

    code: Annotated[str, Field(max_length=24)]
    token: Annotated[str, Field(max_length=128)]


class Mine(BaseModel):
    """``POST /api/rooms/mine``: the rooms this browser holds a seat in (the newest first)."""

    model_config = ConfigDict(extra="forbid")

    rooms: Annotated[list[Held], Field(max_length=MINE_MAX)]


#: Threads that wait on the store for the rooms (asyncio's default executor; its own default is 6 on 2 cores).
STORE_THREADS = 16


class LabAsked(BaseModel):
    """``POST /api/lab``: the rules being set up (as a new room gives them) and the table's size."""

    model_config = ConfigDict(extra="forbid")

    preset: Annotated[str, Field(max_length=40)] = "classic"
    options: Annotated[
        dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=80)]], Field(max_length=64)
    ] = {}
    players: Annotated[int, Field(ge=1, le=32)]


def tune_gc() -> None:
    """For the process that serves: the objects made so far (modules, the app) are left out of every
    later collection, and full collections become rare (``FULL_COLLECTION_EVERY``)."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


async def bounded(scope: Scope, receive: Receive) -> Receive | None:
    """The request's body read whole before any route sees it, as a ``receive`` that gives it again; None when
    it is larger than ``MAX_BODY`` (said by its Content-Length, or found while reading)."""
    headers = dict(scope.get("headers", []))
    length = headers.get(b"content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        return None
    if scope["method"] in ("GET", "HEAD", "OPTIONS") and length is None:
        return receive
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        if size > MAX_BODY:
            return None
        if not message.get("more_body", False):
            break

    async def again() -> Message:
        return messages.pop(0) if messages else await receive()

    return again


class App(FastAPI):
    """The app, with the WebSocket at ``/ws`` taken straight to its handler (``socket``): a connection
    lasts a whole match, and the layers of middleware and routing each kept a coroutine of it alive
    for as long (with their frames and closures: 65 of an idle connection's 172 objects, each looked
    at by every full garbage collection). Every HTTP answer gets ``SECURITY_HEADERS``; a body larger
    than ``MAX_BODY`` is refused unread (413); every other socket (the score sheets') passes the same
    door as ``/ws`` (``door``): its page's origin and its client's share of sockets."""

    socket: Callable[[WebSocket], Awaitable[None]]
    door: Callable[[Scope, Receive, Send], Awaitable[None]]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if scope["path"] == "/ws":
                await self.socket(WebSocket(scope, receive, send))
            else:
                await self.door(scope, receive, send)
        elif scope["type"] == "http":

            async def guarded(message: Message) -> None:
                if message["type"] == "http.response.start":
                    message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
                await send(message)

            whole = await bounded(scope, receive)
            if whole is None:
                too_big = JSONResponse({"error": f"a request may hold at most {MAX_BODY} bytes"}, status_code=413)
                await too_big(scope, receive, guarded)
                return
            await super().__call__(scope, whole, guarded)
        else:
            await super().__call__(scope, receive, send)

    async def route(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app's own routing, past the door."""
        await super().__call__(scope, receive, send)


@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> bytes:
    """A QR code of ``url`` as SVG (a few milliseconds each: kept for the rooms asked about most)."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, border=2)
    return out.getvalue()


def missing_room_page(code: str) -> HTMLResponse:
    """The page for a room link that leads nowhere (404)."""
    shown = html.escape(code[:24])
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>No room {shown} - eights</title><link rel="stylesheet" href="/static/style.css"></head>'
        f'<body><main class="missing"><h1>There is no room {shown}</h1>'
        "<p>Check the link or the code: a room that nobody used for a while is closed.</p>"
        '<p><a href="/">Start a new game</a></p></main></body></html>'
    )
    return HTMLResponse(body, status_code=404)


def create_app(
    store: Store,
    *,
    pace: float = 0.7,
    pool: Pool | None = None,
    settings: Settings | None = None,
    cluster: Cluster | None = None,
    site: Path | None = None,
) -> FastAPI:
    """The app on ``store``; ``pace``: seconds between computer moves; ``settings``: the limits, the public
    address and the trusted proxies (docs/security.md); ``cluster``: one instance of many on Redis
    (docs/deploy.md); ``site``: the app that plays with no server (``eights.web.site``), served at ``/app/``."""
    settings = settings or Settings()
    limits = settings.limits
    hub = Hub(store, pool, pace=pace, limits=limits, cluster=cluster)
    labs = LabDesk(limits, hub.guard)
    reviewer = Reviewer(store, limits, hub.guard)
    sheets = SheetDesk(Sheets(store), limits, may_start=lambda request: hub.guard.make_sheet(client_of(request)))
    outboxes = Tally()
    sockets = Sockets(hub, settings, outboxes)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # The store is asked off the event loop (asyncio.to_thread): enough threads that a slow store (a
        # commit that takes 50 ms) still serves many rooms at once; each waits on the store, not the CPU.
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=STORE_THREADS, thread_name_prefix="eights-store")
        )
        await hub.restore()
        hub.start_sweeping()
        sheets.start_sweeping()
        hub.start_cluster()
        yield
        sheets.close()
        await reviewer.close()
        await hub.close()
        await labs.aclose()

    app = App(title="eights", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.hub = hub
    app.state.labs = labs
    app.state.reviewer = reviewer
    app.state.sheets = sheets
    app.state.settings = settings
    assets = Assets()  # read now: a reinstall while the server runs cannot take them away

    @app.api_route("/static/{name:path}", methods=["GET", "HEAD"], include_in_schema=False)
    async def static(name: str, request: Request) -> Response:
        return assets.response(name, request)

    app.include_router(scorecard_routes(sheets, assets))
    if site is not None:
        # compressed: the runtime's 10 MB of WebAssembly travel as 3 (each file once: the app keeps them)
        app.mount("/app", GZipMiddleware(StaticFiles(directory=str(site), html=True)), name="app")

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "not understood"}
        where = ".".join(str(p) for p in first["loc"][1:]) or "request"
        return JSONResponse({"error": f"{where}: {first['msg']}"}, status_code=400)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        words = {404: "there is nothing at that address", 405: "that method is not allowed there"}
        return JSONResponse({"error": words.get(exc.status_code, str(exc.detail))}, status_code=exc.status_code)

    def client_of(request: Request | WebSocket) -> str:
        return sockets.client_of(request)

    def refused(exc: RoomError) -> JSONResponse:
        status = 429 if exc.code in TOO_MANY else STATUS.get(exc.code, 400)
        return JSONResponse({"error": str(exc), "code": exc.code}, status_code=status)

    @app.get("/", include_in_schema=False)
    async def home(request: Request) -> Response:
        return assets.response("index.html", request)

    @app.get("/r/{code}", include_in_schema=False, response_model=None)
    async def room_page(code: str, request: Request) -> Response:
        try:
            await hub.find(code, client_of(request))
        except RoomError as exc:
            if exc.code in ("too_fast", "busy"):
                return refused(exc)
            return missing_room_page(code)
        return assets.response("index.html", request)

    metrics = app.state.metrics = Metrics(hub, reviewer, labs, outboxes)

    @app.get("/healthz", include_in_schema=False)
    async def health() -> dict[str, Any]:
        """For a load balancer: the server answers, and how busy it is."""
        answer: dict[str, Any] = {
            "status": "ok",
            "rooms": len(hub.rooms) + len(hub.dormant),
            "connections": sum(len(room.connections) for room in hub.rooms.values()),
        }
        if cluster is not None:
            relayed = len(hub.relays.relayed) if hub.relays is not None else 0
            answer.update(instance=cluster.id, redis="up" if cluster.up else "down", relayed=relayed)
        return answer

    @app.get("/metrics", include_in_schema=False)
    async def prometheus(request: Request) -> Response:
        """Prometheus' text format, for this machine (or through a trusted proxy, from it) only."""
        if not settings.local(peer_of(request), request.headers.getlist("x-forwarded-for")):
            return JSONResponse({"error": "there is nothing at that address"}, status_code=404)
        return Response(metrics.text(), media_type=CONTENT_TYPE)

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return presets_json()

    @app.get("/api/rules", response_model=None)
    async def rules_text(
        preset: str = "classic", option: Annotated[list[str] | None, Query()] = None
    ) -> dict[str, Any] | JSONResponse:
        try:
            return rules_json(preset, option or [])
        except RulesError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    @app.post("/api/lab")
    async def lab_start(body: LabAsked, request: Request) -> JSONResponse:
        """Test these rules: the lab's answer (200) when the server has it, else where it stands (202)."""
        try:
            done, answer = labs.ask(body.preset, body.options, body.players, client_of(request))
        except LabRefused as exc:
            status = 400 if exc.code == "bad_setup" else 429
            return JSONResponse({"error": str(exc), "code": exc.code}, status_code=status)
        return JSONResponse(answer, status_code=200 if done else 202)

    @app.get("/api/lab/{key}", response_model=None)
    async def lab_status(key: str) -> dict[str, Any] | JSONResponse:
        answer = labs.status(key[:64])
        if answer["state"] == "unknown":
            words = "there is no such lab (the server has forgotten it): test the rules again"
            return JSONResponse({"error": words, "code": "no_lab"}, status_code=404)
        return answer

    def link(code: str) -> str:
        return f"{settings.public_url}/r/{code}"

    @app.post("/api/rooms", response_model=None)
    async def new_room(body: NewRoom, request: Request) -> dict[str, Any] | JSONResponse:
        here = [(name, new_token()) for name in body.names]
        try:
            room, token, seat = await hub.create(
                body.name,
                body.preset,
                body.options,
                body.players,
                body.seats,
                body.away_seconds,
                body.start,
                client=client_of(request),
                here=here,
                held=False,
            )
        except RoomError as exc:
            return refused(exc)
        except StoreError as exc:  # (its words name the database: for the log, not for strangers)
            log.warning("eights: a new room could not be saved (%s)", type(exc).__name__)
            words = "the server cannot save a new room just now: try again in a moment"
            return JSONResponse({"error": words, "code": "busy"}, status_code=503)
        seats_here = [i for i, who in enumerate(body.seats or []) if who == HERE]
        return {
            "code": room.code,
            "token": token,
            "seat": seat,
            "url": link(room.code),
            "here": [{"seat": i, "token": t} for i, (_, t) in zip(seats_here, here, strict=True)],
        }

    @app.post("/api/rooms/mine")
    async def my_rooms(body: Mine, request: Request) -> dict[str, Any]:
        """Which of these rooms still hold a game for the seat whose token is given (in the lobby or in play),
        to be offered again on the home page (Continue); the others, to be forgotten. A token that is not
        the room's says no more than a room that does not exist."""
        games, gone = [], []
        for held in body.rooms:
            try:
                room = await hub.find(held.code, client_of(request))
            except RoomError as exc:
                if exc.code in ("too_fast", "busy"):
                    break
                gone.append(held.code)
                continue
            seat = room.seat_of(held.token)
            if seat is None or room.phase == "over":
                gone.append(held.code)
                continue
            public = room.public()
            others = [s for s in public["seats"] if s["seat"] != seat]
            games.append(
                {
                    "code": room.code,
                    "phase": public["phase"],
                    "title": room.rules.title,
                    "seat": seat,
                    "name": public["seats"][seat]["name"],
                    "others": [
                        s["name"]
                        if s["kind"] == "person"
                        else f"computer ({s['level']})"
                        if s["level"]
                        else "open seat"
                        for s in others
                    ],
                }
            )
        return {"games": games, "gone": gone}

    @app.get("/api/rooms/{code}", response_model=None)
    async def room_info(code: str, request: Request) -> dict[str, Any] | JSONResponse:
        try:
            room = await hub.find(code, client_of(request))
        except RoomError as exc:
            return refused(exc)
        public = room.public()
        return {"code": room.code, "phase": public["phase"], "seats": public["seats"], "url": link(room.code)}

    @app.get("/api/rooms/{code}/qr.svg", response_model=None)
    async def room_qr(code: str, request: Request) -> Response:
        try:
            room = await hub.find(code, client_of(request))
        except RoomError as exc:
            return refused(exc)
        return Response(qr_svg(link(room.code)), media_type="image/svg+xml")

    async def played(code: str, request: Request, token: str | None, what: str, why: str) -> tuple[Room, int, int]:
        """The room ``code``, the seat of the person whose token is ``token``, and its finished match.

        :raises RoomError: ``no_room``; ``not_a_player`` (403) for a spectator, a stranger or another room's
            token; ``not_over`` (409) while the match is not over (``why`` says why it must be).
        """
        room = await hub.find(code, client_of(request))
        seat = None if token is None else room.seat_of(token)
        if seat is None:
            raise RoomError("not_a_player", f"{what} is for the players of this room (send your seat token)")
        if room.match_id is None or room.phase != "over":
            raise RoomError("not_over", f"{what} can be had once the match is over: {why}")
        return room, seat, room.match_id

    @app.get("/api/rooms/{code}/record", response_model=None)
    async def room_record(
        code: str, request: Request, token: Annotated[str | None, Header(alias="x-seat-token")] = None
    ) -> Response:
        """The room's match, once it is over, for the people who played it (its seed deals every hand)."""
        try:
            room, _, match_id = await played(code, request, token, "the record", "it shows every hand")
            record = store.record(match_id)
        except RoomError as exc:
            return refused(exc)
        except StoreError as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)
        name = f"eights-{room.code}-match-{match_id}.json"
        return Response(
            record.to_json(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def reviewing(
        code: str, request: Request, token: str | None, do: Callable[[Room, int, int], Awaitable[dict[str, Any]]]
    ) -> dict[str, Any] | JSONResponse:
        """``do(room, seat, match_id)`` for the asker's own seat of the room's finished match, its refusals in words."""
        try:
            room, seat, match_id = await played(code, request, token, "a review", "it goes through your decisions")
            return await do(room, seat, match_id)
        except RoomError as exc:
            return refused(exc)
        except ReviewError as exc:
            return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status)

    @app.post("/api/rooms/{code}/review", response_model=None)
    async def ask_review(
        code: str, request: Request, token: Annotated[str | None, Header(alias="x-seat-token")] = None
    ) -> dict[str, Any] | JSONResponse:
        """Start the review of the asker's own seat in the finished match (or say how it stands): 202 while
        it runs, 200 with the review once it is done."""

        async def ask(room: Room, seat: int, match_id: int) -> dict[str, Any]:
            return await reviewer.ask(match_id, seat, room.rules, client_of(request))

        answer = await reviewing(code, request, token, ask)
        running = isinstance(answer, dict) and answer["state"] == "running"
        return JSONResponse(answer, status_code=202) if running else answer

    @app.get("/api/rooms/{code}/review", response_model=None)
    async def look_review(
        code: str, request: Request, token: Annotated[str | None, Header(alias="x-seat-token")] = None
    ) -> dict[str, Any] | JSONResponse:
        """How the asker's review stands: its progress while it runs, then the review."""

        async def look(room: Room, seat: int, match_id: int) -> dict[str, Any]:
            return reviewer.look(match_id, seat, room.rules)

        return await reviewing(code, request, token, look)

    @app.delete("/api/rooms/{code}/review", response_model=None)
    async def stop_review(
        code: str, request: Request, token: Annotated[str | None, Header(alias="x-seat-token")] = None
    ) -> dict[str, Any] | JSONResponse:
        """Stop the asker's review under way: nothing of it is kept."""

        async def stop(room: Room, seat: int, match_id: int) -> dict[str, Any]:
            return reviewer.stop(match_id, seat)

        return await reviewing(code, request, token, stop)

    app.socket = sockets.room
    app.door = functools.partial(sockets.door, route=app.route)
    return app
