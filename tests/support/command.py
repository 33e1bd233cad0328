"""The `eights` command run in the tests' own process (Typer's CliRunner): its exit status and what it printed."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from eights.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    """``eights ARGS``: the exit status, standard output and standard error."""
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str) -> str:
    """``eights ARGS``, which must succeed: what it printed on standard output."""
    code, out, err = run(*args)
    assert code == 0, f"exit {code}: {err}{out}"
    return out


def simulate_json(*args: str) -> dict[str, object]:
    """``eights simulate --json ARGS``, read."""
    return json.loads(ok("simulate", "--json", *args))
