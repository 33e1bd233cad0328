"""Words for the table, shared by every front end: the state a seat sees, its moves and what
it is asked (``prompt_words``, with or without the terminal's keys), the header, what
happened, a round's end and the result. Everything is read from a ``View``, the rule set or
events; nothing here decides a rule, and nothing here draws: colours belong to the front ends.

What happened is told by a ``Narrator``, one per seat (or spectator) and front end: it groups
repeats (one player's draws in a row are one line), ties each card to what it did and says
each rule in one short clause the first time it acts in the match. ``event_words`` still
gives the engine's own sentence for a single event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from eights.bots import Hint
from eights.cards import GJ_ID, Card, Suit, rank_text, sort_key
from eights.engine import Action, ActionError, Draw, Event, NameSuit, Pass, Play, View, parse_action, redact
from eights.engine.actions import Bury, ChoosePlayer
from eights.engine.events import (
    Cancelled,
    CardBuried,
    CardPlayed,
    CardsDrawn,
    CardsSwapped,
    ChainGrew,
    DirectionReversed,
    FollowMe,
    FourInARow,
    GameOver,
    GuaranteeEnded,
    GuaranteeJoker,
    JackDropped,
    Passed,
    PlayerSkipped,
    Reshuffled,
    RoundOver,
    RoundStarted,
    StarterBuried,
    StarterTurned,
    SuicideKing,
    SuitNamed,
)
from eights.rules import RuleSet
from eights.rules.describe import effect_words, parse_rank_or_none, pattern_words
from eights.rules.ruleset import card_pattern_matches
from eights.table.session import SPEED_WORDS, YOU, Session
from eights.words import and_list, article, count_words, or_list

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
            count = _public(view, "choose_count")
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


def _public(view: View, name: str) -> object:
    """A raw public field of the game the view was taken from (None if the view has none)."""
    return dict(view.public.fields).get(name) if view.public is not None else None


def chain_card_words(rules: RuleSet) -> str:
    """The cards that answer a chain: ``2``."""
    patterns = [p for p, effects in rules.effects if any(e.partition(":")[0] == "chain" for e in effects)]
    return " or ".join(pattern_words(p) for p in patterns) or "chain card"


def prompt_words(view: View, names: tuple[str, ...], keys: bool = True) -> str:
    """What the seat of this view is asked now, or whom it waits for. ``keys`` adds the terminal
    game's keys (``(Enter)``, ``(d)``, ``(p)``); without them the words suit any front end."""

    def key(name: str) -> str:
        return f" ({name})" if keys else ""

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
    top = card_text(view.top)
    if phase == "name_suit":
        return f"Name the suit to follow on {top}: the next player must play that suit (or a wild)."
    if phase == "choose_draw":
        count = _public(view, "choose_count")
        n = count if isinstance(count, int) and count > 0 else 1
        return f"Your {top}: choose who draws {count_words(n, 'card')} (any player, yourself included)."
    if phase == "choose_swap":
        return (
            f"Your {top}: choose an opponent to swap with (each of you takes one random card from the other's "
            "hand, unseen)."
        )
    if phase == "drop_jacks":
        return (
            "A queen: every player drops all their jacks. Drop yours, one at a time, in the order you choose; "
            "the last jack dropped is the card to match."
        )
    if phase == "bury":
        return "Four in a row: choose one card of your hand to bury under the discard pile."
    draw = f"draw a card{key('d')}"
    if phase == "play_drawn" and view.drawn is not None:
        keep = f", or keep it and pass{key('p')}" if can_pass else ""
        return f"You drew {card_text(view.drawn)}, which plays: play it{key('Enter')}{keep}."
    if phase == "follow_drawn" and view.drawn is not None:
        return f"You drew {card_text(view.drawn)}, which follows: play it{key('Enter')}."
    if phase == "follow":
        rank = rank_text(view.follow_rank or 0)
        suit = suit_words(view.active_suit) if view.active_suit is not None else "its suit"
        if plays:
            return f"Follow-me: lay another {rank}, or follow with {suit} or a wild{key('Enter')}."
        if can_draw:
            return f"Nothing follows: {draw}, and play it if it follows."
        return f"Nothing follows and nothing is left to draw: pass{key('p')}."
    if view.chain:
        chain = chain_card_words(view.rules)
        if plays:
            return (
                f"A chain of {count_words(view.chain, 'card')} is pending: play {article(chain)}{key('Enter')} "
                f"to add to it, or draw the {view.chain} cards{key('d')}."
            )
        return f"No {chain} to answer the chain: draw its {count_words(view.chain, 'card')}{key('d')}."
    if phase == "extra_card":
        if plays:
            rest = f", or play no more and pass{key('p')}" if can_pass else ""
            return f"Your {top} gives you one more card: play a card that matches{key('Enter')}{rest}."
        return f"Your {top} gives you one more card, but none plays: pass{key('p')}."
    if plays:
        others = (f", or {draw}" if can_draw else "") + (f", or pass{key('p')}" if can_pass else "")
        if keys:
            stack = " (space marks cards to lay under it)" if any(a.stack for a in plays) else ""
            return f"Your turn: play a highlighted card (Enter){stack}{others}."
        stack = " (or several of one rank, the last on top)" if any(a.stack for a in plays) else ""
        return f"Your turn: play a card that matches {top}{stack}{others}."
    if can_draw:
        return f"No card matches {top}: {draw}."
    return f"Nothing to play and nothing to draw: pass{key('p')}."


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


def header_words(session: Session, view: View, width: int = 62) -> tuple[str, str]:
    """The table's title and subtitle (round, hand size, seed, computer speed), shortened step by
    step until ``title — subtitle`` fits in ``width`` columns: shorter words first, then without
    the speed, then without the seed, then the preset's short name for its title."""
    rules = session.rules
    rounds = view.rounds
    seed = f"seed {session.game.seed}"
    speed = f"speed {SPEED_WORDS[session.speed]}"
    long_round = f"round {view.round}" + (f" of {rounds}" if rounds else "")
    short_round = f"round {view.round}" + (f"/{rounds}" if rounds else "")
    cards = count_words(view.hand_size, "card")
    choices = [
        (rules.title, (long_round, f"{cards} each", seed, speed)),
        (rules.title, (short_round, cards, seed, speed)),
        (rules.title, (short_round, cards, seed)),
        (rules.title, (short_round, cards, speed)),
        (rules.title, (short_round, cards)),
        (rules.name, (short_round, cards)),
        (rules.name, (short_round,)),
    ]
    for title, parts in choices:
        sub = " · ".join(parts)
        if len(title) + len(" — ") + len(sub) <= width:
            return title, sub
    room = max(1, width - len(" — ") - len(short_round))
    title = rules.name if len(rules.name) <= room else rules.name[: max(0, room - 1)] + "…"
    return title, short_round


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


# ----- the narrator: a match's events as lines a new player can follow -------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One line of narration and its kind, for a front end's styling: ``deal`` (a round begins),
    ``event``, ``round_over`` (a round's result), ``hand`` (a hand shown at a round's end),
    ``game_over`` and ``blank`` (between rounds)."""

    text: str
    kind: str = "event"

    def __str__(self) -> str:
        return self.text


_IRREGULAR = {"is": "are", "has": "have", "does": "do"}


def you_verb(verb: str) -> str:
    """The form of a third-person verb after "You": ``plays`` -> ``play``, ``buries`` -> ``bury``,
    ``is skipped`` -> ``are skipped`` (only the first word changes)."""
    if " " in verb:
        first, rest = verb.split(" ", 1)
        return f"{you_verb(first)} {rest}"
    if verb in _YOU_VERBS:
        return _YOU_VERBS[verb]
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("sses", "shes", "ches", "xes", "oes")):
        return verb[:-2]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def rule_words(rules: Sequence[str]) -> str:
    """The rules a line explains, after it: `` — a Q skips the next player``."""
    return f" — {'; '.join(rules)}" if rules else ""


def _parts(effect: str) -> tuple[str, int]:
    kind, _, count = effect.partition(":")
    return kind, int(count) if count.isdigit() else 0


def _kinds(effects: Sequence[str]) -> set[str]:
    return {_parts(e)[0] for e in effects}


def _count(effects: Sequence[str], kind: str) -> int:
    return next((n for k, n in map(_parts, effects) if k == kind), 0)


class Narrator:
    """Turns one match's events into lines for one seat (or a spectator), for every front end.

    It words each event as ``viewer`` may see it (``redact``), groups repeats (one player's
    draws in a row, passes in a row, everyone's burials, the jacks a queen makes fall), ties a
    card to what it did (``Bram plays 2♦: Cleo draws 2 cards and loses the turn``) and says each
    rule in one short clause the first time it acts in the match. Nothing here decides a rule:
    the clauses are read from the rule set, the rest from the events.

    ``feed(events)`` returns the lines that are complete. The last line may still grow (the
    next draw of the same player, the suit a wild's player names): ``pending`` shows it as it
    reads now and ``flush()`` ends it; a front end flushes before it asks a person to move.
    The lines depend only on the events fed, so feeding a whole log again gives the same lines.
    """

    def __init__(self, rules: RuleSet, names: tuple[str, ...], viewer: int | None = None) -> None:
        self.rules = rules
        self.names = names
        self.viewer = viewer
        self.players = len(names)
        self.effects = rules.effect_table()
        #: Keys of the rules already explained in this match.
        self.explained: set[str] = set()
        self._open: _Open | None = None
        self._done: list[Line] = []
        self._prev: Event | None = None
        #: The last card laid or dropped and its player: whom a 5's draw or a named suit belongs to.
        self.last_seat = -1
        self.last_card: Card | None = None
        #: A 10's player who may lay one more card.
        self.extra_seat = -1
        #: The player whose hand forced draws come from while the Guarantee Joker holds.
        self.hoarder: int | None = None
        #: The fourth card of four in a row, whose effect follows the burials.
        self.fourth: tuple[int, Card] | None = None
        self.dealer = -1
        self._last_hint = ""

    # ----- the public face ------------------------------------------------------------------

    def feed(self, events: Iterable[Event]) -> list[Line]:
        """The lines the events complete (the last may wait in ``pending``)."""
        for event in events:
            self._take(redact(event, self.viewer))
        done, self._done = self._done, []
        return done

    def flush(self) -> list[Line]:
        """End the line still open: the lines to show before a person is asked to move."""
        self._close()
        done, self._done = self._done, []
        return done

    @property
    def pending(self) -> Line | None:
        """The open line as it reads now, or None."""
        if self._open is None:
            return None
        return Line(self._open.render(self, final=False))

    def lines(self, events: Iterable[Event]) -> list[Line]:
        """Every line for ``events``, the open one included (a whole log, a transcript)."""
        return self.feed(events) + self.flush()

    def hint_words(self, hint: Hint, view: View) -> str:
        """``Hint: ...`` (see ``hint_words``); a reason the last hint gave already is not said again."""
        words = hint_words(hint, view, self.names)
        why = hint.reason.strip().rstrip(".").partition(": ")[2]
        if why and why == self._last_hint:
            words = f"Hint: {action_words(hint.action, view, self.names)} (for the same reason as the last hint)."
        self._last_hint = why
        return words

    # ----- words ----------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return self.names[seat]

    def obj(self, seat: int) -> str:
        """A seat's name after a verb: ``you`` for the lone person."""
        name = self.names[seat]
        return "you" if name == YOU else name

    def says(self, seat: int, verb: str, start: bool = True) -> str:
        """``Ada plays`` or ``You play`` (``you play`` within a sentence)."""
        name = self.names[seat]
        if name != YOU:
            return f"{name} {verb}"
        return f"{name if start else 'you'} {you_verb(verb)}"

    def group(self, seats: Sequence[int], verb: str, plural: str, start: bool = True) -> str:
        """``Ada is skipped``, ``Ada and you are skipped``; the lone person takes ``plural`` too."""
        if len(seats) == 1:
            if self.names[seats[0]] == YOU:
                return f"{YOU if start else 'you'} {plural}"
            return self.says(seats[0], verb, start)
        words = [self.names[seats[0]] if start else self.obj(seats[0]), *(self.obj(s) for s in seats[1:])]
        return f"{and_list(words)} {plural}"

    def got(self, count: int, cards: Sequence[Card] | None) -> str:
        """What a draw brought: ``2 cards (5♣, K♠)``, ``nothing``."""
        if count == 0:
            return "nothing"
        return f"{count_words(count, 'card')}{self.cards(cards)}{self.source()}"

    def cards(self, cards: Sequence[Card] | None) -> str:
        return f" ({', '.join(c.pretty() for c in cards)})" if cards else ""

    def explain(self, key: str, text: str, final: bool, into: list[str]) -> None:
        """Add ``text`` to ``into`` unless its rule was explained; ``final`` marks it explained."""
        if key in self.explained or text in into:
            return
        into.append(text)
        if final:
            self.explained.add(key)

    # ----- the rules in short clauses -------------------------------------------------------------

    def pattern_of(self, card: Card) -> str | None:
        """The effects table's pattern that gives ``card`` its effects (a card's own over its rank's)."""
        found = None
        for pattern, effects in self.rules.effects:
            mine = effects and card_pattern_matches(pattern, int(card))
            if mine and (found is None or parse_rank_or_none(pattern) is None):
                found = pattern
        return found

    def subject(self, effects: tuple[str, ...]) -> str:
        """The cards with exactly these effects: ``an 8``, ``a 3 or 10``, ``K♥``, ``a joker``."""
        words = []
        for pattern, own in self.rules.effects:
            if own != effects:
                continue
            text = pattern_words(pattern)
            words.append(article(text) if parse_rank_or_none(pattern) is not None or text == "joker" else text)
        if len(words) > 1 and all(w.startswith(("a ", "an ")) for w in words):
            words = [words[0]] + [w.split(" ", 1)[1] for w in words[1:]]
        return " or ".join(words)

    def chain_cards(self) -> str:
        patterns = [p for p, effects in self.rules.effects if "chain" in _kinds(effects)]
        return " or ".join(pattern_words(p) for p in patterns) or "chain card"

    def effect_clause(self, effects: tuple[str, ...]) -> str:
        """What cards with ``effects`` do, in one clause: ``a Q skips the next player``."""
        phrases = []
        two = self.players == 2 and self.rules.two_player_extra_turn
        allied = self.rules.teams and "ally" in _kinds(effects)
        for effect in effects:
            kind, n = _parts(effect)
            if kind == "skip" and allied:
                continue  # in teams the turn goes to the ally instead
            if kind == "wild":
                phrases.append("is wild: it plays on anything, and its player names the suit to follow")
            elif kind == "skip":
                if n > 1:
                    others = f"skips the next {n} other players"
                    if self.players <= n + 1:
                        others += f" (with {n + 1} players or fewer, its player plays again)"
                    phrases.append(others)
                else:
                    phrases.append(
                        "skips the next player" + ("; with two players, its player plays again" if two else "")
                    )
            elif kind == "reverse":
                phrases.append(
                    "reverses the direction of play" + ("; with two players, its player plays again" if two else "")
                )
            elif kind == "draw":
                phrases.append(f"makes the next player draw {count_words(n, 'card')} and lose the turn")
            elif kind == "chain":
                chain = self.chain_cards()
                phrases.append(
                    f"starts or grows a chain: the next player must play {article(chain)} or draw the whole chain, "
                    f"{count_words(n, 'card')} for each card in it; drawing it ends the turn"
                )
            elif kind == "penalty":
                phrases.append(f"makes the next player draw {count_words(n, 'card')}, and they still play their turn")
            elif kind == "follow":
                wild = " or ".join(article(pattern_words(p)) for p, e in self.rules.effects if "wild" in _kinds(e))
                phrases.append(
                    "is a follow-me card: its player may lay more of its rank, then must lay a card of the top card's "
                    "suit"
                    + (f" or {wild}" if wild else "")
                    + "; a player with none draws a card and plays it if it follows"
                )
            elif kind == "cancel":
                phrases.append("cancels the effect of the next card played on it, though a wild still names its suit")
            elif kind == "choose_draw":
                phrases.append(f"lets its player choose anyone, themselves included, to draw {count_words(n, 'card')}")
            elif kind == "swap":
                phrases.append(
                    "lets its player choose an opponent: each takes a random card from the other's hand, unseen"
                )
            elif kind == "extra":
                phrases.append("gives its player one more card to play, if they can")
            elif kind == "jack_drop":
                phrases.append(
                    "makes every player drop all their jacks, in turn order, ending with its player; the last jack "
                    "dropped is the card to match"
                )
            elif kind == "ally":
                if self.rules.teams:
                    phrases.append("passes the turn straight to its player's ally")
            elif kind == "suicide":
                phrases.append(f"shuffles every other card together, and its player deals {self.rules.deal} to each")
            else:
                phrases.append(effect_words(self.rules, effect))
        if not phrases:
            return ""
        text = f"{self.subject(effects)} {phrases[0]}"
        return text + "".join(f"; it also {p}" if not p.startswith("is ") else f"; {p}" for p in phrases[1:])

    def card_rule(self, card: Card, final: bool, into: list[str], only: Iterable[str] | None = None) -> None:
        """Explain what ``card`` does, the first time a card with its effects acts."""
        effects = self.effects.get(int(card))
        if not effects:
            return
        if only is not None:
            wanted = set(only)
            if not _kinds(effects) & wanted:
                return
        text = self.effect_clause(effects)
        if text:
            self.explain("effects:" + ",".join(effects), text, final, into)

    def draw_rule(self) -> str:
        rules = self.rules
        if rules.draw == "until_playable":
            if rules.draw_at_will:
                return "a player may draw as many cards as they like, one at a time, even holding a card that plays"
            exempt = ""
            if rules.forced_play_exempt:
                cards = or_list(
                    [
                        article(w) if w[:1].isdigit() or w == "joker" else w
                        for w in map(pattern_words, rules.forced_play_exempt)
                    ]
                )
                exempt = f", and one whose only playable cards are {cards} may draw instead"
            return f"a player who cannot play draws one card at a time until they can{exempt}"
        if rules.draw == "one_may_play":
            return "a player who cannot play draws one card, and may play it if it matches; otherwise the turn ends"
        if rules.draw == "one_ends_turn":
            return "a player who cannot play draws one card, and the turn ends"
        return f"a player who cannot play draws up to {count_words(rules.draw_limit, 'card')}, then may pass"

    def pass_rule(self) -> str:
        if self.rules.draw == "up_to_n":
            return f"after {count_words(self.rules.draw_limit, 'draw')} a player who cannot play may pass"
        if self.rules.reshuffle:
            return "the stock is empty and the discard pile too small to make a new one"
        return "there is no reshuffle: once the stock is empty, a player who cannot play passes"

    def goal_rule(self) -> str:
        rules = self.rules
        best = "lowest" if rules.lowest_wins else "highest"
        if not rules.score_keeping:
            return "the game is one round: the first player out wins"
        if rules.schedule:
            return f"the game is {count_words(len(rules.schedule), 'round')}; then the {best} total wins"
        target = rules.match_target(self.players)
        ends = []
        if target:
            ends.append(f"a player's total reaches {target}")
        if rules.hands:
            ends.append(f"{count_words(rules.hands, 'round')} have been played")
        if ends:
            return f"rounds are played until {' or '.join(ends)}; then the {best} total wins"
        return "the game is one round, won by the player who goes out"

    def score_rule(self, reason: str) -> str:
        rules = self.rules
        if reason == "cap":
            return f"a round still running after {rules.max_actions} actions is stopped and scored as blocked"
        if reason == "blocked":
            if rules.blocked_fewest_cards or not rules.score_values:
                who = "the player with the fewest cards wins it"
            else:
                who = "the lowest hand value wins it"
            text = f"every player passed in turn, so the round is blocked: {who}"
            if rules.score_keeping and rules.scoring == "own_hand":
                text += ", and every player adds their own hand to their total"
            elif rules.score_keeping:
                text += " and collects the difference from each other player; a tie for lowest scores nothing"
            return text
        if not rules.score_keeping:
            return ""
        if rules.scoring == "own_hand":
            return "every other player adds the value of the cards left in their hand to their total"
        return "the player who goes out collects the value of every other player's hand"

    # ----- events in, lines out ---------------------------------------------------------------

    def emit(self, text: str, kind: str = "event") -> None:
        self._done.append(Line(text, kind))

    def _close(self, out: bool = False) -> None:
        said = self._open
        if said is None:
            return
        self._open = None
        said.out = out
        self.emit(said.render(self, final=True))

    def _take(self, event: Event) -> None:
        said = self._open
        if said is not None and said.absorb(event, self):
            self._after(event)
            return
        if said is not None:
            said.followed_by(event, self)
        if isinstance(event, RoundOver):
            self._close(out=event.reason == "out")
            self._round_over(event)
        else:
            self._close()
            self._start(event)
        self._after(event)

    def _after(self, event: Event) -> None:
        """What later events need to know of this one."""
        if isinstance(event, CardPlayed):
            self.last_seat, self.last_card = event.seat, event.card
            effects = self.effects.get(int(event.card), ())
            self.extra_seat = event.seat if "extra" in _kinds(effects) else -1
        elif isinstance(event, JackDropped):
            self.last_seat, self.last_card = event.seat, event.card
        elif isinstance(event, Cancelled | Passed | RoundStarted):
            self.extra_seat = -1
        elif isinstance(event, GuaranteeJoker):
            self.hoarder = event.seat
        elif isinstance(event, GuaranteeEnded):
            self.hoarder = None
        elif isinstance(event, FourInARow):
            assert self.last_card is not None
            self.fourth = (self.last_seat, self.last_card)
        elif isinstance(event, StarterTurned):
            self.last_seat, self.last_card = self.dealer, event.card
        if isinstance(event, RoundStarted):
            self.hoarder = None
            self.fourth = None
            self.dealer = event.dealer
        self._prev = event

    def _start(self, event: Event) -> None:
        if isinstance(event, RoundStarted):
            rounds = len(self.rules.schedule)
            of = f" of {rounds}" if rounds else ""
            each = count_words(event.hand_size, "card")
            text = f"Round {event.round}{of}: {self.says(event.dealer, 'deals')} {each} each"
            into: list[str] = []
            self.explain("goal", self.goal_rule(), True, into)
            pack = self.rules.pack_words(self.players)
            if pack != "one pack of 52 cards":
                twice = self.rules.packs_for(self.players) > 1 or self.rules.expanded_for(self.players)
                self.explain(
                    "pack", f"the pack: {pack}" + (", so a card may appear twice" if twice else ""), True, into
                )
            self.emit(text + rule_words(into) + ".", "deal")
        elif isinstance(event, StarterTurned):
            self._open = _Starter(self, event.card)
        elif isinstance(event, CardPlayed):
            self._open = _Play(self, event.seat, event.card, event.stack)
        elif isinstance(event, CardsDrawn) and event.reason == "draw":
            prev = self._prev
            self._open = _Draws(event, following=isinstance(prev, FollowMe) and prev.seat == event.seat)
        elif isinstance(event, Passed):
            prev = self._prev
            if event.seat == self.extra_seat:
                self.emit(f"{self.says(event.seat, 'plays')} no extra card.")
            elif isinstance(prev, CardsDrawn) and prev.seat == event.seat and self.rules.draw == "one_may_play":
                pass_verb = "pass" if self.names[event.seat] == YOU else "passes"
                self.emit(f"{self.says(event.seat, 'keeps')} the drawn card and {pass_verb}.")
            elif isinstance(prev, FollowMe) and prev.seat == event.seat:
                self.emit(f"{self.says(event.seat, 'has')} nothing to follow with and nothing to draw: the turn ends.")
            else:
                self._open = _Passes(event.seat, held=False)
        elif isinstance(event, PlayerSkipped) and self.hoarder is not None:
            self._open = _Passes(event.seat, held=True)
        elif isinstance(event, CardBuried):
            self._open = _Buries(event.seat, event.card, "buries")
        elif isinstance(event, JackDropped):
            self._open = _Buries(event.seat, event.card, "drops")
        elif self._consequence(event):
            # What a card did when its own line was already shown: a suit named, a 5's or 7's
            # choice after a person was asked, the fourth card's effect after the burials.
            fourth = self.fourth if isinstance(self._prev, CardBuried) else None
            seat, card = fourth or (self.last_seat, self.last_card)
            if card is None:
                self.emit(event_words(event, self.names))
                return
            self.fourth = None
            said = _Play(self, seat, card, (), after=True)
            self._open = said
            if not said.absorb(event, self):
                self._open = None
                self.emit(event_words(event, self.names))
        elif isinstance(event, GameOver):
            self.emit(fix_you(event.words(self.names)), "game_over")
        else:
            self.emit(self.standalone(event))

    def _consequence(self, event: Event) -> bool:
        return isinstance(
            event,
            SuitNamed
            | CardsSwapped
            | PlayerSkipped
            | DirectionReversed
            | ChainGrew
            | FollowMe
            | Cancelled
            | SuicideKing
            | GuaranteeJoker,
        ) or (isinstance(event, CardsDrawn) and event.reason in ("chosen", "penalty"))

    def standalone(self, event: Event) -> str:
        if isinstance(event, CardsDrawn) and event.reason == "chain":
            return f"{self.says(event.seat, 'draws')} the chain: {self.got(event.count, event.cards)}."
        return event_words(event, self.names)

    def source(self) -> str:
        """Where a forced draw comes from while the Guarantee Joker holds."""
        if self.hoarder is None:
            return ""
        return f" from {self.names[self.hoarder]}'s hand" if self.names[self.hoarder] != YOU else " from your hand"

    def _round_over(self, event: RoundOver) -> None:
        self.emit("", "blank")
        lines = round_lines(event, self.names, None, self.rules.score_keeping)
        into: list[str] = []
        clause = self.score_rule(event.reason)
        if clause:
            self.explain(f"score:{event.reason}", clause, True, into)
        head = lines[0]
        if into:
            head = head[:-1] + rule_words(into) + "."
        self.emit(head, "round_over")
        for line in lines[1:]:
            self.emit(line, "hand")
        self.emit("", "blank")


class _Open:
    """A line that later events may still add to."""

    out = False

    def absorb(self, event: Event, n: Narrator) -> bool:
        return False

    def followed_by(self, event: Event, n: Narrator) -> None:
        """The first event that does not belong to the line: what it shows of the line's end."""

    def render(self, n: Narrator, final: bool) -> str:
        raise NotImplementedError


class _Play(_Open):
    """A card laid and what it did: ``Bram plays 2♦: Cleo draws 2 cards and loses the turn``.

    With ``after``, the card was shown already (before a person chose a suit or a player, or before
    the burials of four in a row) and the line tells what followed."""

    def __init__(self, n: Narrator, seat: int, card: Card, stack: tuple[Card, ...] = (), after: bool = False) -> None:
        self.seat = seat
        self.card = card
        self.stack = stack
        self.after = after
        self.effects: tuple[str, ...] = n.effects.get(int(card), ())
        #: What the player did next (``names``, ``hearts ♥``), said after the play.
        self.actions: list[tuple[str, str]] = []
        #: What happened, after a colon; None marks where the players hit go.
        self.parts: list[str | None] = []
        self.hits: list[int] = []
        self.drew: dict[int, str] = {}
        self.skipped: list[int] = []
        self.direction = 0
        self.cancelled = False
        self.rules: list[tuple[str, str]] = []
        self.expect(n)
        top = n.last_card
        same = [parse_rank_or_none(r) for r in n.rules.same_number]
        differ = top is not None and top.rank != card.rank and top.suit != card.suit
        if differ and not after and top is not None and top.rank in same and card.rank in same:
            words = [pattern_words(r) for r in n.rules.same_number]
            self.rules.append(
                (
                    "same_number",
                    f"{and_list(words)} count as the same number: any {words[0]} plays on any {words[1]} and the "
                    "other way round",
                )
            )

    def expect(self, n: Narrator) -> None:
        """How many of each event the card's effects can bring (stacked cards act once each)."""
        effects = self.effects
        kinds = _kinds(effects)
        k = len(self.stack) + 1
        skip = (max(1, _count(effects, "skip")) * k if "skip" in kinds else 0) + (1 if "draw" in kinds else 0)
        if "ally" in kinds and n.rules.teams:
            skip = max(skip, n.players // 2 - 1)
        if n.players == 2:
            skip = min(skip, 1)
        self.skips = skip
        self.draws = 1 if kinds & {"draw", "penalty"} else 0
        self.reverses = k if "reverse" in kinds else 0
        self.suit = 1 if "wild" in kinds else 0
        self.chain = 1 if "chain" in kinds else 0
        self.chain_out = 1 if "chain" in kinds and n.rules.chain_survives_out else 0
        self.follow = 1 if "follow" in kinds else 0
        self.choose = 1 if "choose_draw" in kinds else 0
        self.swap = 1 if "swap" in kinds else 0
        self.suicide = 1 if "suicide" in kinds else 0
        self.combo = 1 if n.rules.guarantee_joker and int(self.card) == GJ_ID else 0
        self.four = 1 if n.rules.four_in_a_row else 0

    def hit(self, seat: int) -> None:
        if None not in self.parts:
            self.parts.append(None)
        if seat not in self.hits:
            self.hits.append(seat)

    def absorb(self, event: Event, n: Narrator) -> bool:
        if isinstance(event, SuitNamed):
            if not (self.suit and event.seat == self.seat):
                return False
            self.suit = 0
            self.actions.append(("names", f"{event.suit.name.lower()} {event.suit.symbol}"))
        elif isinstance(event, Cancelled):
            if self.cancelled or self.after or event.card != self.card:
                return False
            self.cancelled = True
            wild = self.suit
            self.expect_nothing()
            self.suit = wild
            cancel = " or ".join(article(pattern_words(p)) for p, e in n.rules.effects if "cancel" in _kinds(e))
            self.parts.append(
                f"on {cancel or 'the card before'} it " + ("only names a suit" if wild else "has no effect")
            )
        elif isinstance(event, ChainGrew):
            if not self.chain:
                return False
            self.chain = 0
            self.parts.append(f"the chain stands at {count_words(event.total, 'card')}")
        elif isinstance(event, FollowMe):
            if not (self.follow and event.seat == self.seat):
                return False
            self.follow = 0
            self.actions.append(("must follow", "it"))
        elif isinstance(event, DirectionReversed):
            if not self.reverses:
                return False
            self.reverses -= 1
            if n.players == 2 and n.rules.two_player_extra_turn:
                if ("plays", "again") not in self.actions:
                    self.actions.append(("plays", "again"))
            elif self.direction == 0:
                self.parts.append("")
            self.direction = event.direction
        elif isinstance(event, PlayerSkipped):
            if not self.skips:
                return False
            self.skips -= 1
            self.skipped.append(event.seat)
            self.hit(event.seat)
        elif isinstance(event, CardsDrawn):
            return self.drawn(event, n)
        elif isinstance(event, CardsSwapped):
            if not (self.swap and event.seat == self.seat):
                return False
            self.swap = 0
            detail = ""
            if event.gave is not None and event.got is not None:
                gave, got = (event.gave, event.got) if n.viewer == event.seat else (event.got, event.gave)
                detail = f" (you give {gave.pretty()} and get {got.pretty()})"
            self.actions.append(("swaps", f"a random card with {n.obj(event.target)}{detail}"))
        elif isinstance(event, Reshuffled):
            if not (self.draws or self.choose or self.chain_out):
                return False
            self.parts.append(
                f"the stock runs out, and the discard pile ({count_words(event.count, 'card')}) is shuffled into a "
                "new one"
            )
        elif isinstance(event, FourInARow):
            if not self.four:
                return False
            self.four = 0
            who = "you" if n.names[event.seat] == YOU else n.names[event.seat]
            self.parts.append(f"four in a row! Everyone, starting with {who}, buries a card under the discard pile")
            together = and_list([pattern_words(r) for r in n.rules.same_number])
            same = f" ({together} counting as one)" if len(n.rules.same_number) > 1 else ""
            self.rules.append(
                (
                    "four",
                    f"when a fourth card of one number lands on three of that number{same}, every player buries a "
                    "card of their choice, and the first whose hand empties is out; then the card acts as usual",
                )
            )
        elif isinstance(event, GuaranteeJoker):
            if not self.combo:
                return False
            self.combo = 0
            self.parts.append(
                f"the Guarantee Joker! {n.says(event.seat, 'takes', start=False)} the whole draw pile "
                f"({count_words(event.count, 'card')})"
            )
            self.rules.append(
                (
                    "guarantee",
                    "GJ laid straight on the other joker by another player makes that joker's player take the draw "
                    "pile; until the piles hold 3 cards per player again, a player who cannot match is skipped, and "
                    "every forced draw comes at random from that hand",
                )
            )
        elif isinstance(event, GuaranteeEnded):
            self.parts.append("the Guarantee Joker's hold ends: draws come from the stock again")
        elif isinstance(event, SuicideKing):
            if not self.suicide:
                return False
            self.suicide = 0
            dealer = n.says(event.seat, "deals", start=False)
            text = f"the Suicide King! Every other card is shuffled together and {dealer} new hands"
            mine = event.hands[n.viewer] if n.viewer is not None else None
            if mine is not None:
                text += f" (your new hand: {cards_text(sorted_hand(mine))})"
            self.parts.append(text)
        else:
            return False
        return True

    def followed_by(self, event: Event, n: Narrator) -> None:
        queen = "jack_drop" in _kinds(self.effects) and not (self.cancelled or self.after) and self.four
        if queen and not isinstance(event, JackDropped | RoundOver | FourInARow):
            self.parts.append("nobody holds a jack")

    def expect_nothing(self) -> None:
        self.skips = self.draws = self.reverses = self.suit = self.chain = self.chain_out = 0
        self.follow = self.choose = self.swap = self.suicide = 0

    def drawn(self, event: CardsDrawn, n: Narrator) -> bool:
        what = n.got(event.count, event.cards)
        if event.reason == "penalty" and self.draws:
            self.draws = 0
            self.drew[event.seat] = what
            self.hit(event.seat)
        elif event.reason == "chosen" and self.choose:
            self.choose = 0
            who = "to draw" if event.seat == self.seat else f"{n.obj(event.seat)} to draw"
            self.actions.append(("chooses", f"{who} {what}"))
        elif event.reason == "chain" and self.chain_out and self.chain:
            # Only a player going out on a chain card makes the next draw it at once (no chain grew).
            self.chain_out = 0
            self.parts.append(f"{n.says(event.seat, 'draws', start=False)} the chain: {what}")
            self.rules.append(
                ("chain_out", f"going out on {article(n.chain_cards())} still makes the next player draw the chain")
            )
        else:
            return False
        return True

    # ----- words ----------------------------------------------------------------------------

    def head(self, n: Narrator) -> str:
        you = n.names[self.seat] == YOU
        actions = [(you_verb(verb) if you and not verb.startswith("must") else verb, obj) for verb, obj in self.actions]
        if self.after:
            if not actions:
                whose = "Your" if you else f"{n.names[self.seat]}'s"
                return f"{whose} {self.card.pretty()} acts"
            verb, obj = actions.pop(0)
            text = f"{n.names[self.seat]} {verb} {obj}"
        elif self.stack:
            laid = and_list([c.pretty() for c in (*self.stack, self.card)])
            text = f"{n.says(self.seat, 'stacks')} {laid} ({self.card.pretty()} on top)"
        else:
            text = f"{n.says(self.seat, 'plays')} {self.card.pretty()}"
        return text + "".join(f" and {verb} {obj}" for verb, obj in actions)

    def hits_words(self, n: Narrator) -> str:
        parts = []
        left = []
        for seat in self.hits:
            if seat in self.drew:
                text = f"{n.says(seat, 'draws', start=False)} {self.drew[seat]}"
                if seat in self.skipped:
                    text += f" and {'lose' if n.names[seat] == YOU else 'loses'} the turn"
                parts.append(text)
            else:
                left.append(seat)
        if left:
            parts.append(n.group(left, "is skipped", "are skipped", start=False))
        return "; ".join(parts)

    def direction_words(self, n: Narrator) -> str:
        return f"play now goes {direction_words(self.direction)}"

    def body(self, n: Narrator) -> list[str]:
        parts = []
        for part in self.parts:
            if part is None:
                parts.append(self.hits_words(n))
            elif part == "":
                parts.append(self.direction_words(n))
            else:
                parts.append(part)
        return parts

    def explanations(self, n: Narrator, final: bool) -> list[str]:
        into: list[str] = []
        for key, text in self.rules:
            n.explain(key, text, final, into)
        if not (self.after or self.cancelled or self.out):
            n.card_rule(self.card, final, into)
        return into

    def render(self, n: Narrator, final: bool) -> str:
        text = self.head(n)
        body = self.body(n)
        if body:
            text += ": " + "; ".join(body)
        into = self.explanations(n, final)
        if into:
            text += rule_words(into)
        return text + "."


class _Starter(_Play):
    """The starter, any card buried or turned onto it, and what it does as if the dealer had played it."""

    def __init__(self, n: Narrator, card: Card) -> None:
        self.steps: list[tuple[str, Card]] = [("turned", card)]
        super().__init__(n, n.dealer, card)

    def expect(self, n: Narrator) -> None:
        starting = set(n.rules.starter_effects)
        self.effects = tuple(e for e in n.effects.get(int(self.card), ()) if _parts(e)[0] in starting)
        super().expect(n)
        self.four = self.combo = 0

    def absorb(self, event: Event, n: Narrator) -> bool:
        if isinstance(event, StarterTurned | StarterBuried) and len(self.parts) == 0 and not self.actions:
            self.steps.append(("turned" if isinstance(event, StarterTurned) else "buried", event.card))
            if isinstance(event, StarterTurned):
                self.card = event.card
                self.expect(n)
            return True
        if isinstance(event, SuitNamed) and self.suit:
            self.suit = 0
            dealer = (
                "you, the dealer, name" if n.names[self.seat] == YOU else f"the dealer, {n.names[self.seat]}, names"
            )
            self.parts.append(f"{dealer} {event.suit.name.lower()} {event.suit.symbol}")
            return True
        return super().absorb(event, n)

    def head(self, n: Narrator) -> str:
        text = ""
        onto: list[str] = []
        for i, (step, card) in enumerate(self.steps):
            if step == "buried":
                text += ", buried in the middle of the stock"
            elif not text:
                text = f"The starter is {card.pretty()}"
            elif self.steps[i - 1][0] == "buried":
                text += f"; the next card, {card.pretty()}, is the starter"
            else:
                onto.append(card.pretty())
        if onto:
            text += f"; the dealer turns {and_list(onto)} onto it"
        return text

    def explanations(self, n: Narrator, final: bool) -> list[str]:
        into: list[str] = []
        rules = n.rules
        if any(step == "buried" for step, _ in self.steps):
            cards = " or ".join(article(pattern_words(p)) for p in rules.starter_bury)
            n.explain(
                "starter_bury",
                f"a starter {cards.removeprefix('a ').removeprefix('an ')} is buried and the next card turned",
                final,
                into,
            )
        if sum(step == "turned" for step, _ in self.steps) > 1 and rules.starter_turn_over:
            cards = " or ".join(pattern_words(p) for p in rules.starter_turn_over)
            n.explain(
                "starter_turn",
                f"while the starter is {article(cards)}, the dealer turns another card onto it",
                final,
                into,
            )
        if self.effects:
            text = "a starter with an effect acts as if the dealer had played it"
            if "reverse" in _kinds(self.effects) and rules.starter_reverse_dealer_first:
                text += ", except that after a starter reverse the dealer plays first"
            n.explain("starter_effect", text, final, into)
            n.card_rule(self.card, final, into)
        return into


class _Draws(_Open):
    """One player's draws in a row: ``Cleo draws 7 cards``."""

    def __init__(self, event: CardsDrawn, following: bool = False) -> None:
        self.seat = event.seat
        self.count = event.count
        self.cards: list[Card] = list(event.cards or ())
        self.following = following
        #: The turn went on to someone else: the card drawn to follow, or to play at once, did not play.
        self.unplayed = False

    def followed_by(self, event: Event, n: Narrator) -> None:
        mine = isinstance(event, CardPlayed | Passed) and event.seat == self.seat
        if not mine and (self.following or n.rules.draw == "one_may_play"):
            self.unplayed = True

    def absorb(self, event: Event, n: Narrator) -> bool:
        if isinstance(event, CardsDrawn) and event.reason == "draw" and event.seat == self.seat:
            self.count += event.count
            self.cards.extend(event.cards or ())
            return True
        return False

    def render(self, n: Narrator, final: bool) -> str:
        text = f"{n.says(self.seat, 'draws')} {count_words(self.count, 'card')}{n.cards(self.cards)}"
        if self.unplayed:
            text += f" and cannot {'follow with' if self.following else 'play'} it"
        into: list[str] = []
        if not self.following:
            n.explain("draw", n.draw_rule(), final, into)
        return text + rule_words(into) + "."


class _Passes(_Open):
    """Players passing in a row (nothing to play or draw), or skipped under the Guarantee Joker's hold."""

    def __init__(self, seat: int, held: bool) -> None:
        self.seats = [seat]
        self.held = held

    def absorb(self, event: Event, n: Narrator) -> bool:
        if self.held and isinstance(event, PlayerSkipped) and n.hoarder is not None:
            self.seats.append(event.seat)
            return True
        if not self.held and isinstance(event, Passed) and event.seat not in self.seats:
            self.seats.append(event.seat)
            return True
        return False

    def render(self, n: Narrator, final: bool) -> str:
        into: list[str] = []
        if self.held:
            text = n.group(self.seats, "cannot match and is skipped", "cannot match and are skipped")
            n.explain(
                "held",
                "while the Guarantee Joker holds, a player who cannot match is skipped instead of drawing",
                final,
                into,
            )
        else:
            text = n.group(self.seats, "cannot play or draw, and passes", "cannot play or draw, and pass")
            n.explain("pass", n.pass_rule(), final, into)
        return text + rule_words(into) + "."


class _Buries(_Open):
    """Everyone's burials after four in a row, or the jacks a queen makes fall: ``Ada buries 5♣, Bram 9♦``."""

    def __init__(self, seat: int, card: Card, verb: str) -> None:
        self.verb = verb
        self.items: list[tuple[int, list[Card]]] = [(seat, [card])]
        self.parts: list[str] = []

    def absorb(self, event: Event, n: Narrator) -> bool:
        if isinstance(event, CardBuried if self.verb == "buries" else JackDropped) and not self.parts:
            seat, cards = self.items[-1]
            if seat == event.seat:
                cards.append(event.card)
            else:
                self.items.append((event.seat, [event.card]))
            return True
        if isinstance(event, GuaranteeEnded):
            self.parts.append("the Guarantee Joker's hold ends: draws come from the stock again")
            return True
        if isinstance(event, FourInARow) and self.verb == "drops":
            self.parts.append("four in a row! Everyone buries a card under the discard pile")
            return True
        return False

    def render(self, n: Narrator, final: bool) -> str:
        words = []
        for i, (seat, cards) in enumerate(self.items):
            laid = and_list([c.pretty() for c in cards])
            words.append(f"{n.says(seat, self.verb)} {laid}" if i == 0 else f"{n.obj(seat)} {laid}")
        text = ", ".join(words)
        if self.verb == "buries":
            text += " under the discard pile"
        if self.parts:
            text += ": " + "; ".join(self.parts)
        return text + "."
