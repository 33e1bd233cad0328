"""The legal moves of the web table's state (docs/protocol.md): a play of one top card is one move, its stacks
said by the cards that may go under it; read as the page reads them (tests/support/moves.py, as static/table.js), they
are every move of the engine, once each, in its order, in its words; and the state stays small at the largest
rules."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from eights.cards import Card
from eights.engine import DRAW, Play
from eights.rules import load_preset
from eights.table import HUMAN, PlayConfig, Session
from eights.table.phrases import action_words
from eights.web.tableview import stacks, table_json
from tests.support.moves import moves
from tests.support.scripting import scripted

#: Rule sets with stacks (four packs: as many copies as the rules allow), and every other kind of move.
RULES: list[tuple[str, dict[str, str], int]] = [
    ("derange", {"packs": "4", "stacking": "true", "rounds": "100"}, 2),
    ("derange", {"packs": "2", "stacking": "true", "rounds": "12,3"}, 3),
    ("action", {"packs": "2", "stacking": "true"}, 4),
    ("baby-eating", {"stacking": "true"}, 3),
    ("classic", {}, 2),
    ("race", {}, 3),
]


def checked(preset: str, options: dict[str, str], players: int, count: int) -> int:
    """Random legal play of a seeded match, the moves of each decision's state checked (``check``), for ``count``
    decisions at most; how many were checked."""
    rules = load_preset(preset).with_options(options)
    people = tuple(f"P{seat}" for seat in range(players))
    session = Session(PlayConfig(rules, (HUMAN,) * players, seed=7, people=people))
    rng = random.Random(7)
    done = 0
    while done < count and not session.game.is_over:
        seat = session.game.to_act
        check(session, seat, table_json(session, seat))
        done += 1
        legal = session.view(seat).legal
        session.play(legal[rng.randrange(len(legal))], seat)
    return done


def check(session: Session, seat: int, table: dict[str, Any]) -> None:
    """The state's moves, read as the page reads them, are the engine's: each once, in order, in its words."""
    seen = session.view(seat)
    ways = moves(table)
    assert [w["action"] for w in ways] == [str(a) for a in seen.legal]
    assert [w["words"] for w in ways] == [action_words(a, seen, session.names) for a in seen.legal]
    plays = [a for a in seen.legal if isinstance(a, Play)]
    assert [w["cards"] for w in ways if w["kind"] in ("play", "drop")] == [
        [str(a.card), *(str(c) for c in a.stack)] for a in plays
    ]
    # one move per top card at most
    tops = [m["cards"][0] for m in table["legal"] if m["kind"] in ("play", "drop")]
    assert len(tops) == len(set(tops)) == len({a.card for a in plays})


@pytest.mark.parametrize(("preset", "options", "players"), RULES)
def test_the_moves_are_the_engines_each_once_in_order_and_words(
    preset: str, options: dict[str, str], players: int
) -> None:
    assert checked(preset, options, players, 150) > 20


def test_after_a_draw_a_stack_holds_the_card_drawn() -> None:
    """With stacking, the card just drawn is in every play after the draw: under another card of its rank it
    is a card the stack must hold (``least`` 1)."""
    game = scripted("action", ["4S 9C 7D", "KC QC JC"], "4H", "4C 2D 3D", dealer=1, stacking=True, draw_at_will=True)
    session = Session(PlayConfig(game.rules, (HUMAN, HUMAN), seed=0, people=("Ann", "Bob")), game=game)
    session.play(DRAW, 0)
    table = table_json(session, 0)
    check(session, 0, table)
    assert table["legal"][0]["stack"] == [{"card": "4C", "least": 1, "most": 1}]
    assert [m["action"] for m in moves(table)] == ["play 4C 4S", "play 4C", "play 4S 4C", "pass"]


def test_a_state_at_the_largest_rules_stays_small() -> None:
    """Derange with four packs, stacking and a 100-card deal: about a thousand ways to play a hand, said in a
    few moves; the whole table as the seat sees it, hand included, in under 20 KB (it was 175 KB)."""
    rules = load_preset("derange").with_options({"packs": "4", "stacking": "true", "rounds": "100"})
    session = Session(PlayConfig(rules, (HUMAN, HUMAN), seed=1, people=("Ann", "Bob")))
    rng = random.Random(1)
    widest = 0
    for _ in range(100):
        seat = session.game.to_act
        legal = session.view(seat).legal
        table = table_json(session, seat)
        if len(legal) > widest:
            widest = len(legal)
            assert len(table["legal"]) < 30
        assert len(json.dumps(table, ensure_ascii=False).encode()) < 20_000
        session.play(legal[rng.randrange(len(legal))], seat)
    assert widest > 900


def test_plays_that_no_box_holds_go_one_each() -> None:
    """A top card whose stacks are not every count of its cards (none of the rules gives one) is said play by
    play, each its own move: still every play, once, and no other; the stacks of the rules are one box."""
    plays = [Play("8H"), Play("8H", ("8C", "8D")), Play("8H", ("8C", "8C", "8D"))]
    assert stacks(plays) == [
        (plays[0], []),
        (plays[1], [(Card("8C"), 1, 1), (Card("8D"), 1, 1)]),
        (plays[2], [(Card("8C"), 2, 2), (Card("8D"), 1, 1)]),
    ]
    whole = [Play("8H", stack) for stack in [(), ("8C",), ("8C", "8C"), ("8D",), ("8C", "8D"), ("8C", "8C", "8D")]]
    assert stacks(whole) == [(Play("8H"), [(Card("8C"), 0, 2), (Card("8D"), 0, 1)])]
    drawn = [Play("8H", stack) for stack in [("8D",), ("8C", "8D")]]  # after drawing the 8D: it is in every play
    assert stacks(drawn) == [(Play("8H", ("8D",)), [(Card("8C"), 0, 1), (Card("8D"), 1, 1)])]
