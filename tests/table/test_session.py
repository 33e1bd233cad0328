"""A table's config (eights.table.session): the seats `eights play` fills from its options."""

from __future__ import annotations

import pytest

from eights.table.session import HUMAN, UsageError, build_config


def test_bots_fill_the_seats_after_the_person():
    config = build_config("derange", players=4, bots="normal,hard,expert")
    assert config.seats == (HUMAN, "normal", "hard", "expert")
    assert config.names()[0] == "You"
    assert build_config("classic", bots="easy", players=3).seats == (HUMAN, "easy", "easy")
    assert build_config("classic", bots="hard,easy").seats == (HUMAN, "hard", "easy")
    hot_seat = build_config("classic", humans=2, players=3)
    assert hot_seat.seats == (HUMAN, HUMAN, "normal")
    assert hot_seat.names()[:2] == ("Player 1", "Player 2")
    with pytest.raises(UsageError):
        build_config("classic", humans=3, players=2)
