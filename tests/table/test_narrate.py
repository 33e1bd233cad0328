"""The game's words for a new player (issue 23): prompts that say what they ask, narration that
groups repeats and says each rule the first time it acts, a header that fits 80 columns, and the
committed transcripts of a whole match of each preset."""

from __future__ import annotations

import asyncio
import importlib.util
import io
import itertools
import re
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from textual.widgets._header import HeaderTitle

from eights.bots import Hint, make_bot
from eights.cards import Card
from eights.engine import DRAW, Game, Play, View, parse_action, view
from eights.rules import load_preset
from eights.rules.ruleset import PRESETS
from eights.table.lines import Line
from eights.table.narrator import Narrator
from eights.table.phrases import action_words
from eights.table.prompts import prompt_words
from eights.table.session import HUMAN, YOU, PlayConfig, Session, build_config
from eights.tui.app import EightsApp
from eights.tui.plain import run_plain
from eights.tui.screens.match_end import MatchEndScreen
from eights.tui.screens.table import TableScreen
from eights.tui.widgets import GameLog
from eights.web.tableview import table_json
from tests.support.scripting import scripted

ROOT = Path(__file__).resolve().parents[2]
INSTANT = 5
NAMES = ("Ada", "Bram", "Cleo", "Dev")


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("transcripts", ROOT / "scripts" / "transcripts.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def plain(game: Game, seats: tuple[str, ...], typed: str = "") -> str:
    """What ``eights play --plain`` prints for this game (people type ``typed``)."""
    out = io.StringIO()
    run_plain(Session(PlayConfig(game.rules, seats, seed=0), game), io.StringIO(typed), out)
    return out.getvalue()


def watched(preset: str, seed: int = 1, players: int = 4) -> str:
    """A whole match of computer players in plain text."""
    out = io.StringIO()
    run_plain(Session(build_config(preset, players=players, bots="normal", humans=0, seed=seed)), io.StringIO(), out)
    return out.getvalue()


def narrated(game: Game, viewer: int | None = None) -> list[str]:
    names = tuple(YOU if seat == viewer else NAMES[seat] for seat in range(game.players))
    return [line.text for line in Narrator(game.rules, names, viewer).lines(game.log or [])]


def act(game: Game, *moves: tuple[int, str]) -> Game:
    for seat, text in moves:
        game.play(parse_action(text), seat=seat)
    return game


def bot_match(preset: str, seed: int, players: int = 4) -> Game:
    game = Game(load_preset(preset), players, seed)
    bots = [make_bot("easy", seed * 10 + seat) for seat in range(players)]
    while not game.is_over:
        seat = game.to_act
        game.play(bots[seat].choose(view(game, seat)), seat=seat)
    return game


# ----- prompts --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "card", "asked", "moves"),
    [
        (
            "5D 9C 4S 4H 6H 10C",
            "5D",
            "Your 5♦: choose who draws 1 card (any player, yourself included).",
            ["draw 1 card yourself (seat 0, 5 cards)", "make Bram draw 1 card (seat 1, 6 cards)"],
        ),
        (
            "7S 9C 4S 4H 6H 10C",
            "7S",
            "Your 7♠: choose an opponent to swap with (each of you takes one random card from the other's hand, "
            "unseen).",
            ["swap a random card with Bram (seat 1, 6 cards)"],
        ),
    ],
)
def test_the_plain_choose_prompt_says_what_the_choice_is_for(hand, card, asked, moves):
    game = scripted("baby-eating", hands=[hand, "3C 4C 6C 7C 9S 10S"], starter="7D", stock="KS QH JH", dealer=1)
    text = plain(game, (HUMAN, "easy"), f"{card}\nquit\ny\n")
    after = text[text.rindex("Moves:") :]
    assert asked in after, after
    question = after.index(asked)
    assert question < after.index("You, your move:")
    listed = after[: after.index(asked)]
    for move in moves:
        assert f". {move}  [choose " in listed
    assert "choose Bram" not in listed


#: What the prompt of each phase must ask for, in words.
ASKS = {
    "name_suit": "Name the suit",
    "choose_draw": "choose who draws",
    "choose_swap": "choose an opponent to swap with",
    "drop_jacks": "Drop yours",
    "bury": "bury under the discard pile",
    "play_drawn": "You drew",
    "follow_drawn": "which follows: play it",
    "follow": "follow",
    "extra_card": "one more card",
}
KEYS = ("(Enter)", "(d)", "(p)", "space")


def test_every_prompt_says_what_it_asks_without_the_terminal_keys():
    seen = set()
    for preset in PRESETS:
        for seed in range(3):
            game = Game(load_preset(preset), 4, seed)
            bots = [make_bot("easy", seed * 10 + seat) for seat in range(4)]
            while not game.is_over:
                seat = game.to_act
                seen_now = view(game, seat)
                words = prompt_words(seen_now, NAMES, keys=False)
                assert not any(key in words for key in KEYS), words
                if seen_now.chain:
                    assert "chain" in words, words
                elif seen_now.phase == "play" and seen_now.suit_named and seen_now.active_suit is not None:
                    # only the named suit plays, or a wild: never "matches" the wild on top
                    suit = seen_now.active_suit
                    assert f"{suit.symbol} card ({suit.name.lower()} were named)" in words, words
                    assert "matches" not in words, words
                elif seen_now.phase == "play":
                    assert re.match(r"(Your turn: play a card that matches|No card matches|Nothing to play)", words)
                else:
                    assert ASKS[seen_now.phase] in words, (seen_now.phase, words)
                seen.add(seen_now.phase)
                for action in seen_now.legal:
                    said = action_words(action, seen_now, NAMES)
                    assert not said.startswith("choose "), said  # a choice says what it is for
                game.play(bots[seat].choose(seen_now), seat=seat)
    assert seen == {*ASKS, "play"}


def test_the_terminal_prompt_keeps_its_keys():
    game = scripted("classic", hands=["5C 9H 3D 4D 6D", "9D 9S 2H 10S KD"], starter="7S", stock="KS QH", dealer=1)
    assert prompt_words(view(game, 0), NAMES) == "No card matches 7♠: draw a card (d)."
    assert prompt_words(view(game, 0), NAMES, keys=False) == "No card matches 7♠: draw a card."


def named(game: Game, *moves: tuple[int, str]) -> View:
    """The view of the seat to act once ``moves`` are played."""
    act(game, *moves)
    return view(game, game.to_act)


def test_after_an_8_names_a_suit_the_prompt_asks_for_that_suit_not_the_8():
    # Hearts named on 8♣: Bram's 5♣ matches the 8's suit, but only hearts or another 8 play (issue 40, item 4).
    game = scripted("classic", hands=["8C 4S 6S", "9H 5C 3D"], starter="7C", stock="KS QD JD", dealer=1)
    seen = named(game, (0, "8C"), (0, "suit H"))
    assert [str(a) for a in seen.legal] == ["play 9H", "draw"]
    asked = "Your turn: play a ♥ card (hearts were named) or an 8, or draw a card."
    assert prompt_words(seen, NAMES, keys=False) == asked
    session = Session(PlayConfig(game.rules, ("easy", HUMAN), seed=0), game)
    assert table_json(session, 1)["prompt"] == asked  # the web table says the same
    game = scripted("classic", hands=["8C 4S 6S", "2D 5C 3D"], starter="7C", stock="KS QD JD", dealer=1)
    seen = named(game, (0, "8C"), (0, "suit H"))
    assert prompt_words(seen, NAMES, keys=False) == "No ♥ card (hearts were named) and no 8: draw a card."
    assert prompt_words(seen, NAMES) == "No ♥ card (hearts were named) and no 8: draw a card (d)."


def test_after_a_joker_names_a_suit_the_prompt_names_every_wild_of_the_preset():
    # Baby-eating: 8s and jokers are wild; the JK makes Bram draw 4 first, and his turn goes on.
    game = scripted("baby-eating", hands=["JK 4C 6C", "9H 5C 9D"], starter="7C", stock="KS QD JD 6S 4S", dealer=1)
    seen = named(game, (0, "JK"), (0, "suit H"))
    assert prompt_words(seen, NAMES, keys=False) == "Your turn: play a ♥ card (hearts were named) or an 8 or a joker."
    game = scripted("baby-eating", hands=["JK 4C 6C", "2D 5C 9D"], starter="7C", stock="KS QD JD 6S 4S", dealer=1)
    seen = named(game, (0, "JK"), (0, "suit H"))
    assert prompt_words(seen, NAMES, keys=False) == "No ♥ card (hearts were named) and no 8 or joker: draw a card."


def test_under_the_guarantee_jokers_hold_a_seat_that_cannot_match_is_told_why_it_passes():
    game = scripted("baby-eating", ["GJ JC 4D 5D", "JK JH 9C 4H"], "6H", "2D 2S 3D 3S 7C 7D 10C 10D", dealer=0)
    seen = named(game, (1, "play JK"), (1, "suit H"), (0, "play GJ"), (0, "suit S"))
    assert seen.guarantee_hoarder == 1 and [str(a) for a in seen.legal] == ["pass"]
    assert prompt_words(seen, NAMES) == (
        "No ♠ card (spades were named) and no 8 or joker, so the Guarantee Joker's hold skips you: pass (p)."
    )


def test_a_follow_me_after_a_named_suit_still_follows_the_top_cards_suit():
    # Derange: a 3 played on hearts named by an 8 starts follow-me in the 3's own suit, as the engine has it.
    game = scripted("derange", hands=["8C 4S 6S 2S", "3H 3D 5D KC"], starter="7C", stock="KS QD JD 9S", dealer=1)
    seen = named(game, (0, "8C"), (0, "suit H"), (1, "3H"))
    assert seen.phase == "follow" and seen.active_suit is not None
    words = prompt_words(seen, NAMES, keys=False)
    assert words.startswith("Follow-me: lay another 3, or follow with ♥ hearts or a wild"), words


# ----- grouping repeats ---------------------------------------------------------------------------


def test_one_players_draws_in_a_row_are_one_line():
    text = watched("classic")
    assert "Cleo draws 7 cards." in text  # seven single draws in one turn
    lines = text.splitlines()
    for before, after in itertools.pairwise(lines):
        drew = re.match(r"(\w+) draws? \d+ cards?\b", before)
        assert not (drew and after.startswith(f"{drew.group(1)} draw")), (before, after)


def test_passes_in_a_row_are_one_line_and_a_blocked_round_says_why():
    text = watched("classic")
    assert (
        "Dev, Ada and Bram cannot play or draw, and pass — there is no reshuffle: once the stock is empty, a player "
        "who cannot play passes."
    ) in text
    assert "Dev, Ada, Bram and Cleo cannot play or draw, and pass.\n" in text
    assert "Round 1 over: Ada and Bram won the blocked round — every player passed in turn, so the round is" in text
    assert " passes." not in text.replace("cannot play passes.", "")


def test_the_same_hint_reason_is_not_said_twice_in_a_row():
    game = scripted("classic", hands=["5C 9H 3D 4D 6D", "9D 9S 2H 10S KD"], starter="7S", stock="KS QH", dealer=1)
    text = plain(game, (HUMAN, "easy"), "hint\nhint\nquit\ny\n")
    hints = [line for line in text.splitlines() if line.startswith("Hint:")]
    assert hints == ["Hint: draw: no card plays.", "Hint: draw a card (for the same reason as the last hint)."]


def test_a_hint_with_a_new_reason_says_it():
    game = scripted("classic", hands=["5C 9H 3D 4D 6D", "9D 9S 2H 10S KD"], starter="7S", stock="KS QH", dealer=1)
    narrator = Narrator(game.rules, NAMES, 0)
    seen = view(game, 0)
    assert narrator.hint_words(Hint(DRAW, "draw: no card plays"), seen) == "Hint: draw: no card plays."
    play = Play(game.hands[0][0])
    said = narrator.hint_words(Hint(play, "play 5♣: you keep 2 more clubs"), seen)
    assert said == "Hint: play 5♣: you keep 2 more clubs."


def test_a_hint_for_the_only_legal_move_says_so_and_gives_no_strategy():
    game = scripted("classic", hands=["5C 9H 3D", "9D 9S 2H"], starter="7C", stock="", dealer=1)
    seen = view(game, 0)
    assert seen.legal == (Play(Card("5C")),)
    hint = make_bot("normal", 1).hint(seen)
    assert Narrator(game.rules, NAMES, 0).hint_words(hint, seen) == "Hint: play 5♣ (your only legal move)."


# ----- each rule explained when it first acts -----------------------------------------------------


def test_a_starter_turned_again_says_why():
    game = scripted("derange", hands=["5C 9H 3D", "9D 9S 2H", "4C 4D 4H"], starter="10S 2H", stock="KS QH JD 7C")
    lines = narrated(game)
    assert lines[1] == (
        "The starter is 10♠; the dealer turns 2♥ onto it — while the starter is a 3 or 10, the dealer turns another "
        "card onto it."
    )


def test_a_buried_starter_says_why():
    game = scripted("classic", hands=["5C 9H 3D 4D 6D", "9D 9S 2H 10S KD"], starter="8S 7S", stock="KS QH JD")
    assert narrated(game)[1] == (
        "The starter is 8♠, buried in the middle of the stock; the next card, 7♠, is the starter — a starter 8 is "
        "buried and the next card turned."
    )


def test_a_10s_forced_draw_and_its_player_having_no_second_card_do_not_read_as_a_contradiction():
    # Bram's 10♠ makes Cleo draw 1 card and gives Bram one more card, which Bram does not have.
    game = scripted("baby-eating", hands=["5D 9C 4D", "10S 9H 3H", "4C 6C 7C"], starter="7S", stock="KS QH JH JD")
    act(game, (1, "play 10S"), (1, "pass"))
    lines = narrated(game)
    assert lines[2:] == [
        "Bram plays 10♠: Cleo draws 1 card — a 10 makes the next player draw 1 card, and they still play their "
        "turn; it also gives its player one more card to play, if they can.",
        "Bram plays no extra card.",
    ]
    assert not any("must draw" in line or "passes" in line for line in lines)


@pytest.mark.parametrize(
    ("preset", "first"),
    [
        ("classic", ["Dev plays 8♦ and names hearts ♥ — an 8 is wild:"]),
        (
            "action",
            [
                "Cleo plays Q♠: Dev is skipped — a Q skips the next player.",
                "Bram plays 2♦: Cleo draws 2 cards and loses the turn — a 2 makes the next player draw 2 cards and "
                "lose the turn.",
                "Ada plays A♣: play now goes counter-clockwise — an A reverses the direction of play.",
            ],
        ),
        (
            "race",
            [
                "Bram plays 2♦: the chain stands at 2 cards — a 2 starts or grows a chain:",
                "Bram plays J♠: Cleo is skipped — a J skips the next player.",
                "The starter is 4♥: play now goes counter-clockwise — a starter with an effect acts as if the dealer "
                "had played it.",
            ],
        ),
        (
            "derange",
            [
                "Cleo plays 10♥ and must follow it — a 3 or 10 is a follow-me card:",
                "The starter is 3♠; the dealer turns 4♣ onto it — while the starter is a 3 or 10,",
                "Round 1 over: Ada went out — every other player adds the value of the cards left in their hand",
            ],
        ),
        (
            "baby-eating",
            [
                "Dev plays 3♦ — a 3 cancels the effect of the next card played on it",
                "Cleo plays 6♥: four in a row! Everyone, starting with Cleo, buries a card under the discard pile — "
                "when a fourth card of one number lands on three of that number",
                "Cleo buries 2♠, Dev 9♣, Ada J♣, Bram 5♥ under the discard pile.",
                "Cleo plays K♥: the Suicide King!",
            ],
        ),
    ],
)
def test_each_rule_is_explained_the_first_time_it_acts_and_never_again(preset, first):
    lines = watched(preset).splitlines()
    for start in first:
        assert any(line.startswith(start) for line in lines), start
    said: set[str] = set()
    for line in lines:
        if " — " in line:
            clauses = line.split(" — ", 1)[1].rstrip(".").split("; ")
            assert not said & set(clauses), line
            said.update(clauses)


def test_the_guarantee_joker_and_its_hold_are_explained_when_they_first_act():
    game = scripted(
        "baby-eating",
        hands=["4S 5S 6S 5H", "JK 4C 5C 6C", "GJ 4D 5D 6D"],
        starter="9H",
        stock="2C 2D 2H 2S 10C 10D 10S 7C 7D AH",
    )
    act(game, (1, "play JK"), (1, "suit H"), (2, "play GJ"), (2, "suit S"), (0, "play 5S"), (0, "choose 2"))
    lines = narrated(game, viewer=0)
    assert lines[3].startswith(
        "Cleo plays GJ and names spades ♠: the Guarantee Joker! Bram takes the whole draw pile (6 cards); you draw 4 "
        "cards ("
    )
    assert lines[3].endswith(
        ") from Bram's hand — GJ laid straight on the other joker by another player makes that joker's player take "
        "the draw pile; until the piles hold 3 cards per player again, a player who cannot match is skipped, and "
        "every forced draw comes at random from that hand."
    )
    assert lines[4].startswith("You play 5♠ and choose Cleo to draw 1 card from Bram's hand — a 5 lets its player")


def test_under_the_hold_a_player_who_cannot_match_is_skipped_in_words():
    game = scripted(
        "baby-eating", hands=["GJ JC 4D 5D", "JK JH 9C 4H"], starter="6H", stock="2D 2S 3D 3S 7C 7D 10C 10D"
    )
    act(game, (1, "play JK"), (1, "suit H"), (0, "play GJ"), (0, "suit S"))
    while game.legal_actions() == [parse_action("pass")]:
        act(game, (game.to_act, "pass"))
    held = [line for line in narrated(game) if re.match(r"\w+ cannot match", line)]
    assert held and held[0].endswith(
        "cannot match and is skipped — while the Guarantee Joker holds, a player who cannot match is skipped instead "
        "of drawing."
    )


def test_a_card_that_only_its_own_rank_matches_says_6_and_9_are_one_number():
    lines = watched("baby-eating").splitlines()
    assert "Ada plays 9♠ — 6 and 9 count as the same number: any 6 plays on any 9 and the other way round." in lines


def test_two_players_a_reverse_gives_another_turn_in_words():
    game = scripted("action", hands=["QC AC 3C 5H", "9D 9S 2H 6D"], starter="7C", stock="KS QH JD 7D 5S", dealer=1)
    act(game, (0, "play QC"), (0, "play AC"))
    assert narrated(game)[2:] == [
        "Ada plays Q♣: Bram is skipped — a Q skips the next player; with two players, its player plays again.",
        "Ada plays A♣ and plays again — an A reverses the direction of play; with two players, its player plays again.",
    ]


# ----- who may read what ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["derange", "baby-eating"])
def test_the_narration_shows_a_drawn_card_only_to_its_drawer(preset):
    game = bot_match(preset, 2)
    for line in narrated(game):
        assert not re.search(r"draws? (\d+ cards?|the chain: \d+ cards?) \(", line), line
        assert "your new hand" not in line and "you give" not in line
    for line in narrated(game, viewer=0):
        for match in re.finditer(r"(\w+) (?:to )?draws? (\d+ cards?|the chain: \d+ cards?) \(", line):
            assert match.group(1) in ("You", "you", "choose"), line  # "You ... choose to draw": your own


# ----- the same lines however the events come -----------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_the_narration_is_the_same_fed_whole_or_one_event_at_a_time(preset):
    events = bot_match(preset, 4).log or []
    whole = Narrator(load_preset(preset), NAMES).lines(events)
    narrator = Narrator(load_preset(preset), NAMES)
    done: list[Line] = []
    for i, event in enumerate(events):
        done += narrator.feed([event])
        shown = [line.text for line in done] + ([narrator.pending.text] if narrator.pending else [])
        if i % 50 == 0:  # what a screen shows at any moment is the start of the whole narration
            assert shown == [line.text for line in Narrator(load_preset(preset), NAMES).lines(events[: i + 1])]
    assert done + narrator.flush() == whole


# ----- the terminal game ------------------------------------------------------------------------------


def run_app(app: EightsApp, check: Callable[[EightsApp], None], ready: Callable[[EightsApp], bool], size) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            for _ in range(5000):
                if ready(app):
                    break
                await pilot.pause(0.002)
            else:
                raise AssertionError("the app never reached the expected state")
            check(app)

    asyncio.run(main())


def table(app: EightsApp) -> TableScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, TableScreen))


def test_the_table_header_fits_in_80_columns():
    config = build_config("derange", players=4, seed=281474976710655, speed=INSTANT)
    app = EightsApp(config)

    def check(app: EightsApp) -> None:
        title = app.screen.query_one(HeaderTitle)
        text = str(title.render())
        assert len(text) <= title.content_size.width, (text, title.content_size.width)
        assert text.startswith("Derange Order of Eight — round 1/15 · 8 cards")

    def ready(app: EightsApp) -> bool:
        screen = app.screen
        return isinstance(screen, TableScreen) and screen.session.game.to_act == 0 and bool(screen.sub_title)

    run_app(app, check, ready, (80, 24))


def test_the_header_says_everything_when_there_is_room():
    config = build_config("derange", players=4, seed=7, speed=INSTANT)
    app = EightsApp(config)

    def check(app: EightsApp) -> None:
        assert (app.screen.title, app.screen.sub_title) == (
            "Derange Order of Eight",
            "round 1 of 15 · 8 cards each · seed 7 · speed instant",
        )

    run_app(app, check, lambda app: isinstance(app.screen, TableScreen) and bool(app.screen.sub_title), (130, 40))


def test_the_terminal_log_of_a_watched_match_is_its_narration():
    # Draws in a row are one line that grows in the log: at the end it reads as the narration does.
    config = build_config("classic", players=4, humans=0, seed=1, speed=INSTANT)
    app = EightsApp(config)

    def check(app: EightsApp) -> None:
        screen = table(app)
        shown = " ".join(line.text for line in screen.query_one(GameLog).lines).split()
        names = screen.session.names
        lines = Narrator(screen.session.rules, names).lines(screen.session.game.log or [])
        assert shown == " ".join(line.text for line in lines).split()

    run_app(app, check, lambda app: isinstance(app.screen, MatchEndScreen), (130, 45))


# ----- the transcripts ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_the_committed_transcripts_are_what_the_script_makes_today(preset):
    script = load_script()
    path = script.path_for(preset)
    assert path.exists(), f"{path} is missing: run scripts/transcripts.py"
    assert path.read_text(encoding="utf-8") == script.transcript(preset), (
        f"{path} is stale: run scripts/transcripts.py and commit it"
    )
    assert script.transcript(preset) == watched(preset)


def test_a_drawn_card_that_does_not_play_a_kept_one_and_a_queen_without_jacks_are_said():
    assert "Bram draws 1 card and cannot play it — a player who cannot play draws one card" in watched("action")
    assert "Cleo draws 1 card and cannot follow with it." in watched("derange")
    assert "Dev plays Q♠: nobody holds a jack." in watched("baby-eating")
    game = scripted("action", hands=["5C 9H 3D", "9D 9S 2H", "4C 4D 4H"], starter="7S", stock="KS QH JD", dealer=2)
    act(game, (0, "draw"), (0, "pass"))
    assert narrated(game)[2:] == [
        "Ada draws 1 card — a player who cannot play draws one card, and may play it if it matches; otherwise the "
        "turn ends.",
        "Ada keeps the drawn card and passes.",
    ]


def test_a_team_round_says_who_went_out_and_that_the_team_wins():
    game = scripted(
        "baby-eating", hands=["9C", "9D", "4C", "5S"], starter="9H", stock="KS QH JD 7C 7D", dealer=3, teams=True
    )
    act(game, (0, "play 9C"))
    assert "Round 1 over: Ada went out, so Ada and Cleo win as a team." in narrated(game)
    assert "Round 1 over: You went out, so you and Cleo win as a team." in narrated(game, viewer=0)
