"""Why an action is illegal, in a player's words: the English of the checked door (``Game.play``), apart
from the game's rules of play."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from eights.cards import RANKS, Card, Suit, format_cards, rank_text
from eights.engine import errors
from eights.engine.actions import Action, Bury, ChoosePlayer, Draw, NameSuit, Play
from eights.engine.phases import (
    BURY_PHASE,
    CHOOSE_DRAW_PHASE,
    CHOOSE_SWAP_PHASE,
    DRAWN_PHASE,
    EXTRA_PHASE,
    FOLLOW_DRAWN_PHASE,
    FOLLOW_PHASE,
    JACK_PHASE,
    SUIT_PHASE,
)
from eights.engine.tables import EXACT, NAMED

if TYPE_CHECKING:
    from eights.engine.game import Game


def explain(game: Game, action: Action, legal: list[Action]) -> errors.IllegalAction:
    """Why ``action`` is not one of ``legal`` in ``game``, as the error the checked door raises: the rule it
    breaks, in a player's words, and the legal actions."""
    listed = ", ".join(str(a) for a in legal)
    acting = game.to_act
    hand = game.hands[acting]
    tail = f" Legal now: {listed}."
    phase = game.phase
    if phase == JACK_PHASE:
        return errors.MustDropJacks(f"a queen was played: seat {acting} drops its jacks one at a time.{tail}")
    if phase == BURY_PHASE:
        if isinstance(action, Bury):
            return errors.CardNotInHand(f"you do not hold {action.card} to bury.{tail}")
        return errors.MustBury(f"four in a row: seat {acting} buries a card of its choice.{tail}")
    if phase == SUIT_PHASE and not isinstance(action, NameSuit):
        return errors.MustNameSuit(f"a wild was played: name a suit first (suit C, D, H or S).{tail}")
    if isinstance(action, NameSuit):
        return errors.MustNameSuit(f"there is no wild to name a suit for.{tail}")
    if phase in (CHOOSE_DRAW_PHASE, CHOOSE_SWAP_PHASE):
        who = "any player" if phase == CHOOSE_DRAW_PHASE else "another player"
        return errors.MustChoosePlayer(f"choose {who} for the card just played.{tail}")
    if isinstance(action, ChoosePlayer | Bury):
        return errors.IllegalAction(f"{action} is not a choice anyone faces now.{tail}")
    if isinstance(action, Play):
        missing = Counter(action.cards) - Counter(hand)
        if missing:
            card = next(iter(missing))
            return errors.CardNotInHand(
                f"you do not hold {card} (your hand: {format_cards(sorted(hand)) or 'empty'}).{tail}"
            )
        if action.stack and not game.t.stacking:
            return errors.BadStack(f"stacking is off in these rules: lay one card at a time.{tail}")
        if action.stack and any(RANKS[c] != RANKS[action.card] for c in action.stack):
            return errors.BadStack(f"stacked cards must all share the top card's rank.{tail}")
        if phase == FOLLOW_DRAWN_PHASE:
            return errors.MustPlayDrawn(f"you drew {Card(game.drawn)}, which follows: you must play it.{tail}")
        if phase == DRAWN_PHASE:
            return errors.MustPlayDrawn(
                f"after drawing you may play only the card you drew, {Card(game.drawn)}, or pass.{tail}"
            )
        if phase == FOLLOW_PHASE:
            return errors.MustFollow(
                f"{action.card} does not follow {game.top}: lay another {rank_text(game.follow_rank)}, "
                f"or a follow-me card ({Suit(game.active_suit).name.lower()} or an 8).{tail}"
            )
        if game.chain:
            return errors.MustAnswerChain(
                f"a chain of 2s is pending ({game.chain} cards): play a 2 or draw the chain.{tail}"
            )
        return errors.CardNotPlayable(f"{action.card} does not match: {matching_words(game)}.{tail}")
    if isinstance(action, Draw):
        if phase in (DRAWN_PHASE, FOLLOW_DRAWN_PHASE):
            return errors.MustPlayDrawn(f"you have drawn this turn: play the drawn card or pass.{tail}")
        if phase == EXTRA_PHASE:
            return errors.CannotDraw(f"the 10's extra card is played from hand, never drawn.{tail}")
        if game.hoarder >= 0:
            return errors.CannotDraw(f"under the Guarantee Joker's hold no one draws at will.{tail}")
        if not game.can_draw():
            return errors.CannotDraw(f"the stock is empty and cannot be refilled.{tail}")
        if phase == FOLLOW_PHASE:
            return errors.MustFollow(f"you hold a follow-me card and must play one.{tail}")
        if game.rules.draw == "up_to_n":
            return errors.CannotDraw(f"you have drawn {game.draws} cards, the limit this turn.{tail}")
        return errors.MustPlay(f"you hold a playable card: you may draw only when you cannot play.{tail}")
    return errors.CannotPass(f"you can still play or draw, so you cannot pass.{tail}")


def matching_words(game: Game) -> str:
    """What the next card must match, in words."""
    suit = Suit(game.active_suit).name.lower()
    if game.match_rank == NAMED:
        return f"a wild named {suit}: play a {suit[:-1]} or a wild"
    rank = game.match_rank - EXACT if game.match_rank > EXACT else game.match_rank
    return f"the top card is {game.top}: play a {suit[:-1]}, a {rank_text(rank)} or a wild"
