"""The web scorecard: the score sheet of a game played with real cards, on a phone (issue 22).

Every figure comes from the scorecard core (``eights.scorecard``) on the server: the page sends who
went out and each player's points or cards left, and shows what comes back. A sheet has two links:
``/s/CODE`` shows it read-only to everyone at the table, live; the edit token, given once to the browser
that starts the sheet (and kept there, or passed on in the edit link ``/s/CODE#e=TOKEN``), is needed for
every change. A change is made on the revision of the sheet the page shows, so one made on an older
sheet is refused (409) and the page shows the sheet as saved. The names a page offers come from the
sheets that browser keeps: the server lists no one's names, as it holds every device's sheets.

Routes: ``GET /scorecard`` and ``GET /s/CODE`` (the page), ``POST /api/sheets``, ``GET /api/sheets/CODE``,
``GET /api/sheets/CODE/sheet.csv``, ``POST /api/sheets/CODE/rounds``, ``PUT`` and ``DELETE /api/sheets/CODE/rounds/N``,
``POST /api/sheets/CODE/undo`` and ``/finish``, and the WebSocket ``/ws/sheets/CODE``, which sends the
sheet when it connects and again whenever it changes.

What a stranger cannot do with it: a sheet holds ``MAX_ROUNDS`` rounds at most (fewer where its rules end
the match sooner); each sheet's view (what ``GET`` and the WebSocket send) is made once per change of the
sheet, off the event loop, however many read it (``Views``); and a sheet made here expires once nobody has
changed or looked at it for ``Limits.sheet_seconds`` (``SheetDesk.sweep``, like the rooms'). A sheet made
at the terminal (``eights scorecard``) is its user's own: shared here or not, it never expires.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from eights.rules import RulesError, RuleSet
from eights.rules.ruleset import parse_option_list
from eights.scorecard import (
    MAX_ROUNDS,
    LeftInput,
    Sheet,
    SheetError,
    next_words,
    points_from_text,
    sheet_json,
    to_csv,
)
from eights.scorecard.scoring import pack_list, scoring_data
from eights.store import StoreError
from eights.store.db import now
from eights.store.sheets import NoSuchSheet, NotAllowed, SharedSheet, Sheets, StaleSheet
from eights.web.assets import Assets
from eights.web.rooms.registry import SWEEP_EVERY
from eights.web.rooms.seats import rules_from
from eights.web.settings import Limits

#: Seconds between looks at the store for changes made elsewhere (``eights scorecard round`` on the same database).
POLL = 5.0
#: Sheets whose view is kept (the ones looked at last); another's is made again when asked for.
VIEWS_KEPT = 64
#: The most options ``/api/scoring`` reads.
MAX_OPTIONS = 40
#: Closing code of a watcher whose sheet does not exist.
CLOSE_NO_SHEET = 4004

log = logging.getLogger("eights.web")

Name = Annotated[str, Field(max_length=40)]


class Points(BaseModel):
    """What was typed in a points box (``{"points": "35"}``), read by the scorecard's own rule for points."""

    model_config = ConfigDict(extra="forbid")

    points: Annotated[str, Field(max_length=40)]


#: A player's hand as the page sends it: points, the points box as typed, or the cards (``["8H", "KS"]``).
Hand = (
    int
    | Points
    | Annotated[str, Field(max_length=400)]
    | Annotated[list[Annotated[str, Field(max_length=4)]], Field(max_length=120)]
)


class Hands(BaseModel):
    """A round as entered: who went out (None: blocked) and each other player's points or cards left."""

    model_config = ConfigDict(extra="forbid")

    out: Name | None = None
    left: Annotated[dict[Name, Hand], Field(max_length=8)] = {}

    def hands(self) -> dict[str, LeftInput]:
        """``left`` as the sheet takes it, a points box read as points (a whole number, or refused as not one).

        :raises HandError: for a points box that holds no whole number, in the words the terminal uses.
        """
        return {
            name: points_from_text(name, hand.points) if isinstance(hand, Points) else hand
            for name, hand in self.left.items()
        }


class KeptRound(Hands):
    """A round kept on a phone while the server could not be reached; ``deal``: its deal's number where a
    round before it was deleted there (the rounds after a deleted one keep the deal they were played with)."""

    deal: Annotated[int, Field(ge=1)] | None = None


class NewSheet(BaseModel):
    """``POST /api/sheets``: the rules, the players in seat order and the first dealer (None: drawn); a sheet
    kept offline also sends its rounds and whether it was finished early, to be scored here again."""

    model_config = ConfigDict(extra="forbid")

    preset: Annotated[str, Field(max_length=40)] = "derange"
    options: dict[Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=80)]] = {}
    players: Annotated[list[Name], Field(max_length=8)]
    dealer: Name | None = None
    rounds: Annotated[list[KeptRound], Field(max_length=MAX_ROUNDS)] = []
    finished: bool = False


class Change(BaseModel):
    """A change: the sheet's edit token and the revision of the sheet the page shows (None: as it is now)."""

    model_config = ConfigDict(extra="forbid")

    token: Annotated[str, Field(max_length=64)]
    revision: int | None = None


class RoundBody(Change, Hands):
    """A round: who went out (None: blocked) and each other player's points or cards left."""


class Watchers:
    """The pages following each sheet, woken when it changes."""

    def __init__(self) -> None:
        self._waiting: dict[str, set[asyncio.Event]] = {}

    def changed(self, code: str) -> None:
        for event in self._waiting.get(code, ()):
            event.set()

    def follow(self, code: str) -> asyncio.Event:
        event = asyncio.Event()
        self._waiting.setdefault(code, set()).add(event)
        return event

    def leave(self, code: str, event: asyncio.Event) -> None:
        waiting = self._waiting.get(code, set())
        waiting.discard(event)
        if not waiting:
            self._waiting.pop(code, None)


def sheet_view(shared: SharedSheet) -> dict[str, Any]:
    """The sheet as the page shows it: ``eights scorecard show --json``'s figures, each hand's breakdown
    in words, the pack the card picker offers (only the cards the rules' pack holds, with their copies),
    the code and the revision."""
    sheet = shared.sheet
    data = sheet_json(shared.id, sheet)
    stored = data.pop("sheet")
    for shown, result in zip(data["rounds"], sheet.rounds, strict=True):
        shown["lines"] = [sheet.breakdown_text(result.number, name) for name in sheet.players]
    data.update(
        code=shared.code,
        revision=shared.revision,
        teams=[sheet.setup.team_name(team) for team in sheet.setup.teams],
        schedule=list(sheet.schedule),
        target=sheet.target,
        next_words=next_words(sheet),
        leader=list(sheet.leader),
        pack=pack_list(sheet.setup),
        first_dealer=stored["first_dealer"],
        undo=stored["undo"],
        finished=stored["finished"],
        scoring_url=scoring_url(sheet.rules),
    )
    return data


def scoring_url(rules: RuleSet) -> str | None:
    """Where the page gets the scoring of this sheet's rules to score by itself offline
    (``/api/scoring?preset=derange&option=deal=7``); None for rules no preset and options make."""
    preset, changed = rules.changes()
    if any("(own table)" in option for option in changed):
        return None
    return "/api/scoring?" + urlencode([("preset", preset), *(("option", option) for option in changed)])


@dataclass(frozen=True)
class SheetView:
    """A sheet's view (``sheet_view``) at one revision, as JSON text."""

    revision: int
    text: str


def made_view(shared: SharedSheet) -> SheetView:
    """In a thread: the sheet's view, as JSON text."""
    return SheetView(shared.revision, json.dumps(sheet_view(shared), ensure_ascii=False, separators=(",", ":")))


def with_fields(text: str, fields: dict[str, Any]) -> str:
    """A JSON object's text with ``fields`` added (the object is not read again)."""
    return text[:-1] + "," + json.dumps(fields, ensure_ascii=False, separators=(",", ":"))[1:]


def json_text(text: str, status: int = 200) -> Response:
    return Response(text, status_code=status, media_type="application/json")


class Views:
    """Each sheet's view, made once per revision of the sheet, in a thread, and by one reader when several ask
    at once; kept for the ``VIEWS_KEPT`` sheets looked at last."""

    def __init__(self, sheets: Sheets) -> None:
        self.sheets = sheets
        self._kept: OrderedDict[str, SheetView] = OrderedDict()
        self._making: dict[str, asyncio.Task[SheetView]] = {}

    async def get(self, code: str) -> SheetView:
        """The sheet's view as it is now (one look at its revision when it is kept).

        :raises NoSuchSheet: when no sheet has that code.
        :raises StoreError: when the store fails.
        """
        revision = await asyncio.to_thread(self.sheets.revision, code)
        while True:
            kept = self._kept.get(code)
            if kept is not None and kept.revision == revision:
                self._kept.move_to_end(code)
                return kept
            making = self._making.get(code)
            if making is None:
                making = self._making[code] = asyncio.get_running_loop().create_task(self._make(code))
            view = await asyncio.shield(making)
            if revision is None or view.revision >= revision:  # (not one made before the revision looked at)
                return view

    async def _make(self, code: str) -> SheetView:
        try:
            view = await asyncio.to_thread(lambda: made_view(self.sheets.shared(code)))
            self.put(code, view)
            return view
        finally:
            del self._making[code]

    def put(self, code: str, view: SheetView) -> None:
        """Keep ``view`` of the sheet ``code`` (unless a later one is kept)."""
        kept = self._kept.get(code)
        if kept is None or kept.revision < view.revision:
            self._kept[code] = view
        self._kept.move_to_end(code)
        while len(self._kept) > VIEWS_KEPT:
            self._kept.popitem(last=False)

    def forget(self, code: str) -> None:
        self._kept.pop(code, None)


def _problem(exc: Exception) -> JSONResponse:
    """One line for the page, with the status that says whose fault it is."""
    if isinstance(exc, NoSuchSheet):
        status = 404
    elif isinstance(exc, NotAllowed):
        status = 403
    elif isinstance(exc, StaleSheet):
        status = 409
    elif isinstance(exc, (SheetError, RulesError)):
        status = 400
    else:
        status = 503
    return JSONResponse({"error": str(exc)}, status_code=status)


class SheetDesk:
    """The web's score sheets on ``sheets`` (their routes: ``scorecard_routes``): each sheet's view (``views``), the
    pages following each sheet, and the sweep that forgets the sheets made here that nobody used for
    ``limits.sheet_seconds``. ``may_start(request)``: whether its client may start one more sheet now (and
    counts it); ``clock``: the time now (injectable, so that tests need no waiting)."""

    def __init__(
        self,
        sheets: Sheets,
        limits: Limits,
        may_start: Callable[[Request], bool] = lambda _: True,
        clock: Callable[[], datetime] = now,
    ) -> None:
        self.sheets = sheets
        self.limits = limits
        self.may_start = may_start
        self.clock = clock
        self.views = Views(sheets)
        self.watchers = Watchers()
        #: The codes of the sheets looked at since the last sweep (written down at the next).
        self.used: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None

    async def view(self, code: str) -> SheetView:
        """The sheet's view now; the sheet counts as used.

        :raises NoSuchSheet: when no sheet has that code.
        :raises StoreError: when the store fails.
        """
        view = await self.views.get(code)
        self.used.add(code)
        return view

    # ----- expiry ----------------------------------------------------------------------------------------

    async def sweep(self) -> list[str]:
        """Write down the sheets used since the last sweep, then forget the sheets made here that nobody
        changed or looked at for ``sheet_seconds`` (the pages following them are told). Their codes.

        :raises StoreError: when the store fails (the sheets used are written down at the next sweep).
        """
        used, self.used = self.used, set()
        moment = self.clock()

        def sweeping() -> list[str]:
            self.sheets.touch(used, moment)
            return self.sheets.expire(moment - timedelta(seconds=self.limits.sheet_seconds))

        try:
            gone = await asyncio.to_thread(sweeping)
        except StoreError:
            self.used |= used
            raise
        for code in gone:
            self.views.forget(code)
            self.watchers.changed(code)
        return gone

    def start_sweeping(self) -> None:
        """Sweep every ``SWEEP_EVERY`` seconds, from now on."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self.sweep()
            except StoreError as exc:
                log.warning("eights: the score sheets could not be swept: %s", exc)

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()


def scorecard_routes(desk: SheetDesk, assets: Assets) -> APIRouter:
    """The scorecard's routes, on ``desk``'s sheets; its page, service worker and manifest from ``assets`` (read
    when the server started, so a reinstall cannot take them away)."""
    router = APIRouter()
    sheets, watchers = desk.sheets, desk.watchers

    @router.get("/scorecard", include_in_schema=False)
    async def start_page(request: Request) -> Response:
        return assets.response("scorecard.html", request)

    @router.get("/s/{code}", include_in_schema=False)
    async def sheet_page(code: str, request: Request) -> Response:
        return assets.response("scorecard.html", request)

    # The service worker that keeps the sheet working offline, served from the root so that its scope covers
    # /scorecard, /s/CODE and the API (no Service-Worker-Allowed needed).
    @router.get("/scorecard-sw.js", include_in_schema=False)
    async def worker(request: Request) -> Response:
        return assets.response("scorecard-sw.js", request)

    @router.get("/scorecard.webmanifest", include_in_schema=False)
    async def manifest(request: Request) -> Response:
        return assets.response("scorecard.webmanifest", request)

    @router.get("/api/scoring", response_model=None)
    async def scoring(
        preset: Annotated[str, Query(max_length=40)] = "derange",
        option: Annotated[list[str] | None, Query()] = None,
    ) -> dict[str, Any] | JSONResponse:
        """The rules' scoring as the page computes with it offline (``eights.scorecard.scoring``)."""
        options = option or []
        try:
            if len(options) > MAX_OPTIONS or any(len(item) > 120 for item in options):
                raise RulesError(f"options: give at most {MAX_OPTIONS}, each KEY=VALUE under 120 characters")
            return scoring_data(rules_from(preset, parse_option_list(options)))
        except (RulesError, SheetError) as exc:
            return _problem(exc)

    @router.post("/api/sheets", response_model=None)
    async def new_sheet(body: NewSheet, request: Request) -> Response:
        """A new sheet; with the rounds of a sheet kept offline, each scored here again in order. A round
        the rules refuse stops there: the sheet is saved with the rounds before it, and ``refused`` says
        which round and why (the page then shows the server's sheet)."""
        if not desk.may_start(request):
            words = "you have started many score sheets just now: wait a while, or keep one of them"
            return JSONResponse({"error": words}, status_code=429)

        def make() -> tuple[str, str, SheetView, str | None]:
            rules = rules_from(body.preset, body.options)
            sheet = Sheet.new(rules, body.players, body.dealer, None if body.dealer else random.Random())
            refused = None
            for number, kept in enumerate(body.rounds, 1):
                try:
                    sheet.add_round(kept.out, kept.hands(), kept.deal)
                except SheetError as exc:
                    refused = f"round {number}: {exc}"
                    break
            if body.finished and refused is None and not sheet.over and sheet.rounds:
                sheet.finish()
            code, token = sheets.share(sheets.new(sheet, web=True))
            return code, token, made_view(sheets.shared(code)), refused

        try:
            code, token, view, refused = await asyncio.to_thread(make)
        except (SheetError, RulesError, StoreError) as exc:
            return _problem(exc)
        desk.views.put(code, view)
        answer: dict[str, Any] = {"code": code, "token": token}
        if refused:
            answer["refused"] = refused
        return json_text(with_fields('{"sheet":' + view.text + "}", answer))

    @router.get("/api/sheets/{code}", response_model=None)
    async def show(code: str) -> Response:
        try:
            view = await desk.view(code)
        except StoreError as exc:
            return _problem(exc)
        return json_text(view.text)

    @router.get("/api/sheets/{code}/sheet.csv", response_model=None)
    async def export_csv(code: str) -> Response:
        def export() -> tuple[int, str]:
            shared = sheets.shared(code)
            return shared.id, to_csv(shared.sheet)

        try:
            sheet_id, text = await asyncio.to_thread(export)
        except StoreError as exc:
            return _problem(exc)
        desk.used.add(code)
        return Response(
            text,
            media_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="eights-sheet-{sheet_id}.csv"'},
        )

    async def change(code: str, body: Change, make: Callable[[Sheet], object]) -> Response:
        """Make one change with the token, on the revision shown; the sheet as saved goes back (with the
        error, when the change is refused) and every page following it is told."""

        def changing() -> tuple[SheetView, object]:
            shared, said = sheets.change_shared(code, body.token, body.revision, make)
            return made_view(shared), said

        try:
            view, said = await asyncio.to_thread(changing)
        except (SheetError, StoreError) as exc:
            answer = _problem(exc)
            if isinstance(exc, StaleSheet):
                try:
                    current = await desk.view(code)
                except StoreError:
                    return answer
                return json_text(with_fields('{"sheet":' + current.text + "}", {"error": str(exc)}), 409)
            return answer
        desk.views.put(code, view)
        watchers.changed(code)
        return json_text(with_fields(view.text, {"said": said}) if isinstance(said, str) else view.text)

    @router.post("/api/sheets/{code}/rounds", response_model=None)
    async def add_round(code: str, body: RoundBody) -> Response:
        return await change(code, body, lambda sheet: sheet.add_round(body.out, body.hands()))

    @router.put("/api/sheets/{code}/rounds/{number}", response_model=None)
    async def edit_round(code: str, number: int, body: RoundBody) -> Response:
        return await change(code, body, lambda sheet: sheet.edit_round(number, body.out, body.hands()))

    @router.delete("/api/sheets/{code}/rounds/{number}", response_model=None)
    async def delete_round(code: str, number: int, body: Change) -> Response:
        return await change(code, body, lambda sheet: sheet.delete_round(number))

    @router.post("/api/sheets/{code}/undo", response_model=None)
    async def undo(code: str, body: Change) -> Response:
        return await change(code, body, lambda sheet: sheet.undo())

    @router.post("/api/sheets/{code}/finish", response_model=None)
    async def finish(code: str, body: Change) -> Response:
        return await change(code, body, lambda sheet: sheet.finish())

    @router.websocket("/ws/sheets/{code}")
    async def follow(websocket: WebSocket, code: str) -> None:
        """The sheet now, and again whenever it changes, until the page goes (or the sheet)."""
        await websocket.accept()
        event = watchers.follow(code)
        listening = asyncio.ensure_future(websocket.receive())
        shown: int | None = None
        try:
            while True:
                try:
                    view = await desk.view(code)
                except NoSuchSheet as exc:
                    await websocket.send_json({"error": str(exc)})
                    await websocket.close(CLOSE_NO_SHEET)
                    return
                if view.revision != shown:
                    await websocket.send_text(view.text)
                    shown = view.revision
                event.clear()
                woken = asyncio.ensure_future(event.wait())
                done, _ = await asyncio.wait({listening, woken}, timeout=POLL, return_when=asyncio.FIRST_COMPLETED)
                woken.cancel()
                if listening in done:
                    if listening.result()["type"] == "websocket.disconnect":
                        return
                    listening = asyncio.ensure_future(websocket.receive())  # a page says nothing that matters
        except (WebSocketDisconnect, RuntimeError, StoreError):
            pass
        finally:
            listening.cancel()
            watchers.leave(code, event)

    return router
