"""The match store, on SQLite and on a real PostgreSQL server: saving as play goes, taking a match up
again, history and stats, remembered settings, and databases that cannot be used."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from eights.engine import view
from eights.rules import PRESETS
from eights.store import Store, StoreError, database_url, recorder
from eights.store import db as store_db
from eights.store.batch import Batch, SqliteStatements
from eights.store.writer import Writer
from eights.table import PlayConfig, RestoreError, Session, UsageError, build_config
from eights.table.saved import last_setup, remember_setup, resume_saved, start_saved


def play_out(session: Session, stop_after: int | None = None) -> None:
    """Every seat plays: computers as they choose, people their first legal move; ``stop_after`` actions."""
    done = 0
    while not session.game.is_over and (stop_after is None or done < stop_after):
        seat = session.game.to_act
        if session.is_human(seat):
            session.play(session.view(seat).legal[0], seat)
        else:
            session.bot_move()
        done += 1


def views(session: Session) -> list[object]:
    return [view(session.game, seat) for seat in (None, *range(session.game.players))]


def test_every_action_is_saved_as_it_is_applied(store: Store) -> None:
    """With a person at the table, each action is committed before the next is applied."""
    session = start_saved(store, build_config("derange", players=3, bots="easy", humans=1, seed=4))
    for done in range(1, 41):
        play_out(session, stop_after=1)
        record = store.record(session.log.match_id)  # type: ignore[union-attr]
        assert record.actions == tuple(str(a) for a in session.game.actions)
        assert len(record.actions) == done


def test_a_computer_only_match_commits_its_actions_in_groups(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """No person at the table: actions (and the rounds they end) are committed together every
    GROUP_SECONDS, at the match's end and when the store closes; what is committed always replays."""
    clock = [0.0]
    monkeypatch.setattr(recorder.time, "monotonic", lambda: clock[0])
    session = start_saved(store, build_config("derange", players=3, bots="easy", humans=0, seed=4))
    match_id = session.log.match_id  # type: ignore[union-attr]
    play_out(session, stop_after=5)
    assert store.record(match_id).actions == (), "held back: it came faster than GROUP_SECONDS"
    clock[0] += recorder.GROUP_SECONDS
    play_out(session, stop_after=1)
    assert len(store.record(match_id).actions) == 6, "the clock ran: all six committed together"
    while session.game.round_index < 2:
        play_out(session, stop_after=1)
    assert len(store.record(match_id).actions) == 6 and store.summary(match_id).rounds == 0
    clock[0] += recorder.GROUP_SECONDS
    play_out(session, stop_after=1)
    saved = store.record(match_id)
    assert saved.actions == tuple(str(a) for a in session.game.actions)
    assert store.summary(match_id).rounds == 2, "the two rounds that ended came with their actions"
    saved.replay()
    play_out(session, stop_after=3)
    url = store.url
    store.close()
    reopened = Store(url)
    try:
        assert reopened.record(match_id).actions == tuple(str(a) for a in session.game.actions)
        resumed = resume_saved(reopened, match_id)
        play_out(resumed)
        assert reopened.summary(match_id).finished, "the match's end is committed at once"
    finally:
        reopened.close()


def test_the_writer_commits_several_matches_and_batches_in_one_transaction(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the writer's thread holds when it commits (new matches, several batches of one match,
    rounds and results) goes in one transaction, and every match is saved whole."""
    clock = [0.0]
    monkeypatch.setattr(recorder.time, "monotonic", lambda: clock[0])
    handed: list[Batch] = []
    monkeypatch.setattr(store.writer, "submit", handed.append)
    sessions = [
        start_saved(store, build_config(preset, players=3, bots="easy", humans=0, seed=seed))
        for seed, preset in enumerate(("classic", "derange", "baby-eating"))
    ]
    for session in sessions:
        while not session.game.is_over:
            play_out(session, stop_after=7)
            clock[0] += recorder.GROUP_SECONDS  # the next action hands these seven over
    assert len(handed) > 2 * len(sessions), "several batches of each match"
    store.writer.write(handed)
    for session in sessions:
        match_id = session.log.match_id  # type: ignore[union-attr]
        assert store.record(match_id).actions == tuple(str(a) for a in session.game.actions)
        summary = store.summary(match_id)
        outcome = session.game.outcome
        assert outcome is not None and summary.finished
        assert (summary.winners, summary.totals, summary.rounds) == (outcome.winners, outcome.totals, outcome.rounds)
        assert summary.names == session.names and summary.players == session.config.seats


def test_the_writers_queue_is_bounded_and_a_match_waits_for_room_in_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database slower than play: past ``limit`` batches waiting, the match handing one more over waits
    for the writer's thread (back-pressure), and nothing is lost."""
    clock = [0.0]
    monkeypatch.setattr(recorder.time, "monotonic", lambda: clock[0])
    handed: list[Batch] = []
    monkeypatch.setattr(store.writer, "submit", handed.append)
    session = start_saved(store, build_config("classic", players=2, bots="easy", humans=0, seed=3))
    while not session.game.is_over:
        play_out(session, stop_after=1)
        clock[0] += recorder.GROUP_SECONDS
    monkeypatch.undo()
    assert len(handed) > 4
    held = store.writer
    held.limit = 2
    with held.opening:  # the thread's next write waits here, as on a slow database
        held.submit(handed[0])
        for _ in range(1000):  # the thread takes the first batch, and then waits
            if not held.queue:
                break
            threading.Event().wait(0.01)
        held.submit(handed[1])
        held.submit(handed[2])
        rest = threading.Thread(target=lambda: [held.submit(batch) for batch in handed[3:]])
        rest.start()
        rest.join(0.3)
        assert rest.is_alive() and len(held.queue) == 2  # waiting for room, not growing
    rest.join()
    held.settle()
    assert store.record(session.log.match_id).actions == tuple(str(a) for a in session.game.actions)  # type: ignore[union-attr]


def test_one_match_failing_in_the_writers_commit_costs_the_others_nothing(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match played on elsewhere fails in the writer's thread: the other matches of that commit are
    saved, and the failed one says so at its next action."""
    clock = [0.0]
    monkeypatch.setattr(recorder.time, "monotonic", lambda: clock[0])
    handed: list[Batch] = []
    monkeypatch.setattr(store.writer, "submit", handed.append)
    taken = start_saved(store, build_config("derange", players=3, bots="easy", humans=0, seed=1))
    other = start_saved(store, build_config("classic", players=3, bots="easy", humans=0, seed=2))
    play_out(taken, stop_after=5)
    clock[0] += recorder.GROUP_SECONDS
    play_out(taken, stop_after=1)
    store.writer.write(handed)
    handed.clear()
    match_id = taken.log.match_id  # type: ignore[union-attr]
    with store.engine.begin() as connection:  # another eights took the match up and played on
        connection.execute(
            text("INSERT INTO actions (match_id, number, action) VALUES (:match, :number, 'draw')"),
            {"match": match_id, "number": len(taken.game.actions) + 1},
        )
    play_out(taken, stop_after=3)
    clock[0] += recorder.GROUP_SECONDS
    play_out(taken, stop_after=1)
    play_out(other)
    assert {batch.slot for batch in handed} == {taken.log.slot, other.log.slot}  # type: ignore[union-attr]
    for batch in handed:
        Writer.submit(store.writer, batch)  # to the writer's thread, all at once
    store.writer.settle()
    assert store.record(other.log.match_id).actions == tuple(str(a) for a in other.game.actions)  # type: ignore[union-attr]
    assert store.summary(other.log.match_id).finished  # type: ignore[union-attr]
    assert len(store.record(match_id).actions) == 7, "six of its own and the other eights' one"
    with pytest.raises(StoreError, match=rf"match {match_id} was played on elsewhere .* no longer saved"):
        play_out(taken, stop_after=1)


def test_a_value_the_database_refuses_fails_its_match_in_words_and_the_writer_goes_on(store: Store) -> None:
    """Anything the writer's thread meets (here a seed beyond a 64-bit integer, which the command line
    refuses first) fails that match with a one-line error; the thread lives on for the others."""
    with pytest.raises(UsageError, match=r"seed: 18446744073709551616 is too large to save with the match"):
        build_config("classic", players=2, bots="easy", humans=0, seed=2**64)
    config = replace(build_config("classic", players=2, bots="easy", humans=0), seed=2**64)
    broken = start_saved(store, config)
    play_out(broken)
    with pytest.raises(StoreError, match=r"^the database .* failed: "):
        broken.log.match_id  # type: ignore[union-attr]  # noqa: B018
    fine = start_saved(store, build_config("classic", players=2, bots="easy", humans=0, seed=3))
    play_out(fine)
    assert store.summary(fine.log.match_id).finished  # type: ignore[union-attr]
    assert [m.id for m in store.matches()] == [fine.log.match_id]  # type: ignore[union-attr]


def test_a_connection_lost_after_its_commit_does_not_save_a_match_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection goes after the database committed a batch, before the answer came: the writer
    does not write it again on a new connection (it cannot tell it apart from another eights'
    rows); the match stops being saved and says so."""
    store = Store(database_url(str(tmp_path / "lost.db")))
    start_saved(store, build_config("classic", players=2, bots="easy", humans=1, seed=3))  # the writer's connection
    committed = SqliteStatements.transaction
    lose = [1]

    def committed_then_lost(self: Any, cursor: Any, batches: Any, unhurried: bool) -> Any:
        made = committed(self, cursor, batches, unhurried)
        if lose[0]:
            lose[0] -= 1
            cursor.connection.close()
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
        return made

    monkeypatch.setattr(SqliteStatements, "transaction", committed_then_lost)
    session = start_saved(store, build_config("derange", players=3, bots="easy", humans=0, seed=4))
    play_out(session)
    store.writer.settle()
    assert [m.variant for m in store.matches()] == ["derange", "classic"], "the computers' match once"
    with pytest.raises(StoreError, match="closed database"):
        store.close()


def test_a_match_taken_up_again_is_the_same_for_every_seat(store: Store) -> None:
    config = build_config("baby-eating", players=4, bots="normal", humans=1, seed=11)
    session = start_saved(store, config)
    play_out(session, stop_after=25)
    match_id = store.last_unfinished()
    resumed = resume_saved(store, match_id)  # type: ignore[arg-type]
    assert views(resumed) == views(session)
    assert resumed.names == session.names and resumed.config.seats == session.config.seats
    # Both go on alike, and the resumed one keeps saving (the first, no longer).
    session.log = None
    play_out(resumed)
    play_out(session)
    assert resumed.game.outcome == session.game.outcome
    assert store.record(match_id).replay().outcome == session.game.outcome  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", PRESETS)
def test_finished_matches_replay_from_the_store_in_every_preset(store: Store, preset: str) -> None:
    session = start_saved(store, build_config(preset, players=4, bots="easy", humans=0, seed=2))
    play_out(session)
    (summary,) = store.matches()
    assert summary.finished and summary.variant == preset
    assert summary.winners == session.game.outcome.winners  # type: ignore[union-attr]
    assert summary.rounds == session.game.outcome.rounds  # type: ignore[union-attr]
    assert store.last_unfinished() is None
    assert store.record(summary.id).replay().outcome == session.game.outcome


def test_history_and_stats_figures_match_the_matches_played(store: Store) -> None:
    games = []
    for seed in range(4):
        config = build_config("classic", players=2, bots="easy", humans=1, seed=seed, names="Ann")
        session = start_saved(store, config)
        play_out(session)
        games.append(session.game)
    unfinished = start_saved(store, build_config("classic", players=2, bots="easy", humans=1, seed=9, names="Ann"))
    play_out(unfinished, stop_after=3)

    listed = store.matches()
    assert [m.finished for m in listed] == [False, True, True, True, True]
    stats = {(s.kind, s.who): s for s in store.stats()}
    ann, easy = stats[("person", "Ann")], stats[("computer", "easy")]
    ann_wins = sum(0 in g.outcome.winners for g in games)  # type: ignore[union-attr]
    assert (ann.matches, ann.wins) == (4, ann_wins)
    assert (easy.matches, easy.wins) == (4, sum(1 in g.outcome.winners for g in games))  # type: ignore[union-attr]
    rounds = sum(g.outcome.rounds for g in games)  # type: ignore[union-attr]
    assert ann.rounds == rounds
    totals = [g.outcome.totals[0] for g in games]  # type: ignore[union-attr]
    assert ann.points == sum(totals)  # classic: the winner collects, so a total is its rounds' points
    assert ann.best is not None and ann.best[1] == max(totals) and ann.worst is not None
    assert ann.worst[1] == min(totals)


def test_names_and_the_last_new_game_are_remembered(store: Store) -> None:
    config = build_config("race", players=3, bots="hard@200,easy", names="Zoë", speed=4)
    remember_setup(store, config)
    assert store.people() == ("Zoë",)
    last = last_setup(store)
    assert last is not None and last.seats == config.seats and last.rules == config.rules and last.speed == 4
    assert last.seed is None


def test_a_match_played_on_in_two_places_is_refused_in_the_second(store: Store) -> None:
    session = start_saved(store, build_config("classic", players=2, bots="easy", humans=1, seed=3))
    play_out(session, stop_after=2)
    twin = resume_saved(store, session.log.match_id)  # type: ignore[union-attr]
    play_out(session, stop_after=1)
    with pytest.raises(StoreError, match=r"match \d+ was played on elsewhere .* this one is no longer saved"):
        play_out(twin, stop_after=1)


def test_a_record_that_no_longer_replays_is_reported(store: Store) -> None:
    session = start_saved(store, build_config("classic", players=2, bots="easy", humans=1, seed=3))
    play_out(session, stop_after=6)
    match_id = session.log.match_id  # type: ignore[union-attr]
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE actions SET action = 'JK' WHERE match_id = :m AND number = 2"), {"m": match_id})
    with pytest.raises(RestoreError, match=r"match \d+ .*cannot be taken up: action 2 \('JK'\) does not replay"):
        resume_saved(store, match_id)
    assert [m.id for m in store.matches()] == [match_id]  # still listed, not dropped


def test_a_database_from_a_newer_eights_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    Store(database_url(str(path))).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'f00d'")
    with pytest.raises(StoreError, match=r"newer.db was written by a newer version of eights \(schema f00d\)"):
        Store(database_url(str(path)))
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [("f00d",)]


def test_a_corrupted_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "broken.db"
    junk = b"this is not a database at all\n" * 200
    path.write_bytes(junk)
    with pytest.raises(StoreError, match=r"broken.db is not a readable eights database .* left as it is"):
        Store(database_url(str(path)))
    assert path.read_bytes() == junk


@pytest.mark.parametrize("people", [1, 0], ids=["a person's match", "computers only"])
def test_a_read_only_database_gets_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, people: int) -> None:
    """A person's match is refused at its start; a computer-only one (written behind play) by its next
    action or, once over, when the store closes."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "ro.db"
    Store(database_url(str(path))).close()
    url = database_url(f"sqlite:///file:{path}?mode=ro&uri=true")
    store = Store(url)
    with pytest.raises(StoreError, match="it is read-only; make the file and its folder writable"):
        session = start_saved(store, build_config("classic", players=2, bots="easy", humans=people, seed=1))
        play_out(session)
        store.close()
    if people:
        store.close()  # the match that could not start is not tried again (the terminal game closes it so)
    assert Store(url).matches() == []
    assert [p.name for p in tmp_path.iterdir() if p.is_dir()] == [], "no folder made from sqlite's file: form"


@pytest.mark.parametrize("people", [1, 0], ids=["a person's match", "computers only"])
def test_a_locked_database_gets_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, people: int) -> None:
    monkeypatch.setattr(store_db, "BUSY_SECONDS", 0.2)
    path = tmp_path / "locked.db"
    store = Store(database_url(str(path)))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="is locked by another program"):
            session = start_saved(store, build_config("classic", players=2, bots="easy", humans=people, seed=1))
            play_out(session)
            store.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert Store(database_url(str(path))).matches() == []


def test_bad_database_urls_are_refused_in_words() -> None:
    with pytest.raises(StoreError, match="is not a database URL"):
        database_url("nonsense://::")


def test_a_saved_table_round_trips_through_plain_data() -> None:
    config = build_config("action", players=4, bots="hard@300,normal,easy", names="Ann", seed=5, speed=2)
    assert PlayConfig.from_dict(config.to_dict()) == config
