"""What a person types at the table, read as a move (eights.table.prompts)."""

from __future__ import annotations

import pytest

from eights.cards import Card
from eights.engine import Draw, Pass, Play
from eights.table.prompts import parse_move


def test_typed_moves_are_numbers_or_action_texts():
    legal = (Play(Card("8H")), Draw())
    assert parse_move("2", legal) == Draw()
    assert parse_move("8h", legal) == Play(Card("8H"))
    assert parse_move("play 7C", legal) == Play(Card("7C"))  # not legal: the engine will say why
    assert str(parse_move("suit hearts", legal)) == "suit H"
    assert str(parse_move("choose 2", legal)) == "choose 2"
    assert str(parse_move("bury 7C", legal)) == "bury 7C"
    assert str(parse_move("drop JH", legal)) == "play JH"
    assert parse_move("pass", legal) == Pass()
    with pytest.raises(ValueError, match="choose 1-2"):
        parse_move("3", legal)
