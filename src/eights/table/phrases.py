"""Words for the table, shared by every front end: cards and suits, a seat, a move and what it does,
a hint, the direction of play, what is pending, a round's end and the result. Everything is read from a
``View``, the rule set or events; nothing here decides a rule, and nothing here draws: colours belong to
the front ends. ``event_words`` gives the engine's own sentence for a single event."""

from __future__ import annotations

import re
from collections.abc import Iterable

from eights.bots import Hint
from eights.cards import Card, Suit, rank_text, sort_key
from eights.engine import Action, Draw, Event, NameSuit, Pass, Play, View
from eights.engine.actions import Bury, ChoosePlayer
from eights.engine.events import (
    CardsDrawn,
    RoundOver,
    RoundStarted,
)
from eights.rules import RuleSet
from eights.rules.describe import pattern_words
from eights.table.session import YOU, Session
from eights.words import count_words

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
YOU_VERBS = {
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
_YOU_RE = re.compile(rf"\b{YOU} ({'|'.join(YOU_VERBS)})\b")


def fix_you(text: str) -> str:
    """The engine writes third-person sentences; a lone person is called "You"."""
    return _YOU_RE.sub(lambda m: f"{YOU} {YOU_VERBS[m.group(1)]}", text)


def event_words(event: Event, names: tuple[str, ...]) -> str:
    """The engine's sentence for ``event``, with a chosen draw (a 5) saying it was chosen."""
    words = event.words(names)
    if isinstance(event, CardsDrawn) and event.reason == "chosen":
        words = words.replace(" draws ", " is chosen to draw ", 1)
    return fix_you(words)


def seat_words(session: Session, seat: int, view: View) -> str:
    """``Cleo (hard, 5 cards)``."""
    return f"{session.label(seat)}, {count_words(view.hand_counts[seat], 'card')}"


def action_words(action: Action, view: View, names: tuple[str, ...]) -> str:
    """A legal move for people, saying what it does: ``play 8♥``, ``draw the chain (4 cards)``,
    ``make Cleo draw 1 card (seat 2, 5 cards)``, ``keep the drawn card and pass``."""
    phase = view.phase
    if isinstance(action, Play):
        if phase == "drop_jacks":
            return f"drop {card_text(action.card)}"
        if action.stack:
            return f"play {cards_text(action.cards)} ({card_text(action.card)} on top)"
        if phase in ("play_drawn", "follow_drawn") and action.card == view.drawn:
            return f"play {card_text(action.card)}, the card you drew"
        return f"play {card_text(action.card)}"
    if isinstance(action, Draw):
        if view.chain:
            return f"draw the chain ({count_words(view.chain, 'card')})"
        if phase == "follow":
            return "draw a card (play it if it follows)"
        return "draw a card"
    if isinstance(action, Pass):
        if phase == "play_drawn":
            return "keep the drawn card and pass"
        if phase == "extra_card":
            return "pass (play no extra card)"
        if any(isinstance(a, Play) for a in view.legal):
            return "pass (keep your cards)"
        return "pass (nothing to play or draw)"
    if isinstance(action, NameSuit):
        return f"name {suit_words(action.suit)}"
    if isinstance(action, Bury):
        return f"bury {card_text(action.card)} under the discard pile"
    if isinstance(action, ChoosePlayer):
        seat = action.seat
        about = f"seat {seat}, {count_words(view.hand_counts[seat], 'card')}"
        if phase == "choose_swap":
            return f"swap a random card with {names[seat]} ({about})"
        if phase == "choose_draw":
            count = public_field(view, "choose_count")
            n = count if isinstance(count, int) and count > 0 else 1
            if seat == view.seat:
                return f"draw {count_words(n, 'card')} yourself ({about})"
            return f"make {names[seat]} draw {count_words(n, 'card')} ({about})"
        who = names[seat] + (" (yourself)" if seat == view.seat else "")
        return f"choose {who} ({about})"
    return str(action)


def hint_words(hint: Hint, view: View, names: tuple[str, ...]) -> str:
    """``Hint: play 8♥ and go out``: the move, and why (the reason may already name the move)."""
    words = action_words(hint.action, view, names)
    if tuple(view.legal) == (hint.action,) and not isinstance(hint.action, Draw):
        return f"Hint: {words} (your only legal move)."  # no strategy to it: nothing else may be done
    reason = hint.reason.strip().rstrip(".")
    if reason.split(" ", 1)[0].rstrip(":") == words.split(" ", 1)[0]:
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


#: The Guarantee Joker combo's rule words (they name cards, not where any card is).
COMBO_WORDS = "a GJ laid on this JK by another player"
COMBO_AGAIN = "it can happen again only after a K♥"


def duty_lines(view: View, names: tuple[str, ...]) -> list[str]:
    """Everything pending on the table: a chain, a follow-me duty, a waiting 3, a run, the Guarantee Joker."""
    lines = []
    turn = names[view.turn]
    if turn == YOU:
        turn = "you"  # within a sentence
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
        # Said when it can happen now (a JK on top) or cannot for a while, not at every turn.
        if view.combo_armed and str(view.top) == "JK":
            lines.append(
                f"Guarantee Joker combo: {COMBO_WORDS} gives the JK's player the whole draw pile "
                "(once a game, until a K♥)."
            )
        elif not view.combo_armed:
            lines.append(f"Guarantee Joker combo used: {COMBO_AGAIN}.")
    if view.teams:
        lines.append("Teams: " + "; ".join(f"{names[a]} & {names[b]}" for a, b in view.teams) + ".")
    return lines


def public_field(view: View, name: str) -> object:
    """A raw public field of the game the view was taken from (None if the view has none)."""
    return dict(view.public.fields).get(name) if view.public is not None else None


def chain_card_words(rules: RuleSet) -> str:
    """The cards that answer a chain: ``2``."""
    patterns = [p for p, effects in rules.effects if any(e.partition(":")[0] == "chain" for e in effects)]
    return " or ".join(pattern_words(p) for p in patterns) or "chain card"


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
    out = [s for s in event.winners if not event.hands[s]]
    if event.reason == "out" and len(event.winners) > 1 and len(out) == 1:
        # Teams: one ally went out, and the team wins.
        team = " and ".join("you" if names[s] == YOU else names[s] for s in event.winners)
        return fix_you(f"Round {event.round} over: {names[out[0]]} went out, so {team} win as a team.")
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
