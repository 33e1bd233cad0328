"""``eights rules``: a preset's (or a rules file's) rules in plain words, or the list of presets."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from eights.cli.common import (
    OptionsOption,
    RulesOption,
    UsageError,
    clear_errors,
    console,
    styled,
)
from eights.rules import PRESETS, load_preset, resolve_rules
from eights.rules.describe import describe, heading

if TYPE_CHECKING:
    pass


def rules_command(
    preset: Annotated[
        str | None, typer.Argument(metavar="PRESET", help="The preset to explain; omit it to list the presets.")
    ] = None,
    option: OptionsOption = None,
    rules_file: RulesOption = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            metavar="FILE",
            help="Write these rules as a house-rules file: the base preset and the rules the options change.",
        ),
    ] = None,
) -> None:
    """Print the rules of a preset (or a rules file) in plain words, or list the presets."""
    out = console()
    with clear_errors():
        if preset is None and rules_file is None:
            if option or save:
                raise UsageError("name a preset (like `eights rules classic`) or give --rules FILE")
            table = Table(show_header=False, show_edge=False, box=None, padding=(0, 2))
            for name in PRESETS:
                table.add_row(Text(name, style="bold"), load_preset(name).title)
            out.print("Presets:")
            out.print(table)
            out.print("Show one with `eights rules PRESET`.")
            return
        rules = resolve_rules(preset, rules_file, option)
        if save is not None:
            save.write_text(rules.to_toml(base=preset, file=str(save)), encoding="utf-8")
    out.print(Text(heading(rules), style="bold"))
    base, changes = rules.changes(preset)
    if rules_file is not None:
        changed = f"changes from {base}: {', '.join(changes)}" if changes else f"the {base} preset as it stands"
        out.print(Text(f"House rules from {rules_file}: {changed}."))
    elif changes:
        out.print(Text(f"Changed from {base} by the options: {', '.join(changes)}."))
    for section in describe(rules):
        out.print()
        out.print(Text(section.title, style="bold underline"))
        if out.is_terminal:
            # A hanging indent where lines wrap.
            grid = Table.grid(padding=(0, 1))
            grid.add_column(width=1)
            grid.add_column()
            for line in section.lines:
                grid.add_row("-", styled(line))
            out.print(grid)
        else:
            for line in section.lines:
                out.print(styled(f"- {line}"))
    if save is not None:
        out.print()
        out.print(Text(f"Saved the rules to {save}; play them with --rules {save}."))
