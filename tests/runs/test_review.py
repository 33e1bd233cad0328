"""``eights review``: each of a person's decisions in a finished match against the strongest computer's
choice, what it cost, the mistakes; judged from the seat's view only, the same whatever the workers,
kept in the store for a second look."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eights.cli import app
from eights.cli.review import show
from eights.engine import DRAW, Play, parse_action, view
from eights.record import GameRecord
from eights.runs.review import Decision, Review, ReviewSettings, Task, decisions_of, review_decision, review_match
from eights.store import Store, database_url
from eights.store.matches import MatchSummary
from eights.store.reviews import Reviews
from eights.table import HUMAN, build_config
from eights.table.saved import start_saved
from tests.support.scripting import scripted

QUICK = ReviewSettings(deals=12, iterations=200)


def summary_of(record: GameRecord, players: tuple[str, ...]) -> MatchSummary:
    now = datetime.now(UTC)
    return MatchSummary(
        1, now, now, record.rules.name, (), ("You", "Bram"), players, record.winners is not None,
        record.winners or (), record.totals or (), 1, len(record.actions), True,
    )  # fmt: skip


def a_thrown_win() -> GameRecord:
    """Seat 0 holds one card, which plays and goes out, and draws instead; then the match is played out."""
    game = scripted("classic", hands=["5C", "9D"], starter="7C", stock="KS QH 2D 3D 4S 6H 10S JD QC KC", dealer=1)
    assert game.to_act == 0
    game.play(DRAW)  # seat 0 could play 5♣ and go out; it draws
    rng = random.Random(3)
    while not game.is_over:
        legal = game.legal_actions()
        plays = [a for a in legal if isinstance(a, Play)]
        game.play((plays or legal)[rng.randrange(len(plays or legal))])
    return GameRecord.of(game, ("You", "Bram"))


def test_a_review_gives_each_decision_its_best_move_and_cost() -> None:
    record = a_thrown_win()
    review = review_match(summary_of(record, (HUMAN, "normal")), record, settings=QUICK, jobs=1)
    assert review.unit == "wins" and review.seats == (0,)
    assert review.decisions, "seat 0 had choices"
    for decision in review.decisions:
        data = decision.to_dict()
        assert {"round", "turn", "played", "best", "cost", "spread", "position"} <= set(data)
        if decision.played == decision.best:
            assert (decision.cost, decision.spread) == (0.0, 0.0)
    first = review.decisions[0]
    assert first.played == "draw" and first.best != "draw"
    assert first.cost > 0  # drawing instead of playing towards going out costs winning chances


def test_a_review_is_the_same_whatever_the_workers() -> None:
    record = a_thrown_win()
    summary = summary_of(record, (HUMAN, "normal"))
    alone = review_match(summary, record, settings=QUICK, jobs=1)
    shared = review_match(summary, record, settings=QUICK, jobs=2)
    assert alone.to_dict() == shared.to_dict()


def test_a_decision_is_judged_from_the_seats_view_only() -> None:
    """Two deals that differ only in cards seat 0 cannot see give the same review of its decision."""
    stock = "KS QH 2D 3D 4S 6H 10S JD QC KC"
    mine = scripted("classic", hands=["5C 9H", "9D 9S"], starter="7C", stock=stock, dealer=1)
    other = scripted("classic", hands=["5C 9H", "KS QH"], starter="7C", stock="9D 9S" + stock[5:], dealer=1)
    seen, also = view(mine, 0), view(other, 0)
    assert seen == also
    decisions = [
        review_decision(Task(1, 1, v, "draw", ("You", "Bram"), "wins", QUICK, 99)).to_dict() for v in (seen, also)
    ]
    assert decisions[0] == decisions[1]
    assert decisions[0]["position"]["hand"] == ["5C", "9H"]
    assert "9D" not in json.dumps(decisions[0]) and "KS" not in json.dumps(decisions[0]["position"])


def test_only_decisions_with_a_choice_are_looked_at() -> None:
    record = a_thrown_win()
    for task in decisions_of(record, (0,), ("You", "Bram")):
        assert len(task.seen.legal) > 1 and task.seen.seat == 0
        assert parse_action(task.played) in task.seen.legal


runner = CliRunner()


@pytest.fixture
def saved(tmp_path: Path) -> str:
    """A database with a finished match (seat 0 a person) and an unfinished one."""
    db = str(tmp_path / "review.db")
    store = Store(database_url(db))
    session = start_saved(store, build_config("classic", players=2, bots="normal", humans=1, seed=5))
    rng = random.Random(2)
    while not session.game.is_over:
        seat = session.game.to_act
        if session.is_human(seat):
            legal = session.view(seat).legal
            session.play(legal[rng.randrange(len(legal))], seat)
        else:
            session.bot_move()
    unfinished = start_saved(store, build_config("classic", players=2, bots="normal", humans=1, seed=6))
    assert unfinished.log is not None
    store.close()
    return db


def test_the_command_reviews_keeps_and_shows_again(saved: str) -> None:
    args = ["review", "1", "--db", saved, "--deals", "8", "--iterations", "100", "--jobs", "1", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.output)
    assert data["match"] == 1 and data["decisions"] and {"unit", "mistakes", "rounds"} <= set(data)
    store = Store(database_url(saved))
    try:
        assert Reviews(store).get(1, "0|8|100") == data  # kept: the second look reads it
    finally:
        store.close()
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and json.loads(again.output) == data
    shown = runner.invoke(app, args[:-1])
    assert shown.exit_code == 0 and "Your decisions" in shown.output and "Per round" in shown.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["2"], "match 2 is not over: a review is of a finished match"),
        (["9"], "there is no match 9"),
        (["1", "--seat", "5"], "seat 5 is not at match 1's table; valid: 0-1"),
    ],
)
def test_what_cannot_be_reviewed_is_said_in_one_line(saved: str, args: list[str], words: str) -> None:
    done = runner.invoke(app, ["review", *args, "--db", saved])
    assert done.exit_code == 2 and words in done.output and "Traceback" not in done.output


def a_decision(number: int, round_: int, played: str, best: str, cost: float, spread: float) -> Decision:
    position = {"hand": ["8H", "KC", "3D"], "top": "7C", "active_suit": "C", "suit_named": False}
    words = {"draw": "draw a card", "play 8H": "play 8♥", "play KC": "play K♣"}
    return Decision(
        number, round_, number, 0, played, best, cost, spread, 3, position, words[played], words[best],
        mistake=cost > 0.05 and cost > 2 * spread,
    )  # fmt: skip


def test_the_terminal_review_says_what_each_cost_means_shows_the_position_and_lists_every_round(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40, item 5: a negative cost sat beside "Best" unexplained, ``+0.00 ± 0.00`` where the moves differ,
    no hand and no top card, "Per round" skipped rounds without decisions, and a cost whose interval spans 0
    was shown as a cost."""
    review = Review(
        1, (0,), ("You", "Bram"), "wins", ReviewSettings(deals=48, iterations=1500),
        (
            a_decision(1, 1, "play KC", "play KC", 0.0, 0.0),
            a_decision(2, 1, "draw", "play 8H", 0.3, 0.05),  # a clear cost: a mistake
            a_decision(3, 2, "play KC", "play 8H", -0.2, 0.05),  # the move played did better
            a_decision(4, 2, "draw", "play KC", 0.0, 0.0),  # the same on every deal
            a_decision(5, 4, "play KC", "play 8H", 0.1, 0.08),  # spans 0: no clear cost
        ),
    )  # fmt: skip
    monkeypatch.setenv("COLUMNS", "80")
    show(review, rounds_played=4)
    out = capsys.readouterr().out
    assert all(len(line) <= 80 for line in out.splitlines()), out
    text = " ".join(out.split())
    assert "a negative one means the move played did better on those deals" in text
    assert "Round 1, turn 2: on the pile 7♣; hand 8♥ K♣ 3♦" in text
    assert "played draw a card; the expert: play 8♥; cost 30% of a win (± 5%): a mistake" in text
    assert "the expert: play 8♥; no cost: your move did better on these deals, by 20% of a win (± 5%)" in text
    assert "the expert: play K♣; no cost: both moves came to the same on every deal tried" in text
    assert "no clear cost: +10% of a win ± 8%, too close to 0 to tell on these deals" in text
    assert "cost 10%" not in text
    assert "round 3: no decision with a choice" in text
    per_round = out.split("Per round")[1].split("Biggest")[0]
    assert [line.split(":")[0].strip() for line in per_round.splitlines() if line.startswith("  round ")] == [
        f"round {n}" for n in (1, 2, 3, 4)
    ]
