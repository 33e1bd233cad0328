"""The bot protocol: a view in, an action out, never the hidden state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from eights.engine import Action, View


@dataclass(frozen=True, slots=True)
class Hint:
    """The action a bot would take, and why, in a short sentence."""

    action: Action
    reason: str


class Bot(Protocol):
    """A computer player. It gets only its seat's ``View`` (which lists the legal actions)."""

    name: str

    def choose(self, view: View) -> Action:
        """One of ``view.legal``."""
        ...

    def hint(self, view: View) -> Hint:
        """The action this bot would take, with a reason a player can read."""
        ...


def legal_moves(view: View) -> tuple[Action, ...]:
    """The seat's legal actions, for a bot to choose from.

    :raises ValueError: when there are none: it is another seat's turn.
    """
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
    return view.legal
