"""The new-game screen: the preset and its options, the players, each seat, the seed and the pace."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Button, Footer, Header, Input, Label, Select, Static

from eights.bots import LEVELS
from eights.names import HUMAN
from eights.rules import PRESETS, RulesError, RuleSet, load_preset, option_names
from eights.rules.describe import heading
from eights.table.session import SPEED_WORDS, SPEEDS, PlayConfig, UsageError, parse_names
from eights.tui.screens.rules import RulesScreen

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


def seat_choices(current: str) -> list[tuple[str, str]]:
    """The choices for a seat, with its current computer player first added where it has a budget."""
    if any(value == current for _, value in SEAT_CHOICES):
        return SEAT_CHOICES
    return [*SEAT_CHOICES, (f"Computer: {current}", current)]


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
        Binding("ctrl+r", "continue", "Continue", show=False),
        Binding("f1", "rules", "Rules"),
        Binding("escape", "app.quit", "Quit"),
    ]

    class Start(Message):
        """Start a new game at this table."""

        def __init__(self, config: PlayConfig) -> None:
            super().__init__()
            self.config = config

    class Continue(Message):
        """Take up a saved match that was left unfinished."""

        def __init__(self, match_id: int) -> None:
            super().__init__()
            self.match_id = match_id

    def __init__(self, defaults: PlayConfig | None = None, unfinished: list[tuple[int, str]] | None = None) -> None:
        """``unfinished``: the saved matches left unfinished (number and words, newest first), offered by
        "Continue": the newest, or any one chosen from the list under it."""
        super().__init__()
        self.defaults = defaults
        self.unfinished = unfinished or []
        rules = defaults.rules if defaults is not None else load_preset("classic")
        self.preset = rules.name if rules.name in PRESETS else "classic"
        self.seats = list(defaults.seats) if defaults is not None else [HUMAN, "normal", "normal", "normal"]
        self._generation = 0

    def compose(self) -> ComposeResult:
        yield Header()
        speed = self.defaults.speed if self.defaults is not None else 3
        seed = self.defaults.seed if self.defaults is not None else None
        with VerticalScroll(id="setup"):
            if self.unfinished:
                with Horizontal(id="continue-row"):
                    yield Button("Continue (ctrl+r)", id="continue", variant="success")
                    if len(self.unfinished) == 1:
                        yield Static(f"the saved match: {self.unfinished[0][1]}", id="continue-about")
                    else:
                        yield Select(
                            [(words, match_id) for match_id, words in self.unfinished],
                            value=self.unfinished[0][0],
                            allow_blank=False,
                            id="continue-match",
                        )
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
            with Horizontal(classes="row"):
                yield Label("People's names", classes="field")
                yield Input(
                    value=", ".join(self.defaults.people) if self.defaults is not None else "",
                    placeholder="You (or Ann, Bob for two people at this device)",
                    compact=True,
                    id="names",
                )
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
        shown = rules.shown_options
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
                        seat_choices(self.seats[seat]),
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
        for field in rules.shown_options:
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
        for field in rules.shown_options:
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
        names_text = self.query_one("#names", Input).value.strip()
        people = parse_names(names_text) if names_text else ()
        humans = self.seats.count(HUMAN)
        if len(people) > humans:
            raise UsageError(
                f"names: {len(people)} names for {humans} {'person' if humans == 1 else 'people'}; "
                "give one name per seat marked Person"
            )
        rules.check_players(len(self.seats))
        return PlayConfig(rules, tuple(self.seats), seed, speed if isinstance(speed, int) else 3, people)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        try:
            config = self.chosen_config()
        except (RulesError, UsageError) as exc:
            self.query_one("#setup-error", Static).update(Text(str(exc), style="bold red"))
            return
        self.post_message(self.Start(config))

    @on(Button.Pressed, "#continue")
    def action_continue(self) -> None:
        if not self.unfinished:
            return
        chosen = self.unfinished[0][0]
        if len(self.unfinished) > 1:
            value = self.query_one("#continue-match", Select).value
            chosen = value if isinstance(value, int) else chosen
        self.post_message(self.Continue(chosen))

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
