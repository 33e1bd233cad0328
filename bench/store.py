"""The cost of saving every action of a match in the match store, on SQLite and PostgreSQL.

Run from the repository root::

    python bench/store.py                          # every part, both backends, JSON on stdout (about two minutes)
    python bench/store.py --no-postgres            # SQLite only
    python bench/store.py --postgres postgresql://me@localhost/eights_bench
    python bench/store.py --games 4 --repeat 3 --presets classic,derange

PostgreSQL is a throwaway cluster (``tests/support/postgres.py``: Debian's server programs, a
temporary folder, a Unix socket, ``fsync=on``) unless ``--postgres URL`` names a server
(its schema is brought up to date, and the matches the bench saves there are deleted at
the end) or ``--no-postgres`` skips it; when no cluster can be made the report says
``"postgresql": null`` with the reason, and still gives SQLite's numbers. SQLite is a file
in a temporary folder, as the store opens it (WAL mode, ``synchronous=NORMAL``).

The matches: for each preset (``--presets``, default every one), ``--games`` matches (default
8) of 4 computer players, ``eights.table.build_config(preset, players=4, bots=level,
humans=0, seed=s)``, the seeds ``--seed`` (default 0) + 0, 1, ... Each seat's bot is the
one ``Session`` makes (``make_bot(level, bot_seed(seed, seat))``), so a seed gives the same
match every time, saved or not.

What is measured (``time.perf_counter``).

(1) ``apply``: the engine's checked door, ``game.play(action, seat=seat)``, in microseconds per
action, over the matches with ``easy`` bots. The seat's view (``view(game, seat)``) and the
bot's choice (``bot.choose(view)``) are made off the apply clock; the choice is timed apart
and reported as ``choose_us``.

(2) ``save``, per backend: the cost of committing each action as it is applied, as the store
does in a match with a person at it: the same ``easy`` matches started by ``start_saved(Store, config)``,
their recorder told to commit each action (``grouped = False``, as for a person's match, whose row
is written at its start); for each action, the session's ``Recorder.keep(number, action, events)``
and the wait for its future (one committed row per action, plus a row at a round's end and the result
at the match's end, in the same transaction), before ``game.play``, is timed alone. Per action:
median, p90 and p99 (linear interpolation between order statistics, numpy's default), mean and max,
in microseconds:
``applied_us`` over every action, then apart for the actions that end nothing and for those that
end a round (the last also ends the match); ``start_ms`` is the median time of ``Store.start`` and
the first commit (the match's row and its seats). One match is saved first, untimed, so the
connection and the compiled statements are warm.

(3) ``match``, per backend and per bot level (``normal``, the level people play against by
default, and ``easy``), saved as the store saves a computer-only match: its row, actions and rounds
handed to the store's writer thread every ``GROUP_SECONDS`` (0.2 s) and at the match's end, and
committed by it while play goes on (``eights.store.recorder.Recorder``, ``eights.store.writer``).
Each preset's matches are played whole through a ``Session`` by their computers
(``session.bot_move()`` until the game is over), back to back: unsaved (``Session(config)``), then
saved (``start_saved(Store, config)``) until the writer has committed every one of them
(``store.writer.settle()``, inside the time: the thread's work and its share of the interpreter
are paid, none is left for the next block). Each block is played ``--repeat`` times (default 5)
each way, alternating, and its fastest time each way is kept (the least disturbed by the machine's
other load); ``unsaved_seconds`` and ``saved_seconds`` are the sums over the presets, ``ratio`` is
saved / unsaved (``per_preset_ratio`` the same per preset: the short matches, one round of classic
or action, carry a match's fixed cost, and their short block the wait for its last commit, over
few actions). The goal: saving slows a computer-only
match by no more than 10% (``ratio <= 1.10``) with ``normal`` bots. With ``easy`` bots (a random
player takes next to no time) saving weighs more; that ratio is reported for honesty.
``same_outcomes`` checks that each saved match ended as its unsaved twin.

The machine's other load shows in every number: compare runs made side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from eights.table.saved import start_saved

ROOT = Path(__file__).resolve().parent.parent
try:
    from eights.bots import make_bot
    from eights.engine import Game, view
    from eights.engine.events import RoundOver
    from eights.rules import PRESETS
    from eights.seeds import bot_seed
    from eights.store import Store, StoreError, database_url
    from eights.store.recorder import Recorder
    from eights.table import Session, build_config
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))
    from eights.bots import make_bot
    from eights.engine import Game, view
    from eights.engine.events import RoundOver
    from eights.rules import PRESETS
    from eights.seeds import bot_seed
    from eights.store import Store, StoreError, database_url
    from eights.store.recorder import Recorder
    from eights.table import Session, build_config

PLAYERS = 4
LEVELS = ("normal", "easy")


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def percentile(ordered: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of sorted values, interpolating linearly between order statistics."""
    place = q * (len(ordered) - 1)
    low = int(place)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (place - low)


def spread_us(seconds: list[float]) -> dict[str, float | int]:
    """Median, p90, p99, mean and max of durations, in microseconds."""
    ordered = sorted(s * 1e6 for s in seconds)
    return {
        "count": len(ordered),
        "median_us": round(percentile(ordered, 0.5), 1),
        "p90_us": round(percentile(ordered, 0.9), 1),
        "p99_us": round(percentile(ordered, 0.99), 1),
        "mean_us": round(statistics.fmean(ordered), 1),
        "max_us": round(ordered[-1], 1),
    }


def matches(presets: list[str], games: int, seed: int) -> list[tuple[str, int]]:
    return [(preset, seed + i) for preset in presets for i in range(games)]


# ----- (1) the engine's checked door -----------------------------------------------------------


def bench_apply(plan: list[tuple[str, int]]) -> dict[str, Any]:
    """``game.play`` per action over ``easy`` matches, the bots' choosing timed apart."""
    applying: dict[str, list[float]] = {}
    choosing: dict[str, list[float]] = {}
    for preset, seed in plan:
        config = build_config(preset, players=PLAYERS, bots="easy", humans=0, seed=seed)
        game = Game(config.rules, config.players, seed)
        bots = [make_bot("easy", bot_seed(game.seed, seat)) for seat in range(config.players)]
        applied = applying.setdefault(preset, [])
        chosen = choosing.setdefault(preset, [])
        while not game.is_over:
            seat = game.to_act
            seen = view(game, seat)
            start = time.perf_counter()
            action = bots[seat].choose(seen)
            middle = time.perf_counter()
            game.play(action, seat=seat)
            end = time.perf_counter()
            chosen.append(middle - start)
            applied.append(end - middle)
    every = [t for times in applying.values() for t in times]
    return {
        "bots": "easy",
        "actions": len(every),
        "apply_us": spread_us(every),
        "choose_us": spread_us([t for times in choosing.values() for t in times]),
        "per_preset": {
            preset: {
                "actions": len(times),
                "apply_us_mean": round(1e6 * statistics.fmean(times), 1),
                "apply_us_median": round(1e6 * statistics.median(times), 1),
            }
            for preset, times in applying.items()
        },
    }


# ----- (2) the Recorder -----------------------------------------------------------------------------


def play_saved(
    store: Store, preset: str, seed: int, level: str, times: list[float], starts: list[float], ends: list[bool]
) -> Session:
    """A computer-only match started by ``store``: ``Store.start`` timed into ``starts``, each
    ``Recorder.keep`` (and the wait for it) into ``times``, and into ``ends`` whether that action ended a round."""
    config = build_config(preset, players=PLAYERS, bots=level, humans=0, seed=seed)
    start = time.perf_counter()
    session = start_saved(store, config)
    log = session.log
    assert isinstance(log, Recorder)
    log.grouped, log.ahead = False, True  # each action committed before it is applied, as in a match with
    log.flush()  # a person, which is in the store from its start
    starts.append(time.perf_counter() - start)
    game = session.game
    while not game.is_over:
        seat = game.to_act
        move = session.check(session.bot_choice(seat), seat)
        start = time.perf_counter()
        log.keep(move.number, move.action, move.events).result()
        times.append(time.perf_counter() - start)
        events = session.take(move)
        ends.append(any(isinstance(event, RoundOver) for event in events))
    return session


def bench_save(store: Store, plan: list[tuple[str, int]], saved: list[int]) -> dict[str, Any]:
    warm = play_saved(store, plan[0][0], plan[0][1] + 10_000, "easy", [], [], [])
    saved.append(warm.log.match_id)  # type: ignore[union-attr]
    times: list[float] = []
    starting: list[float] = []
    ends: list[bool] = []
    per_preset: dict[str, list[float]] = {}
    for preset, seed in plan:
        before = len(times)
        session = play_saved(store, preset, seed, "easy", times, starting, ends)
        saved.append(session.log.match_id)  # type: ignore[union-attr]
        per_preset.setdefault(preset, []).extend(times[before:])
    return {
        "bots": "easy",
        "matches": len(plan),
        "applied_us": spread_us(times),
        "applied_us_ending_nothing": spread_us([t for t, end in zip(times, ends, strict=True) if not end]),
        "applied_us_ending_a_round": spread_us([t for t, end in zip(times, ends, strict=True) if end]),
        "start_ms": round(1e3 * statistics.median(starting), 2),
        "per_preset_median_us": {p: round(1e6 * statistics.median(t), 1) for p, t in per_preset.items()},
    }


# ----- (3) whole matches, unsaved and saved ------------------------------------------------------------


def play_whole(session: Session) -> Session:
    game = session.game
    while not game.is_over:
        session.bot_move()
    return session


def bench_matches(
    store: Store, plan: list[tuple[str, int]], level: str, repeat: int, saved: list[int]
) -> dict[str, Any]:
    """Each preset's matches played back to back, unsaved, then saved until the writer has
    committed them all; the fastest of ``repeat`` plays each way."""
    per_preset: dict[str, list[float]] = {}
    actions = 0
    same = True
    for preset in dict.fromkeys(p for p, _ in plan):
        configs = [
            build_config(preset, players=PLAYERS, bots=level, humans=0, seed=seed) for p, seed in plan if p == preset
        ]
        plain = kept = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            unsaved = [play_whole(Session(config)) for config in configs]
            middle = time.perf_counter()
            recorded = [play_whole(start_saved(store, config)) for config in configs]
            store.writer.settle()
            end = time.perf_counter()
            plain, kept = min(plain, middle - start), min(kept, end - middle)
            saved.extend(session.log.match_id for session in recorded)  # type: ignore[union-attr]
            same = same and [s.game.outcome for s in unsaved] == [s.game.outcome for s in recorded]
        actions += sum(len(session.game.actions) for session in unsaved)
        per_preset[preset] = [plain, kept]
    unsaved_total = sum(plain for plain, _ in per_preset.values())
    saved_total = sum(kept for _, kept in per_preset.values())
    return {
        "bots": level,
        "matches": len(plan),
        "actions": actions,
        "unsaved_seconds": round(unsaved_total, 4),
        "saved_seconds": round(saved_total, 4),
        "ratio": round(saved_total / unsaved_total, 3),
        "saving_us_per_action": round(1e6 * (saved_total - unsaved_total) / actions, 1),
        "unsaved_us_per_action": round(1e6 * unsaved_total / actions, 1),
        "per_preset_ratio": {p: round(s / u, 3) for p, (u, s) in per_preset.items()},
        "same_outcomes": same,
    }


# ----- the backends ---------------------------------------------------------------------------------


def bench_backend(url: str, plan: list[tuple[str, int]], repeat: int) -> dict[str, Any]:
    store = Store(database_url(url))
    saved: list[int] = []
    try:
        progress(f"  save: {len(plan)} easy matches, Recorder.keep timed")
        report: dict[str, Any] = {"database": store.label, "save": bench_save(store, plan, saved)}
        report["match"] = {}
        for level in LEVELS:
            progress(f"  match: {len(plan)} {level} matches x {repeat}, unsaved and saved")
            report["match"][level] = bench_matches(store, plan, level, repeat, saved)
        report["goal_met_normal"] = report["match"]["normal"]["ratio"] <= 1.10
        for match_id in saved:
            store.abandon(match_id)
        return report
    finally:
        store.close()


@contextmanager
def postgres(url: str | None) -> Iterator[str]:
    """The server ``url`` names, or a throwaway cluster (``tests/support/postgres.py``)."""
    if url is not None:
        yield url
        return
    sys.path.insert(0, str(ROOT))
    from tests.support.postgres import throwaway_cluster

    with throwaway_cluster() as made:
        yield made.url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=8, help="matches per preset (default 8)")
    parser.add_argument("--repeat", type=int, default=5, help="plays of each block of matches each way (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="the first match's seed (default 0)")
    parser.add_argument(
        "--presets", default=",".join(PRESETS), help=f"comma-separated presets (default all: {','.join(PRESETS)})"
    )
    server = parser.add_mutually_exclusive_group()
    server.add_argument("--postgres", metavar="URL", help="use this PostgreSQL server instead of a throwaway one")
    server.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeat < 1:
        parser.error("--games and --repeat must be at least 1")
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    unknown = [p for p in presets if p not in PRESETS]
    if unknown or not presets:
        parser.error(f"--presets: {', '.join(unknown) or 'none given'}; valid: {', '.join(PRESETS)}")
    plan = matches(presets, args.games, args.seed)

    report: dict[str, Any] = {
        "benchmark": "saving every action in the match store (Recorder.keep), SQLite and PostgreSQL",
        "players": PLAYERS,
        "presets": presets,
        "games_per_preset": args.games,
        "repeat": args.repeat,
        "seed": args.seed,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    progress(f"apply: {len(plan)} easy matches, game.play timed")
    report["apply"] = bench_apply(plan)
    with tempfile.TemporaryDirectory(prefix="eights-bench-store-") as folder:
        progress("sqlite")
        report["sqlite"] = bench_backend(str(Path(folder) / "matches.db"), plan, args.repeat)
    if args.no_postgres:
        report["postgresql"], report["postgresql_reason"] = None, "skipped (--no-postgres)"
    else:
        progress("postgresql")
        try:
            with postgres(args.postgres) as url:
                report["postgresql"] = bench_backend(url, plan, args.repeat)
        except (StoreError, RuntimeError) as exc:  # PostgresUnavailable is a RuntimeError
            report["postgresql"], report["postgresql_reason"] = None, str(exc)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
