"""The lines a narrator tells (``eights.table.narrator``): one ``Line`` each, and the lines still open
to the events that follow them (a card laid and what it did, the starter, a player's draws, passes and
burials), each saying its rules in one short clause the first time they act in the match."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from eights.cards import GJ_ID, Card
from eights.engine import Event
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
    GuaranteeEnded,
    GuaranteeJoker,
    JackDropped,
    Passed,
    PlayerSkipped,
    Reshuffled,
    RoundOver,
    StarterBuried,
    StarterTurned,
    SuicideKing,
    SuitNamed,
)
from eights.rules.describe import parse_rank_or_none, pattern_words
from eights.table.phrases import YOU_VERBS, cards_text, direction_words, sorted_hand
from eights.table.session import YOU
from eights.words import and_list, article, count_words

if TYPE_CHECKING:
    from eights.table.narrator import Narrator


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
    if verb in YOU_VERBS:
        return YOU_VERBS[verb]
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


def effect_parts(effect: str) -> tuple[str, int]:
    kind, _, count = effect.partition(":")
    return kind, int(count) if count.isdigit() else 0


def effect_kinds(effects: Sequence[str]) -> set[str]:
    return {effect_parts(e)[0] for e in effects}


def _count(effects: Sequence[str], kind: str) -> int:
    return next((n for k, n in map(effect_parts, effects) if k == kind), 0)


class OpenLine:
    """A line that later events may still add to."""

    out = False

    def absorb(self, event: Event, n: Narrator) -> bool:
        return False

    def followed_by(self, event: Event, n: Narrator) -> None:
        """The first event that does not belong to the line: what it shows of the line's end."""

    def render(self, n: Narrator, final: bool) -> str:
        raise NotImplementedError


class PlayLine(OpenLine):
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
        kinds = effect_kinds(effects)
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
            cancel = " or ".join(article(pattern_words(p)) for p, e in n.rules.effects if "cancel" in effect_kinds(e))
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
        queen = "jack_drop" in effect_kinds(self.effects) and not (self.cancelled or self.after) and self.four
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


class StarterLine(PlayLine):
    """The starter, any card buried or turned onto it, and what it does as if the dealer had played it."""

    def __init__(self, n: Narrator, card: Card) -> None:
        self.steps: list[tuple[str, Card]] = [("turned", card)]
        super().__init__(n, n.dealer, card)

    def expect(self, n: Narrator) -> None:
        starting = set(n.rules.starter_effects)
        self.effects = tuple(e for e in n.effects.get(int(self.card), ()) if effect_parts(e)[0] in starting)
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
            if "reverse" in effect_kinds(self.effects) and rules.starter_reverse_dealer_first:
                text += ", except that after a starter reverse the dealer plays first"
            n.explain("starter_effect", text, final, into)
            n.card_rule(self.card, final, into)
        return into


class DrawsLine(OpenLine):
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


class PassesLine(OpenLine):
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


class BuriesLine(OpenLine):
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
