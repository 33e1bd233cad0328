"""The phases of a turn: what kind of choice the seat to act faces, as numbers (the game's own) and as
names (``PHASES``, what views and people see)."""

from __future__ import annotations

from typing import Final

PLAY_PHASE: Final = 0  # play, draw or pass
SUIT_PHASE: Final = 1  # a wild was laid: its player names a suit
DRAWN_PHASE: Final = 2  # a drawn card is playable: play it or pass (draw one, may play)
FOLLOW_PHASE: Final = 3  # after a 3 or 10 (derange): more of its rank, or a follow-me card
FOLLOW_DRAWN_PHASE: Final = 4  # the card drawn to follow does follow: it must be played
OVER_PHASE: Final = 5
JACK_PHASE: Final = 6  # after a queen: the seat to act drops its jacks, one at a time
BURY_PHASE: Final = 7  # four in a row: the seat to act buries a card
CHOOSE_DRAW_PHASE: Final = 8  # after a 5: its player chooses who draws
CHOOSE_SWAP_PHASE: Final = 9  # after a 7: its player chooses whom to swap with
EXTRA_PHASE: Final = 10  # after a 10: its player plays one more card, or passes when they cannot
PHASES = (
    "play",
    "name_suit",
    "play_drawn",
    "follow",
    "follow_drawn",
    "over",
    "drop_jacks",
    "bury",
    "choose_draw",
    "choose_swap",
    "extra_card",
)
