"""The table: seats, piles, what is pending, your hand and the narration."""

from __future__ import annotations

import threading
from contextlib import suppress
from functools import partial
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from eights.engine import Action, IllegalAction, Play, View
from eights.engine.actions import PLAY
from eights.engine.events import RoundOver, RoundStarted
from eights.table.lines import Line
from eights.table.narrator import Narrator
from eights.table.phrases import hint_words, pretty_cards, sorted_hand
from eights.table.prompts import header_words, prompt_words
from eights.table.session import SPEED_WORDS, Session
from eights.table.turns import computer_move, next_turn
from eights.tui.screens.dialogs import BuryDialog, ChoiceDialog, ConfirmDialog, JackDialog, PlayerDialog, SuitDialog
from eights.tui.screens.match_end import MatchEndScreen
from eights.tui.screens.pass_device import PassDeviceScreen
from eights.tui.screens.round_end import RoundEndScreen
from eights.tui.screens.rules import RulesScreen
from eights.tui.style import styled
from eights.tui.widgets import NUMBER_KEYS, GameLog, HandView, PileView, SeatsPanel, StatusPanel

#: The header's columns beside its title: Textual's icon (8) on the left and the clock's space (10)
#: on the right; and the width assumed before the screen has its size.
HEADER_CHROME = 18
HEADER_WIDTH = 80


def line_text(line: Line) -> Text:
    """A narration line, styled by its kind."""
    if line.kind == "deal":
        return Text(line.text, style="bold cyan")
    if line.kind in ("round_over", "game_over"):
        return Text(line.text, style="bold")
    return styled(line.text)


def drop_last_lines(log: GameLog, start: int) -> None:
    """Take the log's lines from ``start`` on away (an open narration line about to be rewritten)."""
    del log.lines[start:]
    log.virtual_size = Size(log.virtual_size.width, len(log.lines))
    log.notify_style_update()  # RichLog keeps rendered lines by position: forget them
    log.refresh()


class TableScreen(Screen[None]):
    """The game: seats, piles, what is pending, your hand, the narration."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Ctrl-C leaves as q does, through the game's own dialog (not the toolkit's "press ctrl+q" note).
        Binding("ctrl+c", "leave", "Leave", show=False, priority=True),
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
        Binding("q", "leave", "Quit"),
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
        #: The narration for the current viewer, and where its open last line starts in the log
        #: (None: no open line shown; -1: it was written before the log knew its size).
        self._narrator: Narrator | None = None
        self._tail: int | None = None
        self._bot_pending = False
        #: A round-end, pass-device or match-end screen is up: play resumes when it closes.
        self._waiting = False
        #: Set when the screen goes: a computer still thinking drops its move.
        self._gone = threading.Event()

    class MatchEnded(Message):
        """The match-end screen closed: ``again``, ``new`` or ``quit``."""

        def __init__(self, session: Session, choice: str) -> None:
            super().__init__()
            self.session = session
            self.choice = choice

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
        self.update_titles()
        self.call_after_refresh(self.renarrate)

    def renarrate(self) -> None:
        """Write the whole narration again (a new width, or a new person at the device)."""
        self.query_one(GameLog).clear()
        self._narrated = 0
        self._narrator = None
        self._tail = None
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
        width = self.size.width or HEADER_WIDTH
        self.title, self.sub_title = header_words(self.session, view, max(1, width - HEADER_CHROME))

    def narrate(self) -> None:
        """Write the events not yet shown, as the viewer may see them: the narration's complete
        lines, then its open last line (a player's draws so far), rewritten as it grows."""
        if self._tail == -1:
            self.renarrate()  # the open line went in before the log had its size: start again
            return
        log = self.query_one(GameLog)
        events = self.session.game.log or []
        if self._narrator is None:
            self._narrator = Narrator(self.session.rules, self.session.names, self.viewer)
        lines = self._narrator.feed(events[self._narrated :])
        self._narrated = len(events)
        if self._tail is not None:
            drop_last_lines(log, self._tail)
            self._tail = None
        for line in lines:
            log.write(line_text(line))
        open_line = self._narrator.pending
        if open_line is not None:
            start = len(log.lines)
            log.write(line_text(open_line))
            self._tail = start if len(log.lines) > start else -1

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
        turn = next_turn(self.session)
        if self._waiting or self._bot_pending or turn is None:
            return
        seat = turn.seat
        if turn.person:
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
        delay = self.session.pause
        self.run_worker(partial(self.think, seat, bot_view, delay), thread=True, group="computer")

    def think(self, seat: int, bot_view: View, delay: float) -> None:
        """In a worker thread: the computer's choice, then the rest of the pause, then back to the app."""
        action = computer_move(self.session.bots[seat], bot_view, delay, wait=self._gone.wait)
        if action is not None and not self._gone.is_set():
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
        self.post_message(self.MatchEnded(self.session, choice or "quit"))

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
        narrator = self._narrator  # it remembers the last hint's reason, not to repeat it
        self.say(narrator.hint_words(hint, view) if narrator else hint_words(hint, view, self.session.names))
        if isinstance(hint.action, Play):
            hand = self.query_one(HandView)
            if hint.action.card in hand.cards:
                hand.cursor = hand.cards.index(hint.action.card)
                hand.marked = frozenset(
                    i for i, c in enumerate(hand.cards) if c in hint.action.stack and i != hand.cursor
                )

    def action_leave(self) -> None:
        """``q``: ask first, and say whether the match is kept and how to take it up again."""
        if self.session.game.is_over:
            self.app.exit()
            return
        where = self.session.log.where() if self.session.log is not None else None
        if where is None:
            text = "This match is not saved: leaving ends it."
        else:
            text = (
                f"The match is saved ({where}) up to the last move. Take it up again where it stopped with "
                "`eights play --resume`, or Continue on the new-game screen."
            )

        def answered(leave: bool | None) -> None:
            if leave:
                self.app.exit()

        self.app.push_screen(ConfirmDialog("Leave the match?", text, "Leave", "Keep playing"), answered)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.session.rules))

    def action_faster(self) -> None:
        self.say(f"Computer speed: {SPEED_WORDS[self.session.faster()]}.")
        self.update_titles()

    def action_slower(self) -> None:
        self.say(f"Computer speed: {SPEED_WORDS[self.session.slower()]}.")
        self.update_titles()
