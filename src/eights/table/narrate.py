"""Words for the table, shared by every front end: the state a seat sees, its moves, what
happened, a round's end and the result. Everything is read from a ``View`` or from events
(``event.words(names)``); nothing here decides a rule, and nothing here draws: colours
belong to the front ends.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from eights.bots import Hint
from eights.cards import Card, Suit, rank_text, sort_key
from eights.engine import Action, ActionError, Draw, Event, NameSuit, Pass, Play, View, parse_action
from eights.engine.actions import Bury, ChoosePlayer
from eights.engine.events import CardsDrawn, RoundOver, RoundStarted
from eights.table.session import YOU, Session

# ----- cards and suits -----------------------------------------------------------------------


def card_text(card: Card) -> str:
    """``8♥``, ``10♣``, ``GJ``."""
    return card.pretty()


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(c.pretty() for c in cards) or "no cards"


def sorted_hand(cards: Iterable[Card]) -> list[Card]:
    """By suit, then rank (aces low), jokers last."""
    return sorted(cards, key=sort_key)


_CARD_NOTATION = re.compile(r"\b(10|[2-9AJQK])([CDHS])\b")


def pretty_cards(text: str) -> str:
    """Card notations in a message with suit symbols: ``play 8H`` -> ``play 8♥``."""
    return _CARD_NOTATION.sub(lambda m: Card.parse(m.group(0)).pretty(), text)


def suit_words(suit: Suit) -> str:
    """``♥ hearts``."""
    return f"{suit.symbol} {suit.name.lower()}"


# ----- people's words --------------------------------------------------------------------------

#: Verbs the engine's sentences use after a seat's name, for "You plays" -> "You play".
_YOU_VERBS = {
    "plays": "play",
    "draws": "draw",
    "names": "name",
    "passes": "pass",
    "drops": "drop",
    "buries": "bury",
    "deals": "deal",
    "stacks": "stack",
    "takes": "take",
    "is": "are",
    "goes": "go",
    "wins": "win",
    "chooses": "choose",
}
_YOU_RE = re.compile(rf"\b{YOU} ({'|'.join(_YOU_VERBS)})\b")


def fix_you(text: str) -> str:
    """The engine writes third-person sentences; a lone person is called "You"."""
    return _YOU_RE.sub(lambda m: f"{YOU} {_YOU_VERBS[m.group(1)]}", text)


def event_words(event: Event, names: tuple[str, ...]) -> str:
    """The engine's sentence for ``event``, with a chosen draw (a 5) saying it was chosen."""
    words = event.words(names)
    if isinstance(event, CardsDrawn) and event.reason == "chosen":
        words = words.replace(" draws ", " is chosen to draw ", 1)
    return fix_you(words)


def seat_words(session: Session, seat: int, view: View) -> str:
    """``Cleo (hard, 5 cards)``."""
    return f"{session.label(seat)}, {count_words(view.hand_counts[seat], 'card')}"


def count_words(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def action_words(action: Action, view: View, names: tuple[str, ...]) -> str:
    """A legal move for people: ``play 8♥``, ``draw the chain (4 cards)``, ``choose Cleo``."""
    if isinstance(action, Play):
        if view.phase == "drop_jacks":
            return f"drop {card_text(action.card)}"
        if action.stack:
            return f"play {cards_text(action.cards)} ({card_text(action.card)} on top)"
        return f"play {card_text(action.card)}"
    if isinstance(action, Draw):
        if view.chain:
            return f"draw the chain ({count_words(view.chain, 'card')})"
        return "draw a card"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, NameSuit):
        return f"name {suit_words(action.suit)}"
    if isinstance(action, Bury):
        return f"bury {card_text(action.card)}"
    if isinstance(action, ChoosePlayer):
        who = names[action.seat]
        if action.seat == view.seat:
            who += " (yourself)"
        return f"choose {who} (seat {action.seat}, {count_words(view.hand_counts[action.seat], 'card')})"
    return str(action)


def hint_words(hint: Hint, view: View, names: tuple[str, ...]) -> str:
    """``Hint: play 8♥ and go out``: the move, and why (the reason may already name the move)."""
    words = action_words(hint.action, view, names)
    reason = hint.reason.strip().rstrip(".")
    if reason.split(" ", 1)[0] == words.split(" ", 1)[0]:
        return f"Hint: {reason}."
    return f"Hint: {words} ({reason})." if reason else f"Hint: {words}."


def direction_words(direction: int) -> str:
    return "clockwise" if direction == 1 else "counter-clockwise"


def order_line(view: View, names: tuple[str, ...]) -> str:
    """The seats in the order of play, from the one whose turn it is: ``Ada → Bram → You → Ada``."""
    n = view.players
    seats = [(view.turn + view.direction * i) % n for i in range(n + 1)]
    return " → ".join(names[s] for s in seats)


def top_words(view: View) -> str:
    """The top card and what must be matched."""
    top = view.top
    text = f"Top card: {card_text(top)} ({top.words()})."
    if view.active_suit is None:
        return text + " A suit is still to be named."
    if view.suit_named:
        return text + f" Named suit: {suit_words(view.active_suit).upper()}: play {view.active_suit.symbol} or a wild."
    return text + f" Suit: {suit_words(view.active_suit)}."


def duty_lines(view: View, names: tuple[str, ...]) -> list[str]:
    """Everything pending on the table: a chain, a follow-me duty, a waiting 3, a run, the Guarantee Joker."""
    lines = []
    turn = names[view.turn]
    if view.chain:
        lines.append(f"Chain of 2s pending: {turn} must play a 2 or draw {count_words(view.chain, 'card')}.")
    if view.follow_rank is not None:
        rank = rank_text(view.follow_rank)
        suit = suit_words(view.active_suit) if view.active_suit is not None else "its suit"
        lines.append(f"Follow-me: {turn} may lay more {rank}s, then must follow with {suit} or a wild.")
    if view.phase == "extra_card":
        lines.append(f"The 10 gives {turn} one more card to play.")
    if view.cancel_pending:
        lines.append("A 3 waits: the next card played on it has no effect (a wild still names its suit).")
    run_rank, length = view.run
    if length >= 2 and view.rules.four_in_a_row:
        lines.append(f"Run: {length} × {rank_text(run_rank)} in a row (at four, everyone buries a card).")
    if view.guarantee_hoarder is not None:
        lines.append(
            f"Guarantee Joker hold: every forced draw comes from {names[view.guarantee_hoarder]}'s hand; "
            "a player who cannot match is skipped."
        )
    elif view.rules.guarantee_joker:
        state = "still possible" if view.combo_armed else "used (a K♥ makes it possible again)"
        lines.append(f"Guarantee Joker combo (GJ on JK): {state}.")
    if view.teams:
        lines.append("Teams: " + "; ".join(f"{names[a]} & {names[b]}" for a, b in view.teams) + ".")
    return lines


def prompt_words(view: View, names: tuple[str, ...]) -> str:
    """What the seat of this view must do now, or whom it waits for."""
    if view.is_over:
        return "The game is over."
    if view.seat is None or view.to_act != view.seat:
        who = names[view.to_act]
        if view.phase == "drop_jacks":
            return f"{who} drops jacks…"
        if view.phase == "bury":
            return f"{who} buries a card…"
        return f"Waiting for {who}…"
    phase = view.phase
    legal = view.legal
    can_draw = any(isinstance(a, Draw) for a in legal)
    can_pass = any(isinstance(a, Pass) for a in legal)
    plays = [a for a in legal if isinstance(a, Play)]
    others = (["draw (d)"] if can_draw else []) + (["pass (p)"] if can_pass else [])
    extra = "".join(f", or {o}" for o in others)
    if phase == "name_suit":
        return "Name the suit the next player must follow."
    if phase in ("choose_draw", "choose_swap"):
        return "Choose a player for the card you played."
    if phase == "drop_jacks":
        return "A queen: drop your jacks, one at a time, in the order you choose."
    if phase == "bury":
        return "Four in a row: bury one card of your choice."
    if phase == "play_drawn" and view.drawn is not None:
        return f"You drew {card_text(view.drawn)}: play it (Enter){extra}."
    if phase == "follow_drawn" and view.drawn is not None:
        return f"You drew {card_text(view.drawn)}, which follows: play it (Enter)."
    if phase == "follow":
        if plays:
            return f"Follow-me: play another {rank_text(view.follow_rank or 0)} or a follow-me card (Enter){extra}."
        return f"Nothing to follow with: {' or '.join(others)}."
    if view.chain:
        if plays:
            return f"Play a 2 (Enter) or draw the chain of {view.chain} (d)."
        return f"No 2 to answer: draw the chain of {view.chain} (d)."
    if phase == "extra_card":
        if plays:
            return f"Play one more card (Enter){extra}."
        return "No card to play: pass (p)."
    if plays:
        stack = " (space marks cards to lay under it)" if any(a.stack for a in plays) else ""
        return f"Your turn: play a highlighted card (Enter){stack}{extra}."
    if can_draw:
        return "No card matches: draw (d)."
    return "Nothing to play or draw: pass (p)."


def state_lines(session: Session, view: View) -> list[str]:
    """The table as the seat of ``view`` sees it, for ``--plain``."""
    names = session.names
    rounds = f" of {view.rounds}" if view.rounds else ""
    lines = [
        f"Round {view.round}{rounds}, {view.hand_size} cards each; {names[view.dealer]} dealt. "
        f"Play goes {direction_words(view.direction)}: {order_line(view, names)}.",
        top_words(view),
        f"Stock: {count_words(view.stock_count, 'card')}; discard pile: {count_words(view.discard_count, 'card')}.",
    ]
    others = []
    for seat in range(view.players):
        if seat == view.seat:
            continue
        text = seat_words(session, seat, view)
        if view.rules.score_keeping:
            text += f", {view.totals[seat]} points"
        others.append(text)
    lines.append("Players: " + "; ".join(others) + ".")
    lines.extend(duty_lines(view, names))
    if view.seat is not None:
        mine = f"Your hand ({count_words(len(view.hand), 'card')}): {cards_text(sorted_hand(view.hand))}"
        if view.rules.score_keeping:
            mine += f"; your total: {view.totals[view.seat]} points"
        lines.append(mine + ".")
    return lines


def round_lines(event: RoundOver, names: tuple[str, ...], next_round: RoundStarted | None, scored: bool) -> list[str]:
    """A round's end: every hand, points, running totals, and the next deal."""
    lines = [event_words_round(event, names)]
    for seat, hand in enumerate(event.hands):
        text = f"  {names[seat]}: {cards_text(sorted_hand(hand))}"
        if scored:
            text += f"; points {event.points[seat]:+d}, total {event.totals[seat]}"
        lines.append(text)
    if next_round is not None:
        lines.append(
            f"Next: round {next_round.round}, {count_words(next_round.hand_size, 'card')} each; "
            f"{names[next_round.dealer]} deals."
        )
    return lines


def event_words_round(event: RoundOver, names: tuple[str, ...]) -> str:
    who = " and ".join(names[s] for s in event.winners) or "nobody"
    how = {"out": "went out", "blocked": "won the blocked round", "cap": "won a round stopped by the safety cap"}
    return fix_you(f"Round {event.round} over: {who} {how[event.reason]}.")


def result_lines(session: Session) -> list[str]:
    """The match's end: winners and final totals."""
    game = session.game
    outcome = game.outcome
    if outcome is None:
        return ["The game is not over."]
    names = session.names
    who = " and ".join(names[s] for s in outcome.winners)
    verb = "wins" if len(outcome.winners) == 1 and names[outcome.winners[0]] != YOU else "win"
    lines = [f"Game over: {who} {verb}{' (a shared win)' if len(outcome.winners) > 1 else ''}."]
    rounds = count_words(outcome.rounds, "round")
    if game.rules.score_keeping:
        best = "lowest" if game.rules.lowest_wins else "highest"
        lines.append(f"Final totals after {rounds} ({best} wins):")
        for seat in range(game.players):
            mark = "  ← winner" if seat in outcome.winners else ""
            lines.append(f"  {session.label(seat)}: {outcome.totals[seat]}{mark}")
    else:
        lines.append(f"No score is kept; {rounds} played.")
    return lines


# ----- reading a move -----------------------------------------------------------------------------


def parse_move(text: str, legal: Sequence[Action]) -> Action:
    """A move typed by a person: the number of a listed legal move, or an action's text
    (``8H``, ``play 8H``, ``draw``, ``pass``, ``suit H``, ``choose 2``, ``bury 7C``, ``drop JH``).

    The result may still be illegal: the caller hands it to the engine, which says why.

    :raises ActionError: when the text is no move at all.
    """
    words = text.strip()
    if words.isdigit():
        number = int(words)
        if not 1 <= number <= len(legal):
            raise ActionError(f"{number} is not a listed move; choose 1-{len(legal)}")
        return legal[number - 1]
    if words.lower().startswith("drop "):
        words = "play " + words[5:]
    return parse_action(words)
