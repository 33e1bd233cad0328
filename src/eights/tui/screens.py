"""The app's screens: the new-game setup, the table, the dialogs the rules ask for,
the hot-seat pass screen, a round's end, the match's end and the rules."""

from __future__ import annotations

import threading
import time
from contextlib import suppress
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from eights.bots import LEVELS
from eights.cards import Card
from eights.describe import describe, heading
from eights.engine import Action, IllegalAction, NameSuit, Play, View, redact
from eights.engine.actions import PLAY, Bury, ChoosePlayer
from eights.engine.events import RoundOver, RoundStarted
from eights.rules import PRESETS, RulesError, RuleSet, load_preset, option_names
from eights.tui.narrate import (
    card_style,
    cards_text,
    count_words,
    event_words,
    event_words_round,
    hint_words,
    pretty_cards,
    prompt_words,
    result_lines,
    round_lines,
    sorted_hand,
    styled,
)
from eights.tui.session import HUMAN, SPEED_WORDS, SPEEDS, PlayConfig, Session, UsageError
from eights.tui.widgets import NUMBER_KEYS, GameLog, HandView, PileView, SeatsPanel, StatusPanel

if TYPE_CHECKING:
    from eights.tui.app import EightsApp


# ----- dialogs: only the legal actions are offered --------------------------------------------------------


class ChoiceDialog(ModalScreen[Action]):
    """A choice the rules ask for now. One button per legal action; number keys pick too."""

    def __init__(self, title: str, explanation: str, options: list[tuple[Text | str, Action]]) -> None:
        super().__init__()
        self.title_text = title
        self.explanation = explanation
        self.options = options
        #: Extra keys (a letter) for some options.
        self.keys: dict[str, Action] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(styled(self.explanation), id="dialog-text")
            with VerticalScroll(id="dialog-choices"):
                for i, (label, _) in enumerate(self.options):
                    key = NUMBER_KEYS[i] if i < 9 else ""
                    text = Text(f"{key}. " if key else "")
                    text.append_text(label if isinstance(label, Text) else styled(label))
                    yield Button(text, id=f"choice-{i}", classes="choice", compact=True)

    @on(Button.Pressed, ".choice")
    def chose(self, event: Button.Pressed) -> None:
        assert event.button.id is not None
        self.dismiss(self.options[int(event.button.id.removeprefix("choice-"))][1])

    def on_key(self, event: Any) -> None:
        character = (event.character or "").lower()
        if character in self.keys:
            event.stop()
            self.dismiss(self.keys[character])
        elif character.isdigit() and 1 <= int(character) <= min(9, len(self.options)):
            event.stop()
            self.dismiss(self.options[int(character) - 1][1])


class SuitDialog(ChoiceDialog):
    """Name a suit after a wild (keys C, D, H, S)."""

    def __init__(self, view: View) -> None:
        options: list[tuple[Text | str, Action]] = []
        for action in view.legal:
            if isinstance(action, NameSuit):
                suit = action.suit
                options.append((Text(f"{suit.symbol} {suit.name.capitalize()}", card_style(Card.of(1, suit))), action))
        super().__init__(
            "Name a suit",
            f"You played {view.top.pretty()}: the next player must follow the suit you name (or play a wild). "
            "Keys: C, D, H, S.",
            options,
        )
        self.keys = {a.suit.letter.lower(): a for _, a in options if isinstance(a, NameSuit)}


class PlayerDialog(ChoiceDialog):
    """Choose a player for a 5 (anyone draws) or a 7 (swap a random card with an opponent)."""

    def __init__(self, view: View, session: Session) -> None:
        options: list[tuple[Text | str, Action]] = []
        for action in view.legal:
            if isinstance(action, ChoosePlayer):
                seat = action.seat
                who = "yourself" if seat == view.seat else session.label(seat)
                options.append((f"{who}: {count_words(view.hand_counts[seat], 'card')}", action))
        if view.phase == "choose_draw":
            title = "Who draws?"
            text = f"You played {view.top.pretty()}: choose any player, yourself included, to draw."
        else:
            title = "Swap with whom?"
            text = (
                f"You played {view.top.pretty()}: choose an opponent; you each take one random card from the "
                "other's hand, unseen."
            )
        super().__init__(title, text, options)


class JackDialog(ChoiceDialog):
    """A queen was played: drop your jacks one at a time; pick the next one."""

    def __init__(self, view: View) -> None:
        options: list[tuple[Text | str, Action]] = [
            (f"drop {a.card.pretty()}", a) for a in view.legal if isinstance(a, Play)
        ]
        super().__init__(
            "Drop your jacks",
            "A queen was played: every player drops all their jacks, in turn order. Pick which jack you drop next; "
            "the last jack dropped is the card the next player must match.",
            options,
        )


class BuryDialog(ChoiceDialog):
    """Four in a row: bury one card of your choice under the discard pile."""

    def __init__(self, view: View) -> None:
        buries = {a.card: a for a in view.legal if isinstance(a, Bury)}
        options: list[tuple[Text | str, Action]] = [
            (f"bury {card.pretty()}", buries[card]) for card in sorted_hand(buries)
        ]
        super().__init__(
            "Four in a row: bury a card",
            "Four of one number in a row! Starting with the player who laid the fourth, everyone puts one card of "
            "their choice under the discard pile; the first whose hand empties is out and wins.",
            options,
        )


# ----- screens between turns ------------------------------------------------------------------------------


class PassDeviceScreen(Screen[None]):
    """Hot-seat: the hands are hidden while the device passes to the next person.

    A key pressed to hurry the computers along, or held down, must not show the next person's hand to
    whoever is at the keyboard: the screen ignores every key until the keyboard has been quiet for
    ``ARM_DELAY`` seconds (each ignored key starts the wait again), and then only a key pressed after
    that counts: keys typed earlier but delivered late (a busy machine) are ignored by their time stamp.
    Only Enter (or a click on the button, which stays disabled until then) shows the hand.
    """

    #: Seconds of quiet before the screen takes a key: longer than the pause before a held key starts
    #: repeating (660 ms by default under X11, 500 ms on Windows and GNOME), so a held Enter never gets through.
    ARM_DELAY = 1.0
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", "Show my hand")]

    #: When the screen began taking keys, on Textual's event clock; None while it ignores them.
    armed_at: reactive[float | None] = reactive(None, init=False)

    def __init__(self, name: str) -> None:
        super().__init__()
        self.person = name
        self._arming: Timer | None = None

    @property
    def armed(self) -> bool:
        return self.armed_at is not None

    def compose(self) -> ComposeResult:
        with Vertical(id="pass"):
            yield Label(f"Pass the device to {self.person}", id="pass-title")
            yield Static(self.words(), id="pass-text")
            yield Button(f"I am {self.person}: show my hand", id="ready", variant="primary", disabled=True)
        yield Footer()

    def words(self) -> str:
        if self.armed:
            return (
                f"The hands are hidden. {self.person}: press Enter (or click the button) when you are at the "
                "keyboard and the others cannot see the screen."
            )
        return (
            f"The hands are hidden. Pass the device to {self.person}, who presses Enter when the others cannot "
            "see the screen."
        )

    def on_mount(self) -> None:
        self.disarm()

    def disarm(self) -> None:
        """Ignore keys until the keyboard has been quiet for ``ARM_DELAY`` seconds."""
        self.armed_at = None
        if self._arming is not None:
            self._arming.stop()
        self._arming = self.set_timer(self.ARM_DELAY, self.arm)

    def arm(self) -> None:
        self.armed_at = Message().time  # now, on the clock Textual stamps every key with

    def watch_armed_at(self) -> None:
        self.query_one("#pass-text", Static).update(self.words())
        self.query_one("#ready", Button).disabled = not self.armed
        self.refresh_bindings()

    def on_key(self, event: events.Key) -> None:
        if self.armed_at is None or event.time < self.armed_at:
            # Typed before the screen was ready (or while it waited): not meant for it.
            event.stop()
            event.prevent_default()
            self.disarm()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.armed if action == "ready" else True

    @on(Button.Pressed, "#ready")
    def action_ready(self) -> None:
        if self.armed:
            self.dismiss(None)


def score_table(names: tuple[str, ...], event: RoundOver, scored: bool) -> Text:
    """Every hand at a round's end, with points and running totals."""
    out = Text()
    width = max(len(n) for n in names) + 2
    out.append(f"{'':<{width + 1}}", "bold")
    if scored:
        out.append(f"{'points':>8}{'total':>8}   ", "bold")
    out.append("hand\n", "bold")
    for seat, hand in enumerate(event.hands):
        mark = "★ " if seat in event.winners else "  "
        out.append(f"{mark}{names[seat]:<{width - 2}} ", "bold" if seat in event.winners else "")
        if scored:
            out.append(f"{event.points[seat]:>+8}{event.totals[seat]:>8}   ")
        out.append_text(styled(cards_text(sorted_hand(hand))))
        out.append("\n")
    return out


class RoundEndScreen(ModalScreen[None]):
    """A round's end: every hand shown, points, running totals, the next deal."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "next", "Next round")]

    def __init__(self, session: Session, event: RoundOver, following: RoundStarted | None) -> None:
        super().__init__()
        self.session = session
        self.event = event
        self.following = following

    def compose(self) -> ComposeResult:
        names = self.session.names
        scored = self.session.rules.score_keeping
        lines = round_lines(self.event, names, self.following, scored)
        with VerticalScroll(id="round-end"):
            yield Label(lines[0], id="round-title")
            yield Static(score_table(names, self.event, scored), id="round-table")
            if self.following is not None:
                yield Static(lines[-1], id="round-next")
            yield Button("Next round (Enter)", id="next", variant="primary", compact=True)

    @on(Button.Pressed, "#next")
    def action_next(self) -> None:
        self.dismiss(None)


class MatchEndScreen(Screen[str]):
    """The match's end: the final table, the winners; play again, a new game, or quit.

    Enter is not a key here (and no button has the focus, only the scrolling table): an Enter
    meant for the last card must not deal a new game over the final table.
    """

    AUTO_FOCUS = "#match-end"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('again')", "Play again"),
        Binding("n", "choose('new')", "New game"),
        Binding("q,escape", "choose('quit')", "Quit"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        session = self.session
        lines = result_lines(session)
        with VerticalScroll(id="match-end"):
            yield Label(lines[0], id="match-title")
            yield Static(final_table(session), id="match-totals")
            with Horizontal(id="match-buttons"):
                yield Button("Play again (a)", id="again", variant="primary", compact=True)
                yield Button("New game (n)", id="new", compact=True)
                yield Button("Quit (q)", id="quit", compact=True)
        yield Footer()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


def final_table(session: Session) -> Text:
    """The match's last word: how the last round ended, every seat's last hand (and points, and final
    total where score is kept), the winners starred."""
    game = session.game
    outcome = game.outcome
    last = game.last_round
    if outcome is None or last is None:
        return Text("\n".join(result_lines(session)[1:]))
    rules = session.rules
    labels = [session.label(seat) for seat in range(game.players)]
    width = max(len(label) for label in labels) + 2
    out = Text()
    rounds = count_words(outcome.rounds, "round")
    if rules.score_keeping:
        best = "lowest" if rules.lowest_wins else "highest"
        out.append(f"Final totals after {rounds} ({best} total wins).\n", "bold")
    else:
        out.append(f"No score is kept; {rounds} played.\n", "bold")
    out.append(event_words_round(last, session.names) + "\n\n")
    out.append(f"{'':<{width + 1}}", "bold")
    if rules.score_keeping:
        out.append(f"{'total':>6}{'last round':>12}   ", "bold")
    out.append("hand left\n", "bold")
    for seat, hand in enumerate(last.hands):
        won = seat in outcome.winners
        out.append(f"{'★ ' if won else '  '}{labels[seat]:<{width - 2}} ", "bold" if won else "")
        if rules.score_keeping:
            out.append(f"{outcome.totals[seat]:>6}", "bold" if won else "")
            out.append(f"{last.points[seat]:>+12}   ")
        out.append_text(styled(cards_text(sorted_hand(hand))))
        out.append("\n")
    out.append("★ ", "bold")
    out.append("won the match" if len(outcome.winners) == 1 else "share the win", "italic")
    return out


class RulesScreen(ModalScreen[None]):
    """The rules of the game being played, in plain words."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,enter", "close", "Close")]

    def __init__(self, rules: RuleSet) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Label(heading(self.rules), id="rules-title")
            for section in describe(self.rules):
                yield Label(section.title, classes="rules-section")
                for line in section.lines:
                    yield Static(styled("• " + line), classes="rules-line")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


# ----- the table ---------------------------------------------------------------------------------------------


class TableScreen(Screen[None]):
    """The game: seats, piles, what is pending, your hand, the narration."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "◀", show=False),
        Binding("right", "move(1)", "▶", show=False),
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
        Binding("enter", "play", "Play"),
        Binding("d", "draw", "Draw"),
        Binding("p", "pass_turn", "Pass"),
        Binding("space", "mark", "Stack"),
        Binding("h", "hint", "Hint"),
        Binding("question_mark", "rules", "Rules"),
        Binding("plus,equals_sign", "faster", "Faster"),
        Binding("minus", "slower", "Slower"),
        Binding("q", "app.quit", "Quit"),
        *(Binding(key, f"pick({i})", show=False) for i, key in enumerate(NUMBER_KEYS)),
    ]

    #: Layout only: the narration moves under the table on narrow terminals; margins go on short ones.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012 - Textual's own annotation
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]  # noqa: RUF012

    #: The seat whose eyes the screen is for (None: watching computers only).
    viewer: reactive[int | None] = reactive(None, init=False)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        humans = session.humans
        # Hot-seat starts hidden: the first person to act is called to the device.
        self.set_reactive(TableScreen.viewer, humans[0] if len(humans) == 1 else None)
        self._narrated = 0
        self._bot_pending = False
        #: A round-end, pass-device or match-end screen is up: play resumes when it closes.
        self._waiting = False
        #: Set when the screen goes: a computer still thinking drops its move.
        self._gone = threading.Event()

    @property
    def eights_app(self) -> EightsApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield SeatsPanel(self.session, id="seats")
                with Horizontal(id="table"):
                    yield PileView(self.session, id="piles")
                    yield StatusPanel(self.session, id="status")
                yield Static(id="prompt")
                yield HandView(id="hand")
                yield Static(id="message")
            yield GameLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(SeatsPanel).border_title = "Seats"
        self.query_one(GameLog).border_title = "What happened"
        self.say("")
        self.refresh_table()
        # Narrate once the log has its width (it does not reflow), then play.
        self.call_after_refresh(self.begin)

    def begin(self) -> None:
        self.narrate()
        self.advance()

    def on_resize(self) -> None:
        self.call_after_refresh(self.renarrate)

    def renarrate(self) -> None:
        """Write the whole narration again (a new width, or a new person at the device)."""
        self.query_one(GameLog).clear()
        self._narrated = 0
        self.narrate()

    # ----- drawing from the view ------------------------------------------------------------------

    def current_view(self) -> View:
        return self.session.view(self.viewer)

    def refresh_table(self) -> None:
        view = self.current_view()
        for widget in (self.query_one(SeatsPanel), self.query_one(PileView), self.query_one(StatusPanel)):
            widget.view = view
        hand = self.query_one(HandView)
        old = hand.cards[hand.cursor] if 0 <= hand.cursor < len(hand.cards) else None
        cards = tuple(sorted_hand(view.hand))
        playable = frozenset(a.card for a in view.legal if isinstance(a, Play) and not a.stack)
        if view.phase in ("drop_jacks",):
            playable = frozenset()  # jacks are dropped from the dialog
        hand.cards = cards
        hand.playable = playable
        hand.drawn = view.drawn
        if self.viewer is not None:
            hand.note = "(no cards)"
        elif self.session.humans:
            hand.note = "(the hands stay hidden until a person takes the device)"
        else:
            hand.note = "You are watching the computers play."
        if old in cards:
            hand.cursor = cards.index(old)
        hand.cursor = min(hand.cursor, max(0, len(cards) - 1))
        if playable and hand.cursor < len(cards) and cards[hand.cursor] not in playable:
            hand.cursor = next(i for i, c in enumerate(cards) if c in playable)
        hand.marked = frozenset(i for i in hand.marked if i < len(cards))
        self.query_one("#prompt", Static).update(styled(prompt_words(view, self.session.names), "bold"))
        self.update_titles(view)

    def update_titles(self, view: View | None = None) -> None:
        view = view or self.current_view()
        rules = self.session.rules
        rounds = f" of {view.rounds}" if view.rounds else ""
        speed = self.eights_app.speed
        self.title = rules.title
        self.sub_title = (
            f"round {view.round}{rounds} · {count_words(view.hand_size, 'card')} each · "
            f"seed {self.session.game.seed} · speed {SPEED_WORDS[speed]}"
        )

    def narrate(self) -> None:
        """Write the events not yet shown, as the viewer may see them."""
        log = self.query_one(GameLog)
        events = self.session.game.log or []
        names = self.session.names
        for event in events[self._narrated :]:
            seen = redact(event, self.viewer)
            if isinstance(seen, RoundStarted):
                log.write(Text(""))
                log.write(Text(event_words(seen, names), style="bold cyan"))
            elif isinstance(seen, RoundOver):
                log.write(Text(event_words(seen, names), style="bold"))
            else:
                log.write(styled(event_words(seen, names)))
        self._narrated = len(events)

    def watch_viewer(self) -> None:
        # Another person took the device: the narration as they may see it, no one else's messages.
        self.say("")
        self.renarrate()
        self.refresh_table()

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.update(styled(text, "bold red" if error else "italic") if text else "")
        message.display = bool(text)

    # ----- what happens next ----------------------------------------------------------------------

    def advance(self) -> None:
        """After every change: a computer's move (paced), a person's choice, or nothing."""
        game = self.session.game
        if self._waiting or self._bot_pending or game.is_over:
            return
        seat = game.to_act
        if self.session.is_human(seat):
            if seat != self.viewer:
                self.pass_device(seat)
                return
            self.refresh_table()
            self.open_dialog()
            return
        if self.viewer is not None and len(self.session.humans) > 1:
            # Hot-seat: the person's turn is over, so the table shows what a spectator sees (no hand)
            # until the next person takes the device, who may already be looking.
            self.viewer = None
        # The computer thinks in a thread (a search may take seconds) on its own view, taken here;
        # its action is applied here too, through the checked door.
        self._bot_pending = True
        bot_view = self.session.view(seat)
        delay = SPEEDS[self.eights_app.speed]
        self.run_worker(partial(self.think, seat, bot_view, delay), thread=True, group="computer")

    def think(self, seat: int, bot_view: View, delay: float) -> None:
        """In a worker thread: the computer's choice, then the rest of the pause, then back to the app."""
        started = time.monotonic()
        action = self.session.bots[seat].choose(bot_view)
        rest = delay - (time.monotonic() - started)
        if rest > 0 and self._gone.wait(rest):
            return
        if not self._gone.is_set():
            with suppress(RuntimeError):  # the app closed meanwhile
                self.app.call_from_thread(self.bot_acts, seat, action)

    def bot_acts(self, seat: int, action: Action) -> None:
        if self._gone.is_set() or not self.query("#message"):
            return  # the table is being taken down (a new match, or the app closing): nothing to show
        self._bot_pending = False
        game = self.session.game
        if game.is_over or game.to_act != seat or self._waiting:
            self.advance()
            return
        if not self.is_current:
            # The rules or another screen is on top: the computers wait.
            self._bot_pending = True
            self.set_timer(0.25, partial(self.bot_acts, seat, action))
            return
        self.session.play(action, seat)
        self.after_action()

    def on_unmount(self) -> None:
        self._gone.set()

    def after_action(self) -> None:
        game = self.session.game
        log = game.log or []
        new = log[self._narrated :]
        self.narrate()
        self.say("")
        self.query_one(HandView).marked = frozenset()
        self.refresh_table()
        if game.is_over:
            self._waiting = True
            self.app.push_screen(MatchEndScreen(self.session), self.match_over)
            return
        ended = [e for e in new if isinstance(e, RoundOver)]
        if ended:
            following = next((e for e in reversed(new) if isinstance(e, RoundStarted)), None)
            self._waiting = True
            self.app.push_screen(RoundEndScreen(self.session, ended[-1], following), self.resume)
            return
        self.advance()

    def resume(self, _: object = None) -> None:
        self._waiting = False
        self.refresh_table()
        self.advance()

    def match_over(self, choice: str | None) -> None:
        self.eights_app.after_match(choice or "quit")

    def pass_device(self, seat: int) -> None:
        """Hot-seat: hide the hand and wait for the next person."""
        self._waiting = True
        self.query_one(HandView).hidden = True

        def ready(_: object) -> None:
            self.query_one(HandView).hidden = False
            self.viewer = seat
            self.resume()

        self.app.push_screen(PassDeviceScreen(self.session.names[seat]), ready)

    def open_dialog(self) -> None:
        if isinstance(self.app.screen, ChoiceDialog):
            return
        view = self.current_view()
        if view.to_act != self.viewer:
            return
        dialog: ChoiceDialog | None = None
        if view.phase == "name_suit":
            dialog = SuitDialog(view)
        elif view.phase in ("choose_draw", "choose_swap"):
            dialog = PlayerDialog(view, self.session)
        elif view.phase == "drop_jacks":
            dialog = JackDialog(view)
        elif view.phase == "bury":
            dialog = BuryDialog(view)
        if dialog is not None:
            self.app.push_screen(dialog, self.chosen)

    def chosen(self, action: Action | None) -> None:
        if action is None:
            self.advance()
        else:
            self.act(action)

    def watching_words(self) -> str:
        if self.session.humans:
            return "The computers are playing: the device passes to the next person when it is their turn."
        return "You are watching: the computers play every seat."

    def act(self, action: Action) -> None:
        """A person's action: the engine checks it; a refusal is shown with its reason."""
        if self.viewer is None:
            self.say(self.watching_words())
            return
        if self._waiting:
            return
        try:
            self.session.play(action, self.viewer)
        except IllegalAction as exc:
            self.say(f"Not allowed: {pretty_cards(str(exc))}", error=True)
            self.app.bell()
            return
        self.after_action()

    # ----- keys and clicks ------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "mark":
            return self.session.rules.stacking  # space marks cards for a stack only where stacking is on
        return True

    def action_move(self, step: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            hand.cursor = (hand.cursor + step) % len(hand.cards)

    def action_row(self, step: int) -> None:
        hand = self.query_one(HandView)
        if hand.cards:
            hand.cursor = min(max(0, hand.cursor + step * hand.per_row()), len(hand.cards) - 1)

    def action_pick(self, index: int) -> None:
        hand = self.query_one(HandView)
        if index < len(hand.cards):
            hand.cursor = index

    def action_mark(self) -> None:
        hand = self.query_one(HandView)
        if not self.session.rules.stacking:
            self.say("Stacking is off in these rules: lay one card at a time.")
            return
        if hand.cards:
            hand.marked = hand.marked ^ {hand.cursor}

    def action_play(self) -> None:
        hand = self.query_one(HandView)
        if self.viewer is None:
            self.say(self.watching_words())
            return
        if not hand.cards:
            self.say("You hold no cards.")
            return
        self.act(self.selected_play(hand))

    def selected_play(self, hand: HandView) -> Play:
        """The card under the cursor, on top of any cards marked for a stack."""
        top = hand.cards[hand.cursor]
        stack = tuple(hand.cards[i] for i in sorted(hand.marked) if i != hand.cursor)
        return Play(top, stack) if stack else PLAY[top]

    @on(HandView.Chosen)
    def clicked(self, event: HandView.Chosen) -> None:
        hand = self.query_one(HandView)
        hand.cursor = event.index
        self.act(self.selected_play(hand))

    @on(PileView.StockClicked)
    def stock_clicked(self) -> None:
        self.action_draw()

    def action_draw(self) -> None:
        from eights.engine import DRAW

        self.act(DRAW)

    def action_pass_turn(self) -> None:
        from eights.engine import PASS

        self.act(PASS)

    def action_hint(self) -> None:
        view = self.current_view()
        if self.viewer is None or view.to_act != self.viewer:
            self.say("A hint is for your own turn.")
            return
        hint = self.session.hint(self.viewer)
        self.say(hint_words(hint, view, self.session.names))
        if isinstance(hint.action, Play):
            hand = self.query_one(HandView)
            if hint.action.card in hand.cards:
                hand.cursor = hand.cards.index(hint.action.card)
                hand.marked = frozenset(
                    i for i, c in enumerate(hand.cards) if c in hint.action.stack and i != hand.cursor
                )

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.session.rules))

    def action_faster(self) -> None:
        self.eights_app.speed = min(max(SPEEDS), self.eights_app.speed + 1)
        self.say(f"Computer speed: {SPEED_WORDS[self.eights_app.speed]}.")
        self.update_titles()

    def action_slower(self) -> None:
        self.eights_app.speed = max(min(SPEEDS), self.eights_app.speed - 1)
        self.say(f"Computer speed: {SPEED_WORDS[self.eights_app.speed]}.")
        self.update_titles()


# ----- the new-game screen ----------------------------------------------------------------------------------

#: The main options shown for each preset (others go in "More options").
PRESET_OPTIONS = {
    "classic": ("deal", "deal_two_players", "target"),
    "action": ("packs", "stacking", "score_keeping", "target"),
    "race": ("deal", "deal_two_players", "target_per_player"),
    "derange": ("packs", "short_rounds", "rounds"),
    "baby-eating": ("expanded_deck", "teams"),
}
OPTION_LABELS = {
    "packs": "Packs",
    "deal": "Cards dealt",
    "deal_two_players": "Cards for 2 players (0: same)",
    "target": "Target score (0: one round)",
    "target_per_player": "Target per player",
    "stacking": "Stacking (same-rank cards)",
    "score_keeping": "Score keeping (to the target)",
    "short_rounds": "Short rounds (4-3-2-1-2-3-4)",
    "rounds": "Hand sizes, one per round",
    "expanded_deck": "Expanded deck (second pack)",
    "teams": "Teams (allies sit opposite)",
}
SEAT_CHOICES = [("Person", HUMAN), *((f"Computer: {level}", level) for level in LEVELS)]


def option_text(rules: RuleSet, field: str) -> str:
    """A field's value as ``--option`` text."""
    value = getattr(rules, field)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    if field == "packs" and value == 0:
        return "auto"
    return str(value)


class SetupScreen(Screen[None]):
    """A new game: the preset and its main options, the players, each seat, the seed and the pace."""

    AUTO_FOCUS = "#preset"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", "Start"),
        Binding("f1", "rules", "Rules"),
        Binding("escape", "app.quit", "Quit"),
    ]

    def __init__(self, defaults: PlayConfig | None = None) -> None:
        super().__init__()
        self.defaults = defaults
        rules = defaults.rules if defaults is not None else load_preset("classic")
        self.preset = rules.name if rules.name in PRESETS else "classic"
        self.seats = list(defaults.seats) if defaults is not None else [HUMAN, "normal", "normal", "normal"]
        self._generation = 0

    def compose(self) -> ComposeResult:
        yield Header()
        speed = self.defaults.speed if self.defaults is not None else 3
        seed = self.defaults.seed if self.defaults is not None else None
        with VerticalScroll(id="setup"):
            yield Label("New game", id="setup-title")
            with Horizontal(classes="row"):
                yield Label("Preset", classes="field")
                yield Select(
                    [(f"{name}: {load_preset(name).title}", name) for name in PRESETS],
                    value=self.preset,
                    allow_blank=False,
                    compact=True,
                    id="preset",
                )
            yield Static(id="preset-about")
            with Horizontal(classes="row"):
                yield Label("Players", classes="field")
                yield Select(self.player_counts(), value=len(self.seats), allow_blank=False, compact=True, id="players")
            yield Label("Seats: a person at this device, or a computer player", classes="heading")
            yield Vertical(id="seat-rows")
            yield Label("Options", classes="heading")
            yield Vertical(id="option-rows")
            with Horizontal(classes="row"):
                yield Label("More options", classes="field")
                yield Input(
                    value=self.other_options(),
                    placeholder="KEY=VALUE KEY=VALUE (like draw=until_playable)",
                    compact=True,
                    id="more",
                )
            with Horizontal(classes="row"):
                yield Label("Seed", classes="field")
                yield Input(
                    value="" if seed is None else str(seed),
                    placeholder="random",
                    type="integer",
                    compact=True,
                    id="seed",
                )
            with Horizontal(classes="row"):
                yield Label("Computer speed", classes="field")
                yield Select(
                    [(f"{n}: {SPEED_WORDS[n]}", n) for n in SPEEDS],
                    value=speed,
                    allow_blank=False,
                    compact=True,
                    id="speed",
                )
            yield Static(id="setup-error")
            with Horizontal(id="setup-buttons"):
                yield Button("Start (ctrl+s)", id="start", variant="primary")
                yield Button("Rules (F1)", id="rules-button")
                yield Button("Quit (esc)", id="quit")
        yield Footer()

    async def on_mount(self) -> None:
        await self.rebuild()

    def other_options(self) -> str:
        """The defaults' changes to their preset that the option rows do not show."""
        if self.defaults is None or self.defaults.rules.name != self.preset:
            return ""
        rules, base = self.defaults.rules, load_preset(self.preset)
        shown = PRESET_OPTIONS.get(self.preset, ())
        return " ".join(
            f"{field}={option_text(rules, field)}"
            for field in option_names()
            if field not in (*shown, "name", "title", "source") and getattr(rules, field) != getattr(base, field)
        )

    def player_counts(self) -> list[tuple[str, int]]:
        rules = self.base_rules()
        most = max(rules.max_players, rules.expanded_max_players)
        return [(str(n), n) for n in range(rules.min_players, most + 1)]

    def base_rules(self) -> RuleSet:
        if self.defaults is not None and self.defaults.rules.name == self.preset:
            return self.defaults.rules
        return load_preset(self.preset)

    async def rebuild(self) -> None:
        """Seat rows for the player count, option rows for the preset."""
        self._generation += 1
        generation = self._generation
        rules = self.base_rules()
        self.query_one("#preset-about", Static).update(Text(heading(rules), style="italic"))
        players_select = self.query_one("#players", Select)
        counts = self.player_counts()
        if len(self.seats) not in [n for _, n in counts]:
            lo, hi = counts[0][1], counts[-1][1]
            self.seats = (self.seats + ["normal"] * 16)[: min(max(len(self.seats), lo), hi)]
        with players_select.prevent(Select.Changed):
            players_select.set_options(counts)
            players_select.value = len(self.seats)
        players = len(self.seats)
        seat_rows = self.query_one("#seat-rows", Vertical)
        await seat_rows.remove_children()
        rows = []
        for seat in range(players):
            rows.append(
                Horizontal(
                    Label(f"Seat {seat}", classes="field"),
                    Select(
                        SEAT_CHOICES,
                        value=self.seats[seat],
                        allow_blank=False,
                        compact=True,
                        id=f"seat-{seat}-{generation}",
                    ),
                    classes="row",
                )
            )
        await seat_rows.mount_all(rows)
        option_rows = self.query_one("#option-rows", Vertical)
        await option_rows.remove_children()
        rows = []
        for field in PRESET_OPTIONS.get(self.preset, ()):
            widget_id = f"opt-{field}-{generation}"
            value = getattr(rules, field)
            widget: Any
            if isinstance(value, bool):
                widget = Select(
                    [("on", "true"), ("off", "false")],
                    value=option_text(rules, field),
                    allow_blank=False,
                    compact=True,
                    id=widget_id,
                )
            elif field == "packs":
                packs: list[tuple[str, str]] = [("auto (fewest that fit)", "auto")] if rules.packs == 0 else []
                packs += [(str(p), str(p)) for p, _, _ in rules.seats]
                widget = Select(packs, value=option_text(rules, field), allow_blank=False, compact=True, id=widget_id)
            elif field == "expanded_deck":
                widget = Select(
                    [("auto (from 6 players)", "auto"), ("on", "true"), ("off", "false")],
                    value=value,
                    allow_blank=False,
                    compact=True,
                    id=widget_id,
                )
            else:
                widget = Input(value=option_text(rules, field), compact=True, id=widget_id)
            rows.append(Horizontal(Label(OPTION_LABELS.get(field, field), classes="field"), widget, classes="row"))
        await option_rows.mount_all(rows)

    @on(Select.Changed, "#preset")
    async def preset_changed(self, event: Select.Changed) -> None:
        if event.value != self.preset and isinstance(event.value, str):
            self.remember_seats()
            self.preset = event.value
            await self.rebuild()

    @on(Select.Changed, "#players")
    async def players_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != len(self.seats):
            self.remember_seats()
            self.seats = (self.seats + ["normal"] * 16)[: event.value]
            await self.rebuild()

    def remember_seats(self) -> None:
        for seat in range(len(self.seats)):
            found = self.query(f"#seat-{seat}-{self._generation}")
            if found:
                value = found.first(Select).value
                if isinstance(value, str):
                    self.seats[seat] = value

    def chosen_config(self) -> PlayConfig:
        """The table the screen describes.

        :raises RulesError: or ``UsageError`` naming what cannot be played.
        """
        self.remember_seats()
        base = rules = load_preset(self.preset)
        options = []
        for field in PRESET_OPTIONS.get(self.preset, ()):
            widget = self.query_one(f"#opt-{field}-{self._generation}")
            if isinstance(widget, Select):
                text = str(widget.value)
            else:
                assert isinstance(widget, Input)
                text = widget.value.strip()
            if text != option_text(base, field):
                options.append(f"{field}={text}")
        options += self.query_one("#more", Input).value.replace(";", " ").split()
        if options:
            rules = base.with_options(options)
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            raise UsageError(f"seed: {seed_text!r} is not a whole number") from None
        speed = self.query_one("#speed", Select).value
        rules.check_players(len(self.seats))
        return PlayConfig(rules, tuple(self.seats), seed, speed if isinstance(speed, int) else 3)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            config = self.chosen_config()
        except (RulesError, UsageError) as exc:
            self.query_one("#setup-error", Static).update(Text(str(exc), style="bold red"))
            return
        self.eights_app.start(config)

    @on(Button.Pressed, "#rules-button")
    def action_rules(self) -> None:
        try:
            rules = self.chosen_config().rules
        except (RulesError, UsageError):
            rules = self.base_rules()
        self.app.push_screen(RulesScreen(rules))

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit()

    @property
    def eights_app(self) -> EightsApp:
        return self.app  # type: ignore[return-value]
