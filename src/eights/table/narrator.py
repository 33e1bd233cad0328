"""What happened, told by a ``Narrator``, one per seat (or spectator) and front end: it groups
repeats (one player's draws in a row are one line), ties each card to what it did and says each rule in
one short clause the first time it acts in the match."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from eights.bots import Hint
from eights.cards import Card
from eights.engine import Event, View, redact
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
    RoundOver,
    RoundStarted,
    StarterTurned,
    SuicideKing,
    SuitNamed,
)
from eights.rules import RuleSet
from eights.rules.describe import effect_words, parse_rank_or_none, pattern_words
from eights.rules.ruleset import card_pattern_matches
from eights.table.lines import (
    BuriesLine,
    DrawsLine,
    Line,
    OpenLine,
    PassesLine,
    PlayLine,
    StarterLine,
    effect_kinds,
    effect_parts,
    rule_words,
    you_verb,
)
from eights.table.phrases import action_words, event_words, fix_you, hint_words, round_lines
from eights.table.session import YOU
from eights.words import and_list, article, count_words, or_list

# ----- the narrator: a match's events as lines a new player can follow -------------------------


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
        self._open: OpenLine | None = None
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
        patterns = [p for p, effects in self.rules.effects if "chain" in effect_kinds(effects)]
        return " or ".join(pattern_words(p) for p in patterns) or "chain card"

    def effect_clause(self, effects: tuple[str, ...]) -> str:
        """What cards with ``effects`` do, in one clause: ``a Q skips the next player``."""
        phrases = []
        two = self.players == 2 and self.rules.two_player_extra_turn
        allied = self.rules.teams and "ally" in effect_kinds(effects)
        for effect in effects:
            kind, n = effect_parts(effect)
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
                wild = " or ".join(
                    article(pattern_words(p)) for p, e in self.rules.effects if "wild" in effect_kinds(e)
                )
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
            if not effect_kinds(effects) & wanted:
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
            self.extra_seat = event.seat if "extra" in effect_kinds(effects) else -1
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
            self._open = StarterLine(self, event.card)
        elif isinstance(event, CardPlayed):
            self._open = PlayLine(self, event.seat, event.card, event.stack)
        elif isinstance(event, CardsDrawn) and event.reason == "draw":
            prev = self._prev
            self._open = DrawsLine(event, following=isinstance(prev, FollowMe) and prev.seat == event.seat)
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
                self._open = PassesLine(event.seat, held=False)
        elif isinstance(event, PlayerSkipped) and self.hoarder is not None:
            self._open = PassesLine(event.seat, held=True)
        elif isinstance(event, CardBuried):
            self._open = BuriesLine(event.seat, event.card, "buries")
        elif isinstance(event, JackDropped):
            self._open = BuriesLine(event.seat, event.card, "drops")
        elif self._consequence(event):
            # What a card did when its own line was already shown: a suit named, a 5's or 7's
            # choice after a person was asked, the fourth card's effect after the burials.
            fourth = self.fourth if isinstance(self._prev, CardBuried) else None
            seat, card = fourth or (self.last_seat, self.last_card)
            if card is None:
                self.emit(event_words(event, self.names))
                return
            self.fourth = None
            said = PlayLine(self, seat, card, (), after=True)
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
