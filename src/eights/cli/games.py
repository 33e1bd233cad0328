"""Games without a screen: ``eights score`` (a hand's points), ``simulate`` (a batch of random games),
``replay`` (a saved record) and ``watch`` (computers playing, narrated)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from eights.cards import parse_cards, sort_key
from eights.cli.common import (
    INTERRUPTED,
    JsonOption,
    OptionsOption,
    RulesOption,
    UsageError,
    VariantOption,
    clear_errors,
    console,
    progress_bar,
    stopped_after,
    stopped_before_a_game,
    styled,
)
from eights.engine import Event, Game
from eights.engine.events import GameOver, RoundOver, RoundStarted
from eights.record import GameRecord, RecordError
from eights.rules import RuleSet, resolve_rules
from eights.rules.describe import rules_headline
from eights.runs.play import decisions
from eights.words import count_words

if TYPE_CHECKING:
    from eights.runs.simulate import Simulation


def seat_count(rules: RuleSet, players: int | None) -> int:
    """The player count asked for, checked; by default 4, or the nearest the rules seat."""
    if players is None:
        players = min(max(4, rules.min_players), rules.max_players)
    rules.check_players(players)
    return players


def seat_names(players: int, names: Iterable[str] = ()) -> tuple[str, ...]:
    given = tuple(names)
    return given if len(given) == players else tuple(f"Seat {seat}" for seat in range(players))


def narrate(out: Console, events: Iterable[Event], names: tuple[str, ...], delay: float = 0.0) -> None:
    """Every event in plain words, with the dealt hands at the start of each round."""
    for event in events:
        if isinstance(event, RoundStarted):
            out.print()
            out.rule(event.words(names), style="cyan")
            for seat, hand in enumerate(event.hands):
                if hand is not None:
                    cards = " ".join(c.pretty() for c in sorted(hand, key=sort_key))
                    out.print(styled(f"  {names[seat]} holds {cards}", "dim"))
        elif isinstance(event, RoundOver | GameOver):
            out.print(styled(event.words(names), "bold"))
        else:
            out.print(styled("  " + event.words(names)))
        if delay:
            time.sleep(delay)


def show_result(out: Console, game: Game, names: tuple[str, ...]) -> None:
    """The winners and every seat's total."""
    outcome = game.outcome
    if outcome is None:
        out.print(Text(f"The game is not over: round {game.round_index + 1}, {names[game.turn]} to act."))
        return
    winners = " and ".join(names[s] for s in outcome.winners)
    shared = " (a shared win)" if len(outcome.winners) > 1 else ""
    out.print(Text(f"Winner{'s' if len(outcome.winners) > 1 else ''}: {winners}{shared}", style="bold green"))
    if not game.rules.score_keeping:
        out.print(f"No score is kept: {outcome.rounds} round{'s' if outcome.rounds != 1 else ''}.")
        return
    table = Table(show_edge=False, box=None, padding=(0, 2))
    table.add_column("Seat")
    table.add_column("Total", justify="right")
    table.add_column("")
    for seat, total in enumerate(outcome.totals):
        table.add_row(Text(names[seat]), str(total), "winner" if seat in outcome.winners else "")
    out.print(table)
    out.print(f"{outcome.rounds} round{'s' if outcome.rounds != 1 else ''}.")


def score_command(
    cards: Annotated[list[str], typer.Argument(metavar="CARD", help="Cards like 8H 10C QS A♠ (or 8H,KH).")],
    variant: VariantOption = None,
    option: OptionsOption = None,
    rules_file: RulesOption = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            metavar="N",
            help="Players at the table: the hand must fit their pack (default: the largest pack the rules use).",
        ),
    ] = None,
    as_json: JsonOption = False,
) -> None:
    """Print each card's points and the value of a hand under a preset's scoring table."""
    with clear_errors():
        rules = resolve_rules(variant, rules_file, option)
        hand = parse_cards(" ".join(cards))
        if not rules.score_values:
            raise UsageError(f"{rules.name} keeps no score: its cards have no value (the first player out wins)")
        rules.check_hand(hand, players)
        values = rules.value_table()
        value = sum(values[c] for c in hand)
    if as_json:
        scored = [{"card": str(c), "points": values[c]} for c in hand]
        typer.echo(json.dumps({"variant": rules.name, "cards": scored, "value": value}, ensure_ascii=False))
        return
    out = console()
    out.print(Text(f"{rules_headline(rules, rules_file)}: {count_words(len(hand), 'card')}", style="bold"))
    table = Table(show_edge=False, box=None, padding=(0, 2), pad_edge=False)
    table.add_column("Card")
    table.add_column("Points", justify="right")
    for card in hand:
        table.add_row(styled(card.pretty()), str(values[card]))
    table.add_section()
    table.add_row(Text("Total", style="bold"), Text(str(value), style="bold"))
    out.print(table)


def simulate_command(
    variant: VariantOption = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", metavar="N", help="Players per game (default 4).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", metavar="G", help="How many games to play, 1 or more.")] = 100,
    seed: Annotated[
        int, typer.Option("--seed", "-s", metavar="S", help="The batch seed: the same seed plays the same games.")
    ] = 0,
    option: OptionsOption = None,
    rules_file: RulesOption = None,
    as_json: JsonOption = False,
    save_dir: Annotated[
        Path | None,
        typer.Option("--save-dir", metavar="DIR", help="Save every game's record here (slower: games keep their log)."),
    ] = None,
) -> None:
    """Play many games between random players and print wins per seat, lengths and speed."""
    from eights.runs.simulate import simulate

    out = console()
    try:
        with clear_errors():
            if games < 1:
                raise UsageError(f"games: {games}; play at least 1")
            rules = resolve_rules(variant, rules_file, option)
            seats = seat_count(rules, players)
            # The bar is on standard error, so it shows with --json too.
            with progress_bar(f"{rules.name}, {seats} players", games) as on_game:
                result = simulate(rules, seats, games, seed, options=option, save_dir=save_dir, on_game=on_game)
    except KeyboardInterrupt:
        stopped_before_a_game()
    if result.stopped_of is not None:
        stopped_after(result.games, games)
    if as_json:
        data = result.to_dict()
        data["rules_file"] = str(rules_file) if rules_file is not None else None
        data["changes"] = rules.changes()[1]
        typer.echo(json.dumps(data))
    elif result.games:
        show_simulation(out, result, rules_headline(rules, rules_file), save_dir)
    if result.stopped_of is not None:
        raise typer.Exit(INTERRUPTED)


def show_simulation(out: Console, result: Simulation, headline: str, save_dir: Path | None) -> None:
    """A batch's table of wins per seat, its rounds, actions and speed."""
    games = result.games
    asked = (
        f"{games} of {count_words(result.stopped_of, 'game')}"
        if result.stopped_of is not None
        else count_words(games, "game")
    )
    out.print(Text(f"{headline}: {asked}, {result.players} players, seed {result.seed}", style="bold"))
    table = Table(show_edge=False, box=None, padding=(0, 2))
    table.add_column("Seat")
    table.add_column("Wins", justify="right")
    table.add_column("Share", justify="right")
    table.add_column("Outright", justify="right")
    for seat in range(result.players):
        wins = result.wins[seat]
        table.add_row(str(seat), f"{wins:g}", f"{100 * wins / games:.1f}%", str(result.outright_wins[seat]))
    out.print(table)
    if result.shared_games:
        games_word = "game" if result.shared_games == 1 else "games"
        out.print(f"Shared wins: {result.shared_games} {games_word}, counted as fractions (1/k to each of k winners).")
    out.print(
        f"Rounds: {result.rounds} ({result.rounds / games:.2f} per game); blocked: {result.blocked_rounds}; "
        f"stopped by the safety cap: {result.capped_rounds}."
    )
    out.print(f"Actions: {result.actions} ({result.actions / games:.1f} per game).")
    out.print(
        f"Time: {result.seconds:.2f} s: {result.games_per_second:.0f} games/s, "
        f"{result.actions_per_second:.0f} actions/s."
    )
    if save_dir is not None:
        saved = count_words(len(result.saved), "game record")
        out.print(Text(f"Saved {saved} in {save_dir}; replay one with `eights replay FILE`."))


def replay_command(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A game record (JSON), as simulate or watch save it.")],
    verbose: Annotated[bool, typer.Option("--verbose", "-V", help="Narrate every event of the game.")] = False,
) -> None:
    """Replay a saved game through the rules and print its result (it must match the record)."""
    out = console()
    with clear_errors():
        record = GameRecord.load(file)
        try:
            game = record.replay()
        except RecordError as exc:
            raise RecordError(f"{file}: {exc}") from None
    names = seat_names(record.players, record.names)
    out.print(
        Text(
            f"{record.rules.title} ({record.rules.name}), {record.players} players, seed {record.seed}: "
            f"{count_words(len(record.actions), 'action')} replayed.",
            style="bold",
        )
    )
    if verbose:
        narrate(out, game.log or [], names)
        out.print()
    show_result(out, game, names)
    if record.winners is not None:
        out.print("The replay matches the record.")


def watch_command(
    variant: VariantOption = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", metavar="N", help="Players at the table (default 4).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", metavar="S", help="The game's seed (default: a random one).")
    ] = None,
    option: OptionsOption = None,
    rules_file: RulesOption = None,
    delay: Annotated[
        float,
        typer.Option("--delay", metavar="SECONDS", help="The pace: seconds to wait after each event, 0 or more."),
    ] = 0.0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="LEVELS",
            help="The computer players, comma-separated: one level fills every seat, or one per seat "
            "(easy, normal, learned, hard, expert; hard@500, expert@2s take a budget).",
        ),
    ] = "easy",
    save: Annotated[Path | None, typer.Option("--save", metavar="FILE", help="Save the game record here.")] = None,
) -> None:
    """Watch a narrated game between computer players (random ones unless --bots says otherwise)."""
    from eights.bots import make_bot
    from eights.bots.spec import parse_bot
    from eights.seeds import bot_seed
    from eights.table.session import UsageError as TableUsageError
    from eights.table.session import parse_levels

    out = console()
    with clear_errors():
        if not delay >= 0:
            raise UsageError(f"delay: {delay:g} seconds; give 0 or more")
        rules = resolve_rules(variant, rules_file, option)
        seats = seat_count(rules, players)
        try:
            levels = parse_levels(bots)
        except TableUsageError as exc:
            raise UsageError(str(exc)) from None
        if len(levels) == 1:
            levels *= seats
        if len(levels) != seats:
            raise UsageError(f"bots: {len(levels)} levels for {seats} seats; give one level, or one per seat")
        game = Game(rules, seats, seed, log=True)
    names = seat_names(seats)
    players_seated = [
        make_bot(level, bot_seed(game.seed, seat), **budget)
        for seat, (level, budget) in enumerate(parse_bot(spec) for spec in levels)
    ]
    who = (
        "random players"
        if set(levels) == {"easy"}
        else "computer players (" + ", ".join(f"{names[s]}: {level}" for s, level in enumerate(levels)) + ")"
    )
    out.print(Text(f"{rules_headline(rules, rules_file)}: {seats} {who}, seed {game.seed}", style="bold"))
    log = game.log if game.log is not None else []
    narrate(out, log, names, delay)
    try:
        for decision in decisions(game, players_seated):
            narrate(out, decision.events, names, delay)
    except KeyboardInterrupt:
        out.print("Stopped.")
        raise typer.Exit(130) from None
    out.print()
    show_result(out, game, names)
    if save is not None:
        with clear_errors():
            GameRecord.of(game, names).save(save)
        out.print(Text(f"Saved the game record to {save}; replay it with `eights replay {save}`."))
    out.print(f"Watch this game again with --seed {game.seed}.")
