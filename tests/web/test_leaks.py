"""Every message the web table sends to a seat or a spectator, over many random matches in every preset,
holds no card that its recipient may not see (the cards of the recipient's own view and of the events as
redacted for it); nor does a match's review, at each of its decisions, or the seed."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from eights.cards import Card
from eights.engine import Game, parse_action, redact, view
from eights.rules import PRESETS
from eights.store import Store, database_url
from eights.table.phrases import COMBO_AGAIN, COMBO_WORDS
from eights.web.protocol import Act, Hello
from eights.web.reviews import Reviewer
from eights.web.rooms.connection import Connection
from eights.web.rooms.registry import Hub
from eights.web.settings import Limits
from eights.web.workers import BotPool

CARD = re.compile(r"(?<![0-9A-Z])(10|[2-9AJQK])([CDHS♣♦♥♠])(?![0-9A-Za-z])|(?<![A-Z])(GJ|JK)(?![A-Z])")


#: Rule statements that name cards whoever holds them (the Guarantee Joker's pending line): not a card's place.
RULE_TEXTS = (COMBO_WORDS, COMBO_AGAIN, "until a K♥")
#: Where a narration line's rule clauses begin (``narrate.rule_words``): they name cards, not their places.
RULE_CLAUSES = " — "


def cards_in(text: str) -> set[str]:
    found = set()
    for match in CARD.finditer(text):
        if match.group(3):
            found.add(match.group(3))
        else:
            found.add(str(Card.parse(match.group(1) + match.group(2))))
    return found


def may_see(game: Game, seat: int | None) -> set[str]:
    """Every card the seat's own view and its redacted history mention."""
    seen = view(game, seat)
    known = [repr(seen.hand), repr(seen.top), repr(seen.discard), repr(seen.drawn), repr(seen.legal)]
    known += [repr(redact(event, seat)) for event in game.log or []]
    return {str(Card.parse(m)) for m in re.findall(r"Card\('([^']+)'\)", " ".join(known))} | cards_in(" ".join(known))


class Audit:
    """Checks each message as it is sent, against the game as it is at that moment."""

    def __init__(self) -> None:
        self.checked = 0
        self.leaks: list[str] = []

    def connection(self, hub: Hub, code: str, seat_of: list[int | None]) -> Connection:
        async def send(message: dict[str, Any]) -> None:
            self.checked += 1
            room = hub.rooms[code]
            if room.session is None or message.get("type") != "state":
                return
            seat = seat_of[0]
            told = [line.partition(RULE_CLAUSES)[0] for line in message["log"]]
            text = json.dumps({**message, "log": told}, ensure_ascii=False)
            for rule in (*RULE_TEXTS, room.code):  # a room's code may hold "JK" between digits: no card
                text = text.replace(rule, "")
            shown = cards_in(text)
            extra = shown - may_see(room.session.game, seat)
            if extra:
                self.leaks.append(f"seat {seat}: {sorted(extra)} in {json.dumps(message)[:300]}")

        return Connection(send)


async def play_room(
    hub: Hub, audit: Audit, preset: str, players: int, rng: random.Random, options: dict[str, str] | None = None
) -> None:
    seats = ["me", *(["easy"] * (players - 1))]
    room, token, _ = await hub.create("Ann", preset, options, players, seats, start=True, pace=0)
    me, watcher = [0], [None]
    mine = audit.connection(hub, room.code, me)  # type: ignore[arg-type]
    spectator = audit.connection(hub, room.code, watcher)
    await hub.receive(mine, Hello(type="hello", room=room.code, token=token))
    await hub.receive(spectator, Hello(type="hello", room=room.code, token=None))
    for _ in range(200_000):
        session = room.session
        assert session is not None
        if session.game.is_over:
            break
        if session.game.to_act == 0:
            legal = session.view(0).legal
            action = legal[rng.randrange(len(legal))]
            await hub.receive(mine, Act(type="act", version=room.version, action=str(action)))
        else:
            await asyncio.sleep(0.0005)  # the computers think in a thread
    assert room.session is not None and room.session.game.is_over


#: Every preset as it comes, and with stacking (the legal moves then name the cards that may go under another).
RULES = [(preset, {}) for preset in PRESETS] + [
    ("action", {"stacking": "true"}),
    ("derange", {"stacking": "true", "packs": "2"}),
]


@pytest.mark.parametrize(("preset", "options"), RULES)
def test_no_message_shows_a_card_its_recipient_may_not_see(
    preset: str, options: dict[str, str], tmp_path: Path
) -> None:
    audit = Audit()

    async def main() -> None:
        hub = Hub(Store(database_url(str(tmp_path / "leaks.db"))), BotPool(), pace=0)
        rng = random.Random(f"{preset}{options}")
        for game in range(6):
            players = [2, 3, 4, 4, 5, 6][game]
            try:
                await play_room(hub, audit, preset, players, rng, options)
            except Exception as exc:  # a player count the preset cannot seat
                if "bad_setup" not in repr(getattr(exc, "code", "")):
                    raise
        await hub.close()

    asyncio.run(main())
    assert audit.checked > 200
    assert audit.leaks == []


@pytest.mark.parametrize("preset", PRESETS)
def test_a_review_shows_no_card_the_seat_could_not_see_then(preset: str, tmp_path: Path) -> None:
    """Each decision of a review (as the page gets it) against the game at that decision: no card but those
    the seat's view and its redacted history held then (a card the seat drew later, another hand, the stock);
    and nowhere the match's seed."""
    store = Store(database_url(str(tmp_path / "review.db")))
    leaks: list[str] = []
    decisions = 0

    async def main() -> None:
        nonlocal decisions
        hub = Hub(store, BotPool(), pace=0)
        reviewer = Reviewer(store, Limits(review_deals=4, review_iterations=50), hub.guard)
        await play_room(hub, Audit(), preset, 3 if preset == "derange" else 2, random.Random(preset))
        (room,) = hub.rooms.values()
        assert room.match_id is not None
        answer = await reviewer.ask(room.match_id, 0, room.rules, "test")
        while answer["state"] == "running":
            await asyncio.sleep(0.05)
            answer = reviewer.look(room.match_id, 0, room.rules)
        record = store.record(room.match_id)
        text = json.dumps(answer, ensure_ascii=False)
        assert str(record.seed) not in text
        for decision in answer["decisions"]:
            game = Game(record.rules, record.players, record.seed, deck=record.deck, dealer=record.dealer)
            for action in record.actions[: decision["number"] - 1]:
                game.play(parse_action(action))
            assert game.to_act == 0
            shown = json.dumps(decision, ensure_ascii=False)
            for rule in RULE_TEXTS:
                shown = shown.replace(rule, "")
            extra = cards_in(shown) - may_see(game, 0)
            if extra:
                leaks.append(f"decision {decision['number']}: {sorted(extra)} in {shown[:300]}")
            decisions += 1
        await reviewer.close()
        await hub.close()

    asyncio.run(main())
    store.close()
    assert decisions > 0, "the review held decisions to check"
    assert leaks == []
