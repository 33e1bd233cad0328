"""The rule set: one frozen, validated value that every preset is a point of.

Presets are TOML files in ``presets/``; a house-rules file names a ``base`` preset
and overrides fields by name. Options given on the command line
(``stacking=true``, ``packs=2``, ``rounds=8,6,4``) override fields the same way.
Everything that cannot be played is refused here, before any card is dealt.

Kept whole, past the package's 600 lines, for a reason: ``RuleSet`` is one record of every rule (about a
hundred fields, each with its comment) and the one check that they make a game, and its own methods read
the presets (``changes``, ``closest_preset``, ``to_toml``), so the files it is loaded from and the option
text it is changed by live with it; split, they would import each other.
"""

from __future__ import annotations

import difflib
import json
import re
import reprlib
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any

from eights.cards import ALL_CARDS, CARD_COUNT, RANKS, Card, CardError, parse_rank
from eights.words import count_words

PRESETS = ("classic", "action", "race", "derange", "baby-eating")

DRAW_POLICIES = {
    "one_may_play": "draw one card; if it is playable you may play it, otherwise the turn ends",
    "one_ends_turn": "draw one card and the turn ends",
    "until_playable": "draw one card at a time until you choose to play or cannot draw",
    "up_to_n": "draw up to draw_limit cards, then you may pass",
}
SCORING_MODES = {
    "winner_collects": "the player who goes out collects the value of every other hand",
    "own_hand": "every other player adds the value of their own hand",
}
#: Effect kinds, in words. Those with ``:N`` take a count (``draw:2``); ``skip`` may (``skip:2``).
EFFECTS = {
    "wild": "wild: playable on anything; its player names the suit",
    "skip": "the next player is skipped (skip:N skips N other players)",
    "reverse": "the direction of play reverses",
    "draw:N": "the next player draws N and loses the turn",
    "penalty:N": "the next player draws N and still plays their turn",
    "chain:N": "the next player plays another such card or draws the chain, N cards per card",
    "follow": "follow-me: more of its rank, then a card of its suit or a wild",
    "cancel": "the next card played on it has no effect (a wild still names its suit)",
    "choose_draw:N": "its player chooses any player, who draws N",
    "swap": "its player chooses an opponent; each takes a random card from the other",
    "extra": "its player plays one more card, if they can",
    "jack_drop": "every player drops all their jacks, in turn order, ending with its player",
    "ally": "in a team game the turn passes straight to the player's ally instead",
    "suicide": "every other card is shuffled and its player deals 6 to each player",
}
EFFECT_KINDS = tuple(name.partition(":")[0] for name in EFFECTS)
_COUNTED = {"draw", "penalty", "chain", "choose_draw"}
STARTER_EFFECTS = ("wild", "skip", "reverse", "draw", "penalty", "chain", "cancel")
EXPANDED_DECK = ("false", "true", "auto")


class RulesError(ValueError):
    """A rule set that cannot be played: names the field and the valid values."""


@dataclass(frozen=True)
class RuleSet:
    """Every knob of the game. Presets and house rules are values of this type."""

    name: str = "custom"
    title: str = "Crazy Eights"
    source: str = ""
    #: Number of 52-card packs; 0 means the fewest that seat the players.
    packs: int = 1
    #: (packs, fewest players, most players) for each pack count allowed.
    seats: tuple[tuple[int, int, int], ...] = ((1, 2, 7),)
    jokers: int = 0
    #: A second pack less ``expanded_remove``: "true", "false", or "auto" (from ``expanded_from`` players).
    expanded_deck: str = "false"
    expanded_from: int = 0
    expanded_remove: tuple[str, ...] = ()
    expanded_max_players: int = 0
    deal: int = 5
    #: Hand size with two players, and with more than one pack (0: as ``deal``).
    deal_two_players: int = 0
    deal_extra_packs: int = 0
    #: A schedule of hand sizes, one per round; overrides ``deal``.
    rounds: tuple[int, ...] = ()
    #: The schedule used when ``short_rounds`` is set (derange's 4-1-4).
    short_rounds: bool = False
    short_schedule: tuple[int, ...] = ()
    starter_bury: tuple[str, ...] = ()
    starter_turn_over: tuple[str, ...] = ()
    #: Effect kinds a starter card carries out as if the dealer had played it.
    starter_effects: tuple[str, ...] = ()
    #: A starter reverse makes the dealer play first (derange's K).
    starter_reverse_dealer_first: bool = False
    draw: str = "until_playable"
    draw_limit: int = 0
    draw_at_will: bool = False
    #: Cards that do not force a play: a player whose only playable cards are these may draw.
    forced_play_exempt: tuple[str, ...] = ()
    reshuffle: bool = True
    #: Card pattern (a rank like ``8``, or a card like ``KH``) to its effects.
    effects: tuple[tuple[str, tuple[str, ...]], ...] = (("8", ("wild",)),)
    stacking: bool = False
    #: D26: with two players a skip or reverse gives the same player another turn.
    two_player_extra_turn: bool = True
    #: Going out on a chain card still makes the next player draw the chain (derange).
    chain_survives_out: bool = False
    #: A hand emptied by a follow-me card is not out until a follow-me card is laid (D42).
    follow_blocks_out: bool = False
    #: Cards of these ranks count as one number, for matching and four in a row (6 and 9).
    same_number: tuple[str, ...] = ()
    #: Four cards of one number in a row: every player buries a card (D30).
    four_in_a_row: bool = False
    #: The Guarantee Joker combo: GJ directly on the other joker (D31).
    guarantee_joker: bool = False
    #: Teams of two, sitting opposite (D32).
    teams: bool = False
    #: A blocked round goes to the fewest cards (else the lowest hand value) (D5).
    blocked_fewest_cards: bool = False
    scoring: str = "winner_collects"
    score_values: tuple[tuple[str, int], ...] = ()
    score_keeping: bool = True
    target: int = 0
    target_per_player: int = 0
    hands: int = 0
    lowest_wins: bool = False
    #: Safety cap: a round still running after this many actions ends, reason "action cap".
    max_actions: int = 10000
    notes: tuple[str, ...] = field(default=(), compare=False)
    #: The options a new-game screen shows first for these rules (the rest under "more options").
    shown_options: tuple[str, ...] = field(default=(), compare=False)

    # ----- derived values -------------------------------------------------

    @property
    def schedule(self) -> tuple[int, ...]:
        """The hand sizes of the rounds, when the preset plays a schedule."""
        if self.short_rounds:
            return self.short_schedule
        return self.rounds

    @property
    def min_players(self) -> int:
        return min(lo for _, lo, _ in self.seats)

    @property
    def max_players(self) -> int:
        return max(hi for _, _, hi in self.seats)

    def packs_for(self, players: int) -> int:
        """The packs a game of ``players`` uses.

        :raises RulesError: when that many players cannot sit at this rule set.
        """
        self.check_players(players)
        if self.packs:
            return self.packs
        return min(p for p, lo, hi in self.seats if lo <= players <= hi)

    def hand_size(self, players: int, round_index: int = 0) -> int:
        """Cards dealt to each player in a round (0-based ``round_index``)."""
        schedule = self.schedule
        if schedule:
            return schedule[round_index % len(schedule)]
        packs = self.packs or min(p for p, lo, hi in self.seats if lo <= players <= hi)
        if packs > 1 and self.deal_extra_packs:
            return self.deal_extra_packs
        if players == 2 and self.deal_two_players:
            return self.deal_two_players
        return self.deal

    def pack_size(self, players: int) -> int:
        return 52 * self.packs_for(players) + self.jokers

    def expanded_for(self, players: int) -> bool:
        """Whether a game of ``players`` uses the expanded deck."""
        if self.expanded_deck == "auto":
            return bool(self.expanded_from) and players >= self.expanded_from
        return self.expanded_deck == "true"

    def pack(self, players: int) -> list[int]:
        """The card ids of the full pack for ``players``, in a fixed order (before shuffling)."""
        packs = self.packs or min((p for p, lo, hi in self.seats if lo <= players <= hi), default=1)
        cards = list(range(52)) * packs + [52, 53][: self.jokers]
        if self.expanded_for(players):
            removed = {c for pattern in self.expanded_remove for c in _pattern_cards(pattern)}
            cards += [c for c in range(54) if c not in removed]
        return cards

    def pack_counts(self, players: int | None = None) -> dict[Card, int]:
        """How many copies of each card the pack holds, in card order; cards it lacks are left out.

        With ``players``, the pack a game of that many uses (``pack``); without, the most
        copies of each card any table these rules seat can hold (the largest pack), so a
        hand that fits no table is one that cannot exist.

        :raises RulesError: when ``players`` cannot play these rules.
        """
        if players is not None:
            self.check_players(players)
            tables = [players]
        else:
            tables = [n for n in range(self.min_players, self.max_players + 1) if self._seats_ok(n)]
        counts = [0] * CARD_COUNT
        for n in tables:
            pack = [0] * CARD_COUNT
            for cid in self.pack(n):
                pack[cid] += 1
            counts = [max(a, b) for a, b in zip(counts, pack, strict=True)]
        return {ALL_CARDS[cid]: count for cid, count in enumerate(counts) if count}

    def pack_words(self, players: int | None = None) -> str:
        """The pack in words: ``one pack of 52 cards``, ``three packs of 52 cards and two jokers, JK and GJ``.

        Without ``players``, the largest pack the rules use (the one at the largest table they seat).
        """
        if players is None:
            seated = [n for n in range(self.min_players, self.max_players + 1) if self._seats_ok(n)]
            players = max(seated, default=self.min_players)
        packs = self.packs or min((p for p, lo, hi in self.seats if lo <= players <= hi), default=1)
        words = f"{_number(packs)} pack{'s' if packs > 1 else ''} of 52 cards"
        if self.jokers:
            words += " and " + ("one joker, JK" if self.jokers == 1 else "two jokers, JK and GJ")
        if self.expanded_for(players):
            removed = ", ".join(self.expanded_remove)
            words += ", and the expanded deck: a second pack" + (f" less {removed}" if removed else "")
        return words

    def check_hand(self, hand: list[Card] | tuple[Card, ...], players: int | None = None) -> None:
        """Refuse a hand no deal of these rules can give: no cards, or a card more often than the pack holds it.

        Without ``players`` the largest pack the rules use decides (see ``pack_counts``).

        :raises RulesError: naming the card, how often it was given and what the pack holds.
        """
        if not hand:
            raise RulesError("the hand has no cards: name its cards, like 8H KS 10C (a player who is out scores 0)")
        counts = self.pack_counts(players)
        given: dict[Card, int] = {}
        for card in hand:
            given[card] = given.get(card, 0) + 1
        if players is not None:
            whose = f"{self.name}'s pack for {players} players"
        elif len({tuple(self.pack(n)) for n in range(self.min_players, self.max_players + 1)}) > 1:
            whose = f"{self.name}'s largest pack"
        else:
            whose = f"{self.name}'s pack"
        for card, times in given.items():
            held = counts.get(card, 0)
            if times <= held:
                continue
            pack = self.pack_words(players)
            if held == 0:
                jokers = "" if self.jokers or not card.is_joker else ", no jokers"
                raise RulesError(f"{card.pretty()} cannot be in a hand: {whose} holds no {card} ({pack}{jokers})")
            raise RulesError(
                f"{card.pretty()} is given {_times(times)}, but {whose} holds only {_number(held)} ({pack})"
            )

    def _seats_ok(self, players: int) -> bool:
        try:
            self.check_players(players)
        except RulesError:
            return False
        return True

    def check_players(self, players: int) -> None:
        """Refuse a player count that does not fit the packs, or a deal that does not fit.

        :raises RulesError: naming the field and the valid values.
        """
        if self.expanded_for(players) and self.expanded_max_players:
            lo = self.min_players
            if not lo <= players <= self.expanded_max_players:
                raise RulesError(
                    f"players: {players} cannot play {self.name} with the expanded deck; "
                    f"valid: {_span(lo, self.expanded_max_players)}"
                )
        elif self.packs:
            ranges = [(lo, hi) for p, lo, hi in self.seats if p == self.packs]
            if not ranges:
                raise RulesError(f"packs: {self.packs} is not allowed; valid: {self._pack_choices()}")
            lo, hi = ranges[0]
            if not lo <= players <= hi:
                extra = ""
                if self.expanded_max_players and players <= self.expanded_max_players:
                    extra = f" (up to {self.expanded_max_players} with expanded_deck=true)"
                raise RulesError(
                    f"players: {players} cannot play {self.name} with {count_words(self.packs, 'pack')}; "
                    f"valid: {_span(lo, hi)}{extra}"
                )
        elif not any(lo <= players <= hi for _, lo, hi in self.seats):
            raise RulesError(
                f"players: {players} cannot play {self.name}; valid: {_span(self.min_players, self.max_players)}"
            )
        if self.teams and (players % 2 or players < 4):
            raise RulesError(f"teams: {players} players cannot form teams of two; valid: an even number, 4 or more")
        packs = self.packs or min(p for p, lo, hi in self.seats if lo <= players <= hi)
        cards = len(self.pack(players))
        sizes = self.schedule or (self.hand_size(players),)
        biggest = max(sizes)
        if players * biggest + 1 > cards:
            where = "rounds" if self.schedule else "deal"
            most = (cards - 1) // players
            advice = f"with {players} players deal at most {count_words(most, 'card')}"
            if any(p > packs and lo <= players <= hi for p, lo, hi in self.seats):
                advice += ", or use more packs"
            if self.jokers or self.expanded_for(players):
                held = f"the pack ({self.pack_words(players)}) holds {cards}"
            else:
                held = f"{count_words(packs, 'pack')} {'holds' if packs == 1 else 'hold'} {cards}"
            raise RulesError(
                f"{where}: dealing {count_words(biggest, 'card')} to {players} players plus a starter needs "
                f"{players * biggest + 1} cards, but {held}; {advice}"
            )

    def _pack_choices(self) -> str:
        return ", ".join(str(p) for p, _, _ in self.seats) + " (or 0 for the fewest that fit)"

    def match_target(self, players: int) -> int:
        """The score that ends the match, 0 for none."""
        return self.target or self.target_per_player * players

    def points_decide(self, players: int) -> bool:
        """Whether points decide the match (scores kept over several rounds), not only who goes out first."""
        return self.score_keeping and (bool(self.schedule) or self.match_target(players) > 0 or self.hands > 1)

    def effect_table(self) -> dict[int, tuple[str, ...]]:
        """Each card id's effects, a card pattern (``KH``) overriding its rank (``K``)."""
        table: dict[int, tuple[str, ...]] = {}
        for pattern, effects in sorted(self.effects, key=lambda item: _is_card(item[0])):
            for cid in _pattern_cards(pattern):
                table[cid] = effects
        return {cid: eff for cid, eff in table.items() if eff}

    def card_value(self, cid: int) -> int:
        """A card's value in this rule set's scoring table."""
        return self.value_table()[cid]

    def value_table(self) -> tuple[int, ...]:
        values = [0] * 54
        for pattern, value in sorted(self.score_values, key=lambda item: _is_card(item[0])):
            for cid in _pattern_cards(pattern):
                values[cid] = value
        return tuple(values)

    def replace(self, **changes: Any) -> RuleSet:
        """A copy with fields changed, validated.

        :raises RulesError: on an unknown field or a bad value.
        """
        data = self.to_dict()
        data.update(changes)
        return RuleSet.from_dict(data)

    def with_options(self, options: dict[str, str] | list[str]) -> RuleSet:
        """Override fields by name from text values (``stacking=true``, ``rounds=8,6,4``).

        :raises RulesError: on an unknown option or a value of the wrong type.
        """
        if isinstance(options, list):
            options = parse_option_list(options)
        data = self.to_dict()
        for given, text in options.items():
            key = given.strip().lower().replace("-", "_")
            if key not in _FIELDS or key in NOT_OPTIONS:
                raise RulesError(
                    f"unknown option {given.strip()!r}{_did_you_mean(key, option_names())}; "
                    f"valid options: {', '.join(option_names())}"
                )
            if key in TABLE_FIELDS:
                raise RulesError(f"{key} is a table: change it in a rules file (see `eights rules --save`)")
            data[key] = _option_value(key, text)
        return RuleSet.from_dict(data)

    # ----- conversion -----------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "effects":
                value = {pattern: list(effects) for pattern, effects in value}
            elif f.name == "score_values":
                value = dict(value)
            elif f.name == "seats":
                value = [list(row) for row in value]
            elif isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        """Build and validate a rule set from plain data (a TOML table).

        :raises RulesError: naming the field and its valid values.
        """
        if not isinstance(data, dict):
            raise RulesError(f"the rules are {_shown(data)}; expected a table of rules like {{deal = 7}}")
        unknown = [key for key in data if key not in _FIELDS]
        if unknown:
            raise RulesError(_unknown_rule(unknown[0]))
        values: dict[str, Any] = {}
        for name, value in data.items():
            values[name] = _convert(name, value)
        rules = cls(**values)
        rules._validate()
        return rules

    def to_toml(self, base: str | None = None, file: str = "FILE") -> str:
        """The rule set as a house-rules file: ``base = "PRESET"`` and only the rules that differ from it.

        ``base`` is the preset named by the rule set's name, else the preset it differs
        from least. ``load_rules`` reads the file back to an equal rule set. ``file`` is
        the file's name, for the comment that says how to play it.
        """
        base = load_preset(base).name if base is not None else self.closest_preset()
        changed = self._changed_fields(base)
        data = self.to_dict()
        if changed:
            what = f"the {base} preset with these rules changed: {', '.join(changed)}."
        else:
            what = f"the {base} preset as it stands; add a line for each rule you change."
        lines = [
            f"# House rules for eights: {what}",
            f"# Play them with `eights play --rules {file}` (simulate, watch and tournament take --rules too);",
            f"# `eights rules --rules {file}` explains them. Every rule not given here is the {base} preset's.",
            f"base = {_toml_value(base)}",
        ]
        for name in changed:
            if name not in _TABLES:
                lines.append(f"{name} = {_toml_value(data[name])}")
        for name in changed:
            if name in _TABLES:
                lines.append("")
                lines.append(f"[{name}]")
                for key, value in data[name].items():
                    lines.append(f"{_toml_value(key)} = {_toml_value(value)}")
        return "\n".join(lines) + "\n"

    def changes(self, base: str | None = None) -> tuple[str, list[str]]:
        """The preset (``base``, else ``closest_preset``) and the rules that differ from it, as options
        (``deal=7``, ``rounds=8,6,4``; a changed table as ``effects=(own table)``); names and notes left out.
        """
        base = load_preset(base).name if base is not None else self.closest_preset()
        texts = []
        for name in self._changed_fields(base):
            if name in ("name", "title", "source", "notes", "shown_options"):
                continue
            value = getattr(self, name)
            if name in _TABLES or name == "seats":
                texts.append(f"{name}=(own table)")
            elif isinstance(value, bool):
                texts.append(f"{name}={'true' if value else 'false'}")
            elif isinstance(value, tuple):
                texts.append(f"{name}={','.join(str(v) for v in value)}")
            else:
                texts.append(f"{name}={value}")
        return base, texts

    def _changed_fields(self, base: str) -> list[str]:
        preset = load_preset(base)
        return [name for name in _FIELDS if getattr(self, name) != getattr(preset, name)]

    def closest_preset(self) -> str:
        """The preset this rule set is named after, else the one it differs from in the fewest rules."""
        name = self.name.strip().lower()
        if name in PRESETS:
            return name

        def differences(preset: str) -> int:
            other = load_preset(preset)
            return sum(getattr(self, f) != getattr(other, f) for f in _FIELDS)

        return min(PRESETS, key=differences)

    # ----- validation -----------------------------------------------------

    def _validate(self) -> None:
        def bad(name: str, valid: str) -> RulesError:
            return RulesError(f"{name}: {_shown(self.to_dict()[name])} is not valid; valid: {valid}")

        unknown = [name for name in self.shown_options if name not in option_names()]
        if unknown:
            raise bad("shown_options", f"names of options ({', '.join(option_names())})")
        if not self.seats:
            raise bad("seats", "at least one [packs, fewest players, most players] row")
        for row in self.seats:
            p, lo, hi = row
            if not (1 <= p <= 4 and 2 <= lo <= hi <= 16):
                raise bad("seats", "rows [packs 1-4, fewest players >= 2, most players <= 16]")
        if self.packs and self.packs not in [p for p, _, _ in self.seats]:
            raise bad("packs", self._pack_choices())
        if self.jokers not in (0, 1, 2):
            raise bad("jokers", "0, 1 or 2")
        if self.deal < 1:
            raise bad("deal", "a whole number, 1 or more")
        for name in (
            "deal_two_players",
            "deal_extra_packs",
            "draw_limit",
            "target",
            "target_per_player",
            "hands",
        ):
            if getattr(self, name) < 0:
                raise bad(name, "a whole number, 0 or more")

        for name in ("rounds", "short_schedule"):
            if any(size < 1 for size in getattr(self, name)):
                raise bad(name, "a list of hand sizes, each 1 or more (like 8,6,4)")
        if self.short_rounds and not self.short_schedule:
            raise bad("short_rounds", "true only where the preset has a short schedule (derange)")
        if self.draw not in DRAW_POLICIES:
            raise bad("draw", ", ".join(DRAW_POLICIES))
        if self.draw == "up_to_n" and self.draw_limit < 1:
            raise bad("draw_limit", "1 or more when draw is up_to_n")
        if self.scoring not in SCORING_MODES:
            raise bad("scoring", ", ".join(SCORING_MODES))
        if self.max_actions < 10:
            raise bad("max_actions", "10 or more")
        for name in ("starter_bury", "starter_turn_over", "forced_play_exempt"):
            for pattern in getattr(self, name):
                _check_pattern(name, pattern)
        for kind in self.starter_effects:
            if kind not in STARTER_EFFECTS:
                raise RulesError(f"starter_effects: {kind!r} is not an effect; valid: {', '.join(STARTER_EFFECTS)}")
        if self.expanded_deck not in EXPANDED_DECK:
            raise bad("expanded_deck", ", ".join(EXPANDED_DECK))
        for pattern in self.expanded_remove:
            _check_pattern("expanded_remove", pattern)
        for rank in self.same_number:
            if _pattern_rank(rank) is None:
                raise RulesError(f"same_number: {rank!r} is not a rank; valid: A, 2-10, J, Q, K")
        for pattern, effects in self.effects:
            _check_pattern("effects", pattern)
            for effect in effects:
                kind, _, count = effect.partition(":")
                if kind not in EFFECT_KINDS:
                    raise RulesError(
                        f"effects: {effect!r} (for {pattern}) is not an effect; valid: " + ", ".join(EFFECTS)
                    )
                counted = kind in _COUNTED
                if (counted and not count) or (count and not (kind in _COUNTED or kind == "skip")):
                    raise RulesError(
                        f"effects: {effect!r} (for {pattern}): draw, penalty, chain and choose_draw take a count "
                        "(like draw:2); skip may (skip:2); the others take none"
                    )
                if count and not (count.isdigit() and int(count) > 0):
                    raise RulesError(
                        f"effects: {effect!r} (for {pattern}): the count must be a whole number, 1 or more"
                    )
        for pattern, value in self.score_values:
            _check_pattern("score_values", pattern)
            if value < 0:
                raise RulesError(f"score_values: {pattern} = {value}; valid: 0 or more")
        if self.score_values:
            values = dict(self.score_values)
            missing = [
                rank
                for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
                if rank not in values
            ]
            if missing:
                raise RulesError(f"score_values: no value for rank {missing[0]}; every rank A-K needs one")
        elif self.score_keeping:
            raise RulesError("score_values: a table is needed when score_keeping is true")
        # A rule set no table can play is refused now, not when the first game is dealt.
        if not any(self._seats_ok(n) for n in range(self.min_players, self.max_players + 1)):
            self.check_players(self.min_players)


# ----- helpers ---------------------------------------------------------------

_FIELDS = tuple(f.name for f in fields(RuleSet))
_TYPES = {f.name: f.type for f in fields(RuleSet)}
#: The rules written as TOML tables (``[effects]``), after every other line of a file.
_TABLES = ("effects", "score_values")
#: Text rules whose values are words from a fixed list: read in any case.
_WORDS = ("draw", "scoring", "expanded_deck")
#: What a file without a ``base`` must give: every rule that changes play (not its name and notes).
_PLAY_FIELDS = tuple(name for name in _FIELDS if name not in ("name", "title", "source", "notes", "shown_options"))
_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = 2, 40, 40, 40


def _shown(value: Any) -> str:
    """A value as it appears in a message: short, whatever its size or depth."""
    return _SHORT.repr(value)


def _did_you_mean(key: str, names: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, names, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _unknown_rule(key: str) -> str:
    return f"unknown rule {key!r}{_did_you_mean(key, _FIELDS)}; valid rules: {', '.join(_FIELDS)}"


#: Fields that are no rule of play: what the rule set is called and where it comes from, and the safety
#: cap on a round's length. A rules file may set them; ``--option`` may not (an option changes a rule).
NOT_OPTIONS = ("name", "title", "source", "max_actions")
#: Fields that are tables: a rules file changes them, not ``--option``.
TABLE_FIELDS = ("effects", "score_values", "seats", "notes", "shown_options")


def option_names() -> list[str]:
    """The fields that ``--option KEY=VALUE`` may set: the rules of play."""
    return [name for name in _FIELDS if name not in TABLE_FIELDS and name not in NOT_OPTIONS]


def parse_option_list(options: list[str]) -> dict[str, str]:
    """``["stacking=true", "packs=2"]`` to a dict.

    :raises RulesError: on an item without ``=``.
    """
    result: dict[str, str] = {}
    for item in options:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise RulesError(f"option {item!r} is not KEY=VALUE (like stacking=true or packs=2)")
        result[key.strip()] = value.strip()
    return result


#: A whole number as an option gives it.
_WHOLE = re.compile(r"-?[0-9]+")


def _option_value(key: str, text: str) -> Any:
    kind = _TYPES[key]
    if kind == "bool":
        low = text.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise RulesError(f"option {key}: {text!r} is not true or false")
    if kind == "int":
        if key == "packs" and text.lower() == "auto":
            return 0
        # The digits 0-9 alone: int() would also read "+5", "1_000" and other scripts' digits.
        if not _WHOLE.fullmatch(text):
            raise RulesError(f"option {key}: {text!r} is not a whole number in the digits 0-9 (like 7)")
        return int(text)
    if kind.startswith("tuple"):
        items = [item.strip() for item in text.strip("[]").replace(";", ",").split(",") if item.strip()]
        if "int" in kind:
            if not all(_WHOLE.fullmatch(item) for item in items):
                raise RulesError(f"option {key}: {text!r} is not a list of whole numbers (like 8,6,4)")
            return [int(item) for item in items]
        return [item.strip("\"'") for item in items]
    return text


def _convert(name: str, value: Any) -> Any:
    kind = _TYPES[name]

    def wrong(expected: str) -> RulesError:
        return RulesError(f"{name}: {_shown(value)} is the wrong type; expected {expected}")

    if kind == "bool":
        if not isinstance(value, bool):
            raise wrong("true or false")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise wrong("a whole number")
        return value
    if kind == "str":
        if name == "expanded_deck" and isinstance(value, bool):
            return "true" if value else "false"
        if not isinstance(value, str):
            raise wrong("text in quotes")
        return value.strip().lower() if name in _WORDS else value
    if name == "seats":
        if not isinstance(value, list | tuple) or not all(
            isinstance(row, list | tuple) and len(row) == 3 and all(type(x) is int for x in row) for row in value
        ):
            raise wrong("a list of [packs, fewest players, most players] rows")
        return tuple(tuple(row) for row in value)
    if name in _TABLES:
        return _convert_table(name, value)
    if kind == "tuple[int, ...]":
        if not isinstance(value, list | tuple) or not all(type(x) is int for x in value):
            raise wrong("a list of whole numbers")
        return tuple(value)
    if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
        raise wrong("a list of text in quotes")
    if name == "starter_effects":
        return tuple(x.strip().lower() for x in value)
    return tuple(value)


def _convert_table(name: str, table: Any) -> tuple[tuple[str, Any], ...]:
    """``effects`` or ``score_values``: card patterns to effects or points, checked key by key."""
    example = '"8" = ["wild"]' if name == "effects" else '"8" = 50'
    if not isinstance(table, dict):
        raise RulesError(f"{name}: {_shown(table)} is the wrong type; expected a table of lines like {example}")
    rows: list[tuple[str, Any]] = []
    for key, value in table.items():
        if key in _FIELDS or key == "base":
            raise RulesError(
                f"{key!r} is a rule, not a card, but it sits in the [{name}] table: in TOML every line after "
                f"[{name}] belongs to it, so move the line {key} = ... above [{name}]"
            )
        _check_pattern(name, key)
        if name == "score_values":
            if type(value) is not int:
                raise RulesError(
                    f"score_values: {key} = {_shown(value)}; expected points, a whole number like {example}"
                )
            rows.append((key, value))
            continue
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple) or not all(isinstance(e, str) for e in value):
            raise RulesError(f"effects: {key} = {_shown(value)}; expected a list of effects like {example}")
        rows.append((key, tuple(e.strip().lower() for e in value)))
    return tuple(rows)


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _number(n: int) -> str:
    return _NUMBERS[n] if n < len(_NUMBERS) else str(n)


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{_number(n)} times")


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _is_card(pattern: str) -> bool:
    return pattern.upper() in ("JK", "GJ") or _pattern_rank(pattern) is None


def _pattern_rank(pattern: str) -> int | None:
    try:
        return parse_rank(pattern)
    except CardError:
        return None


def _pattern_cards(pattern: str) -> list[int]:
    key = pattern.strip().upper()
    if key == "JOKER":
        return [52, 53]
    rank = _pattern_rank(key)
    if rank is not None:
        return [cid for cid in range(52) if RANKS[cid] == rank]
    return [int(Card.parse(key))]


def _check_pattern(name: str, pattern: str) -> None:
    try:
        _pattern_cards(pattern)
    except CardError:
        raise RulesError(
            f"{name}: {pattern!r} is not a card pattern; use a rank (A, 2-10, J, Q, K), a card (KH), or joker, JK, GJ"
        ) from None


def card_pattern_matches(pattern: str, cid: int) -> bool:
    """Whether card ``cid`` is one the pattern names."""
    return cid in _pattern_cards(pattern)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # A JSON string is a TOML basic string, except that TOML wants DEL escaped too.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


# ----- loading -----------------------------------------------------------------


def load_preset(name: str) -> RuleSet:
    """One of the shipped presets by name, in any case (``Classic``, `` race ``).

    :raises RulesError: naming the valid presets.
    """
    key = name.strip().lower()
    if key not in PRESETS:
        raise RulesError(f"unknown preset {name!r}{_did_you_mean(key, PRESETS)}; valid presets: {', '.join(PRESETS)}")
    text = resources.files("eights.rules").joinpath("presets", f"{key}.toml").read_text(encoding="utf-8")
    return _from_toml(text, f"preset {key}", need_base=False)


def load_rules(path: str | Path) -> RuleSet:
    """A house-rules TOML file (UTF-8, with or without a byte-order mark): a ``base`` preset and the
    rules it changes. A file without a base must give every rule (as older saved files do).

    :raises RulesError: naming the file and what is wrong with it.
    """
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulesError(f"cannot read rules file {str(path)!r}: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise RulesError(
            f"{path}: line {line} is not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the rules file as UTF-8"
        ) from None
    return _from_toml(text, str(path))


def _from_toml(text: str, where: str, need_base: bool = True) -> RuleSet:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{where} is not valid TOML: {exc}") from None
    except RecursionError:
        raise RulesError(f"{where}: lists or tables are nested too deeply to be rules") from None
    except ValueError:  # Python refuses to read an integer of more than 4300 digits
        raise RulesError(f"{where}: a number in it is too long to read") from None
    base = data.pop("base", None)
    try:
        unknown = [key for key in data if key not in _FIELDS]
        if unknown:
            raise RulesError(_unknown_rule(unknown[0]))
        if base is not None:
            if not isinstance(base, str):
                raise RulesError(f"base: {_shown(base)} is not a preset name; valid bases: {', '.join(PRESETS)}")
            try:
                merged = load_preset(base).to_dict()
            except RulesError as exc:
                raise RulesError(f"base: {exc}") from None
            merged.update(data)
            data = merged
        elif need_base and any(name not in data for name in _PLAY_FIELDS):
            raise RulesError(
                'no base preset: begin the file with a line like base = "classic" (valid bases: '
                f"{', '.join(PRESETS)}), then give only the rules you change"
            )
        return RuleSet.from_dict(data)
    except RulesError as exc:
        raise RulesError(f"{where}: {exc}") from None


def resolve_rules(
    variant: str | None = None, rules_file: str | Path | None = None, options: list[str] | None = None
) -> RuleSet:
    """The rule set a command asks for: a preset (classic by default) or a file, then options.

    :raises RulesError: for both a preset and a file, or anything that cannot be played.
    """
    if variant is not None and rules_file is not None:
        raise RulesError("give a preset (--variant) or a rules file (--rules), not both")
    rules = load_rules(rules_file) if rules_file is not None else load_preset(variant or "classic")
    if options:
        rules = rules.with_options(options)
    return rules
