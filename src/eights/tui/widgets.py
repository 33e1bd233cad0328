"""The table's widgets. Each one renders from the seat's ``View`` it is given; none keeps game state."""

from __future__ import annotations

from math import ceil

from rich.text import Text
from textual import events, on
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import RichLog

from eights.cards import Card
from eights.engine import View
from eights.table.phrases import direction_words, duty_lines, suit_words
from eights.table.session import YOU, Session
from eights.tui.style import card_style, styled
from eights.words import count_words

CARD_WIDTH = 6  # a 5-column card and a gap
ROW_HEIGHT = 4  # the key label, then three lines of card
NUMBER_KEYS = "1234567890"
#: The stock's columns in the pile view (the card drawn in a box and a gap).
STOCK_WIDTH = 6
#: After the seat whose hand the Guarantee Joker's hold draws from.
HOLD_MARK = "  ★ GJ hold"


def face(card: Card) -> str:
    """Three columns: ``10♥``, `` 8♣``, `` GJ``."""
    return f"{card.pretty():>3}"


def number_key(index: int) -> str:
    """The number key that picks the card at ``index`` (1-9, then 0 for the tenth)."""
    return NUMBER_KEYS[index] if index < len(NUMBER_KEYS) else ""


class HandView(Widget):
    """A hand of cards in rows. Playable cards have heavy frames (not only colour); the cursor
    card is shown in reverse with a ▼ over it; a click on a card asks to play it."""

    DEFAULT_CSS = """
    HandView { height: auto; }
    """

    cards: reactive[tuple[Card, ...]] = reactive((), layout=True)
    playable: reactive[frozenset[Card]] = reactive(frozenset())
    cursor: reactive[int] = reactive(0)
    marked: reactive[frozenset[int]] = reactive(frozenset())
    #: The card just drawn, which the player may (or must) play.
    drawn: reactive[Card | None] = reactive(None)
    #: Set while the device passes between people: no card is shown.
    hidden: reactive[bool] = reactive(False, layout=True)
    note: reactive[str] = reactive("")

    class Chosen(Message):
        """A card was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def per_row(self, width: int | None = None) -> int:
        width = self.content_size.width if width is None else width
        return max(1, width // CARD_WIDTH)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.hidden or not self.cards:
            return 1
        return ceil(len(self.cards) / self.per_row(width)) * ROW_HEIGHT

    def render(self) -> Text:
        if self.hidden:
            return Text("(the hand is hidden)", style="italic")
        if not self.cards:
            return Text(self.note or "(no cards)", style="italic")
        out = Text()
        per_row = self.per_row()
        for start in range(0, len(self.cards), per_row):
            if start:
                out.append("\n")
            row = range(start, min(start + per_row, len(self.cards)))
            lines = [Text(), Text(), Text(), Text()]
            for i in row:
                card = self.cards[i]
                playable = card in self.playable
                selected = i == self.cursor
                label = ("▼" if selected else " ") + number_key(i).ljust(1) + ("+" if i in self.marked else " ")
                lines[0].append(f" {label:<3}  ", style="bold" if selected else "dim")
                if playable:
                    top, side, bottom = "┏━━━┓", "┃", "┗━━━┛"
                    frame = "bold " + card_style(card).replace("bold ", "")
                else:
                    top, side, bottom = "┌───┐", "│", "└───┘"
                    frame = "grey50"
                if card == self.drawn:
                    frame += " underline"
                face_style = card_style(card) if playable else card_style(card).replace("bold", "dim")
                if selected:
                    face_style += " reverse"
                lines[1].append(top + " ", style=frame)
                lines[2].append(side, style=frame)
                lines[2].append(face(card), style=face_style)
                lines[2].append(side + " ", style=frame)
                lines[3].append(bottom + " ", style=frame)
            out.append(Text("\n").join(lines))
        return out

    def watch_cursor(self) -> None:
        self.call_after_refresh(self.show_cursor)

    def show_cursor(self) -> None:
        """Scroll the board (on a short terminal, with a long hand) so the cursor's row is in sight."""
        board = self.parent
        if not self.cards or self.hidden or not isinstance(board, Widget):
            return
        row = self.cursor // self.per_row()
        top = self.virtual_region.y + self.styles.padding.top + row * ROW_HEIGHT
        board.scroll_to_region(Region(0, top, 1, ROW_HEIGHT), animate=False, immediate=True)

    def index_at(self, x: int, y: int) -> int | None:
        """The card under a point of the content, if any."""
        column, inside = divmod(x, CARD_WIDTH)
        if inside >= CARD_WIDTH - 1 or column >= self.per_row():
            return None
        index = (y // ROW_HEIGHT) * self.per_row() + column
        return index if 0 <= index < len(self.cards) else None

    def on_click(self, event: events.Click) -> None:
        if self.hidden:
            return
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = self.index_at(offset.x, offset.y)
        if index is not None:
            self.post_message(self.Chosen(index))


class ViewWidget(Widget):
    """A widget drawn from one seat's view of the game."""

    DEFAULT_CSS = """
    ViewWidget { height: auto; }
    """

    view: reactive[View | None] = reactive(None, always_update=True, layout=True)

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session


class SeatsPanel(ViewWidget):
    """Every seat in order: name, level, cards, points, dealer and team; whose turn; the direction."""

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text()
        arrow = "↓" if view.direction == 1 else "↑"
        out = Text()
        head = f"Play goes {direction_words(view.direction)} {arrow}: "
        out.append(head, style="bold")
        ring = self.ring(view)
        room = self.content_size.width - len(head)
        if 0 < room < len(ring):
            ring = ring[: room - 1] + "…"  # one line, however many seats
        out.append(ring, style="dim")
        labels = [self.label(view, seat) for seat in range(view.players)]
        name_width = max(len(label) for label in labels)
        lines = [self.seat_line(view, seat, labels[seat], name_width) for seat in range(view.players)]
        # Many seats go in columns, so the hand stays on screen at 80x24 (the hold mark may overhang).
        width = (
            max(
                len(line) - (len(HOLD_MARK) if seat == view.guarantee_hoarder else 0) for seat, line in enumerate(lines)
            )
            + 3
        )
        fit = max(1, (self.content_size.width + 3) // width)
        columns = min(fit, -(-view.players // 4)) if view.players > 6 else 1
        per_column = -(-len(lines) // columns)
        for row in range(per_column):
            out.append("\n")
            for column in range(columns):
                index = column * per_column + row
                if index < len(lines):
                    line = lines[index]
                    out.append_text(line)
                    if column + 1 < columns:
                        out.append(" " * max(1, width - len(line)))
        return out

    def label(self, view: View, seat: int) -> str:
        """``Ada (hard)``; the viewer's own seat says so in hot-seat (``Player 2 (you)``)."""
        name = self.session.label(seat)
        if seat == view.seat and self.session.names[seat] != YOU:
            name += " (you)"
        return name

    def seat_line(self, view: View, seat: int, label: str, name_width: int) -> Text:
        turn = seat == view.to_act
        line = Text()
        line.append("▶ " if turn else "  ", style="bold yellow")
        line.append(f"{label:<{name_width}}", style="bold reverse" if turn else "bold")
        line.append(f" {count_words(view.hand_counts[seat], 'card'):>8}")
        if view.rules.score_keeping:
            line.append(f" {view.totals[seat]:>4} pts")
        if seat == view.dealer:
            line.append("  dealer", style="dim")
        for i, pair in enumerate(view.teams):
            if seat in pair:
                line.append(f"  team {'ABCDEFGH'[i]}", style="cyan")
        if view.guarantee_hoarder == seat:
            line.append(HOLD_MARK, style="magenta")
        return line

    def ring(self, view: View) -> str:
        n = view.players
        names = self.session.names
        seats = [(view.turn + view.direction * i) % n for i in range(n + 1)]
        return " → ".join(names[s] for s in seats)


class PileView(ViewWidget):
    """The stock, the top card and the suit to follow (framed and in capitals once named).
    A click on the stock asks to draw."""

    class StockClicked(Message):
        """The stock was clicked."""

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and offset.x < STOCK_WIDTH and 1 <= offset.y <= 3:
            self.post_message(self.StockClicked())

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text()
        top = view.top
        style = card_style(top)
        piles = [
            Text.assemble(("Stock   ", "bold"), ("Top     ", "bold")),
            Text.assemble(("╭────╮  ", "grey70"), ("┏━━━━┓  ", style)),
            Text.assemble((f"│{view.stock_count:>3} │  ", "bold"), (f"┃{face(top)} ┃  ", style)),
            Text.assemble(("╰────╯  ", "grey70"), ("┗━━━━┛  ", style)),
            Text(f"{'discard ' + str(view.discard_count):<16}", "dim"),
        ]
        out = Text()
        for i, (left, right) in enumerate(zip(piles, self.suit_lines(view), strict=True)):
            if i:
                out.append("\n")
            out.append_text(left)
            out.append_text(right)
        return out

    def suit_lines(self, view: View) -> list[Text]:
        suit = view.active_suit
        title = Text("Suit to follow", "bold")
        if suit is None:
            return [title, Text(), Text("waiting for a suit to be named…", "italic"), Text(), Text()]
        words = suit_words(suit)
        style = card_style(Card.of(1, suit))
        if view.suit_named:
            # A named suit is framed, in capitals and in reverse, so no one misses it.
            label = f" NAMED: {words.upper()} "
            bar = "═" * len(label)
            middle = Text("║", style)
            middle.append(label, style + " reverse")
            middle.append("║", style)
            return [
                title,
                Text(f"╔{bar}╗", style),
                middle,
                Text(f"╚{bar}╝", style),
                Text(f"play {suit.symbol} or a wild", "italic"),
            ]
        return [title, Text(), Text(words, style), Text(), Text()]


class StatusPanel(ViewWidget):
    """What is pending: a chain, a follow-me duty, a waiting 3, a run, the Guarantee Joker, teams."""

    def render(self) -> Text:
        view = self.view
        if view is None:
            return Text()
        lines = duty_lines(view, self.session.names)
        out = Text()
        for i, line in enumerate(lines):
            if i:
                out.append("\n")
            out.append(styled("• " + line))
        return out


class GameLog(RichLog):
    """The narration: every event in plain words. It never takes the keyboard's focus."""

    can_focus = False

    @on(events.Resize)
    def keep_latest_in_sight(self) -> None:
        # (RichLog's own on_resize runs too.) A message under the hand shrinks the log on narrow
        # screens: keep the latest lines in sight.
        self.scroll_end(animate=False, immediate=True)
