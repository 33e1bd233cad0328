"""Every example of docs/research.md runs as written (the research extra): PettingZoo, the evaluation against
the computer levels, Gymnasium, the batched environment and OpenSpiel with its bots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.extras import need

need("pettingzoo", "research")
need("pyspiel", "research")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "research.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.DOTALL)


def test_the_page_has_its_examples() -> None:
    assert len(EXAMPLES) >= 6
    assert any("BatchEnv" in code for code in EXAMPLES) and any("SingleSeatEnv" in code for code in EXAMPLES)


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_an_example_runs(code: str) -> None:
    exec(compile(code, str(PAGE), "exec"), {"__name__": "__example__"})
