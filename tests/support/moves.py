"""The moves a state's ``table.legal`` offers, as the page reads them (docs/protocol.md; static/table.js,
``movesOf``): every move as it is, and a play with a ``stack`` once for each way to play it. The tests that
read the moves read them here."""

from __future__ import annotations

from itertools import product
from typing import Any


def moves(table: dict[str, Any]) -> list[dict[str, Any]]:
    """Every move of ``table["legal"]``, each way of a stack its own, in the server's order (the first way of a
    stack is the move itself, as the server words it)."""
    texts = {card["code"]: card["text"] for card in table["hand"]}
    out: list[dict[str, Any]] = []
    for move in table["legal"]:
        out.append(move)
        if "stack" not in move:
            continue
        top = move["cards"][0]
        counts = product(*(range(slot["least"], slot["most"] + 1) for slot in move["stack"]))
        for chosen in list(counts)[1:]:
            under = [slot["card"] for slot, n in zip(move["stack"], chosen, strict=True) for _ in range(n)]
            laid = [*under, top]
            words = f"play {' '.join(texts[code] for code in laid)} ({texts[top]} on top)"
            out.append(
                {"kind": move["kind"], "action": f"play {' '.join(laid)}", "words": words, "cards": [top, *under]}
            )
    return out


def first_move(table: dict[str, Any]) -> str:
    """The first legal move's text (what a scripted player sends)."""
    action: str = table["legal"][0]["action"]
    return action


def kinds(table: dict[str, Any]) -> set[str]:
    """The kinds of move the seat may make (``play``, ``draw``, ``suit`` ...)."""
    return {move["kind"] for move in table["legal"]}
