"""What the commands share (eights.cli.common): the progress bar, on a terminal only, with the time left in words."""

from __future__ import annotations

import pytest


def test_the_progress_bar_shows_time_left_when_each_game_takes_longer_than_rich_measures():
    # Rich's own estimate reads only the last 30 s of progress: with games of 40 s it never shows a figure.
    from rich.progress import Progress, TimeRemainingColumn

    from eights.cli.common import _time_left_column

    now = [0.0]
    progress = Progress(get_time=lambda: now[0])
    task_id = progress.add_task("tournament", total=100)
    for _ in range(2):
        now[0] += 40.0
        progress.advance(task_id)
    task = progress.tasks[0]
    assert str(TimeRemainingColumn().render(task)) == "-:--:--"
    assert str(_time_left_column().render(task)) == "about 1:05:20 left"  # 40 s a game, 98 games to go


def test_time_left_words():
    from eights.cli.common import time_left

    assert time_left(None, 0, 10) == "time left: not known yet"
    assert time_left(10.0, 2, 10) == "about 0:40 left"
    assert time_left(10.0, 10, 10) == "done"


def test_the_progress_bar_goes_to_a_terminal_and_counts_with_time_left():
    import io

    from rich.console import Console

    from eights.cli.common import progress_bar

    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100)
    with progress_bar("games", 3, console=terminal) as advance:
        assert advance is not None
        for _ in range(3):
            advance(None)
    assert "games" in screen.getvalue()
    with progress_bar("games", 3, console=Console(file=io.StringIO())) as advance:
        assert advance is None  # not a terminal: no bar
    with progress_bar("games", 3, show=False, console=terminal) as advance:
        assert advance is None


@pytest.mark.parametrize("description", ["Reviewing match 12", "classic, mine, baby-eating, derange, race, 3 players"])
def test_the_progress_line_fits_80_columns_with_its_time_left_whole(description: str) -> None:
    """Issue 40, item 9: the review's and the lab's progress lines wrapped their "time left" at 80 columns."""
    import io

    from rich.console import Console

    from eights.cli.common import progress_bar, time_left

    terminal = Console(file=io.StringIO(), force_terminal=True, width=80, color_system=None)
    for done in (0, 1):
        with progress_bar(description, 1080, console=terminal) as bar:
            assert bar is not None
            for _ in range(done):
                bar(None)
            lines = terminal.render_lines(bar.progress.get_renderable(), terminal.options, pad=False)
            shown = ["".join(segment.text for segment in line) for line in lines]
        assert len(shown) == 1 and len(shown[0]) <= 80, shown
        assert f"{done}/1080" in shown[0]
        assert shown[0].endswith(time_left(None, 0, 1080) if not done else " left"), shown
        assert shown[0].startswith(description[:20])
