"""The help pages and usage errors of every command read as one style (issue 29, item 13): paragraphs
not broken in mid-sentence, no Python type names, defaults said one way, the same short flag for the
same option everywhere, usage errors in one line, `eights --version`, and a summary naming every command."""

from __future__ import annotations

import itertools
import re
from typing import Any

import click
import pytest
import typer
from typer.testing import CliRunner

from eights.cli import app, version_text
from tests.support.command import ok

runner = CliRunner()


def commands() -> list[list[str]]:
    """Every command's path, groups and subcommands alike."""
    root = typer.main.get_command(app)
    found: list[list[str]] = [[]]

    def walk(command: Any, path: list[str]) -> None:
        if not hasattr(command, "list_commands"):
            return
        context = click.Context(command)
        for name in command.list_commands(context):  # (the commands are imported as they are asked for)
            found.append([*path, name])
            walk(command.get_command(context, name), [*path, name])

    walk(root, [])
    return found


def help_of(path: list[str]) -> str:
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("path", commands(), ids=lambda p: " ".join(p) or "eights")
def test_every_help_page_reads_as_one_style(path: list[str]) -> None:
    text = help_of(path)
    assert not re.search(r"<(str|int|path|bool|float|list\[str\])>", text), text
    assert "[default:" not in text, text
    # A paragraph broken in mid-sentence leaves a short line (outside the option boxes, which wrap in
    # their own narrow column) whose sentence goes on below; rich fills lines to near 80 columns otherwise.
    prose = [line.strip() for line in text.split("╭")[0].splitlines()]
    for line, following in itertools.pairwise(prose):
        if line and following and len(line) < 60 and not line.endswith((".", ":")):
            pytest.fail(f"a line breaks in mid-sentence: {line!r} / {following!r}")
    table_lines = [line for line in text.splitlines() if line.startswith("│")]
    assert all(len(line) <= 80 for line in table_lines)


def test_the_summary_names_every_command_and_the_version_option() -> None:
    text = help_of([])
    summary = " ".join(text.split("╭")[0].split())
    for command in ("play", "serve", "history", "stats", "scorecard"):
        assert f"({command}" in summary or f"{command})" in summary or f" {command}," in summary, summary
    assert "--version" in text


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"{version_text()}\n"
    assert re.fullmatch(r"eights \d+\.\d+\.\d+\S*, engine: (compiled \(mypyc .+\)|pure Python \(.+\))", version_text())


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["history", "show", "abc"], "ID: 'abc' is not a match's number"),
        (["scorecard", "show", "abc"], "'abc'"),
        (["nope"], "No such command 'nope'"),
        (["simulate", "--games", "many"], "Invalid value for '--games' / '-g': give a whole number"),
        (["play", "--no-such-flag"], "No such option"),
    ],
)
def test_a_command_line_click_refuses_is_one_line_too(args: list[str], words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("eights: error: ") and words in lines[0], result.stderr
    assert "╭" not in result.stderr and "Usage:" not in result.stderr


def test_the_same_option_has_the_same_short_flag_everywhere() -> None:
    shorts: dict[str, set[str]] = {}
    root = typer.main.get_command(app)
    for path in commands():
        command: Any = root
        for name in path:
            command = command.get_command(click.Context(command), name)
        for param in command.params:
            longs = [o for o in param.opts if o.startswith("--")]
            short = [o for o in param.opts if not o.startswith("--")]
            for long in longs:
                shorts.setdefault(long, set()).add(short[0] if short else "")
    differing = {long: found for long, found in shorts.items() if len(found) > 1}
    assert differing == {}, differing


# ----- issue 23: every command's help names its commands, shows no <bool> and says ranges in words -------------


def test_help_names_every_command():
    out = ok("--help")
    for command in ("rules", "score", "simulate", "replay", "watch"):
        assert command in out
    assert "--save-dir" in ok("simulate", "--help")


def command_names() -> list[str]:
    import typer.main

    group = typer.main.get_command(app)
    return ["", *sorted(group.list_commands(click.Context(group)))]  # type: ignore[attr-defined]


def test_every_command_is_checked_for_clean_help():
    assert {"rules", "score", "simulate", "replay", "watch", "play", "tournament"} <= set(command_names())


@pytest.mark.parametrize("command", command_names())
def test_help_prints_no_bool_after_flags(command):
    out = ok(*command.split(), "--help")
    assert "<bool>" not in out
    assert "--help" in out


@pytest.mark.parametrize("command", ["rules", "score", "simulate", "replay", "watch", "tournament"])
def test_help_states_ranges_in_words_not_as_x_inequalities(command):
    out = ok(command, "--help")
    assert "x>=" not in out and "x<=" not in out and "x>" not in out


def test_help_says_what_the_default_tournament_does():
    out = " ".join(ok("tournament", "--help").replace("│", " ").split())  # the words, without the panel
    assert "expert@200 against normal" in out
    assert "60 games in about a minute" in out
