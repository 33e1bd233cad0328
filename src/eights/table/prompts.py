"""What a seat is asked and shown of its turn, for every front end: the prompt (with or without the
terminal's keys), the state's lines and the header; and ``parse_move``, a move typed by a person."""

from __future__ import annotations

from collections.abc import Sequence

from eights.cards import rank_text
from eights.engine import Action, ActionError, Draw, Pass, Play, View, parse_action
from eights.rules.describe import wild_cards
from eights.table.phrases import (
    card_text,
    cards_text,
    chain_card_words,
    direction_words,
    duty_lines,
    order_line,
    public_field,
    seat_words,
    sorted_hand,
    suit_words,
    top_words,
)
from eights.table.session import SPEED_WORDS, Session
from eights.words import article, count_words, or_list


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
        count = public_field(view, "choose_count")
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
        return f"Your turn: play {match_words(view)[0]}{stack}{others}."
    if can_draw:
        return f"{match_words(view)[1]}: {draw}."
    if view.guarantee_hoarder is not None:
        return f"{match_words(view)[1]}, so the Guarantee Joker's hold skips you: pass{key('p')}."
    return f"Nothing to play and nothing to draw: pass{key('p')}."


def match_words(view: View) -> tuple[str, str]:
    """What plays on the top card now, and what a hand without it lacks: ``a card that matches 7♠`` and
    ``No card matches 7♠``. After a wild named a suit only that suit or a wild plays, whatever the top card:
    ``a ♥ card (hearts were named) or an 8`` and ``No ♥ card (hearts were named) and no 8``."""
    if not view.suit_named or view.active_suit is None:
        top = card_text(view.top)
        return f"a card that matches {top}", f"No card matches {top}"
    suit = view.active_suit
    named = f"{suit.symbol} card ({suit.name.lower()} were named)"
    wilds = wild_cards(view.rules)
    if not wilds:
        return f"a {named}", f"No {named}"
    either = or_list([w if w.startswith("the ") else article(w) for w in wilds])
    return f"a {named} or {either}", f"No {named} and no {or_list([w.removeprefix('the ') for w in wilds])}"


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
