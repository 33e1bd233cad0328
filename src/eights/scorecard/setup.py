"""A sheet's setup: the rule set, the players in seat order and the first dealer.

Everything a sheet knows from the rules is derived here, from the rule set itself:
the pack the players use (``RuleSet.pack_counts``, from the engine's own deck), the value table
(``RuleSet.value_table``), the round schedule and the teams (D32).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from eights.cards import Card
from eights.names import BadName, clean_name, find_same, same_name
from eights.rules import RulesError, RuleSet
from eights.scorecard.errors import PlayerError, SheetError
from eights.words import and_list, count_words

MIN_PLAYERS = 2
MAX_PLAYERS = 8
#: The most rounds a sheet holds: all a schedule or a count of hands plans (a sheet refuses rules that plan
#: more), and where the rules play to a target or keep no points (open-ended), far more than an evening's.
MAX_ROUNDS = 200


def read_names(players: Sequence[str], stored: bool = False) -> tuple[str, ...]:
    """The players' names under the one rule for names (``eights.names``), checked for count, emptiness
    and names that would be taken for one another.

    ``stored`` reads a sheet saved before: its names were accepted then and are kept as they are
    (collapsed white space aside), so a sheet stays readable when the rule for new names grows stricter.

    :raises PlayerError: naming the problem and what is allowed.
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise PlayerError(f"players: give a list of {MIN_PLAYERS} to {MAX_PLAYERS} names, like ['Ann', 'Bob']")
    given = [name for name in players if not isinstance(name, str) or name.strip()]
    if not given:
        raise PlayerError(f"players: no names given; give {MIN_PLAYERS} to {MAX_PLAYERS} names, like Ann,Bob")
    count = len(players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise PlayerError(f"{count_words(count, 'player')} given: a sheet takes {MIN_PLAYERS} to {MAX_PLAYERS} players")
    names: list[str] = []
    for seat, name in enumerate(players, 1):
        if not isinstance(name, str) or not name.strip():
            raise PlayerError(f"player {seat} has an empty name: give every player a name of at least one letter")
        try:
            clean = " ".join(name.split()) if stored else clean_name(name)
        except BadName as exc:
            raise PlayerError(f"player {seat}: {exc}") from None
        other = find_same(clean, names)
        if other is not None:
            twice = (
                f"the name {clean!r} is given twice"
                if other.casefold() == clean.casefold()
                else f"{clean!r} looks like {other!r}"
            )
            raise PlayerError(f"{twice}: give every player a different name")
        names.append(clean)
    return tuple(names)


@dataclass(frozen=True)
class Setup:
    """The rule set, the players in seat order (clockwise) and the first dealer's seat."""

    rules: RuleSet
    players: tuple[str, ...]
    first_dealer: int
    values: tuple[int, ...] = field(init=False, repr=False, compare=False)
    #: How many copies of each card the pack of this table holds (``RuleSet.pack_counts``); cards it lacks are absent.
    pack: dict[Card, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", self.rules.value_table())
        object.__setattr__(self, "pack", self.rules.pack_counts(len(self.players)))

    @classmethod
    def create(
        cls,
        rules: RuleSet,
        players: Sequence[str],
        dealer: str | None = None,
        rng: random.Random | int | None = None,
        stored: bool = False,
    ) -> Setup:
        """A checked setup; the first dealer named, or drawn with ``rng`` (a ``random.Random`` or a seed).

        :raises SheetError: for a bad player count or name, players the rules cannot seat, rules that plan
            more than ``MAX_ROUNDS`` rounds, an unknown dealer, or neither a dealer nor a way to draw one.
            ``stored`` reads the names and rules of a saved sheet as they were accepted (see ``read_names``).
        """
        if not isinstance(rules, RuleSet):
            raise SheetError("rules: give a rule set (a preset like load_preset('derange'), or house rules)")
        names = read_names(players, stored)
        try:
            rules.check_players(len(names))
        except RulesError as exc:
            raise PlayerError(str(exc)) from None
        if rules.score_keeping and not stored:
            if len(rules.schedule) > MAX_ROUNDS:
                raise SheetError(
                    f"rounds: {len(rules.schedule)} hand sizes are more rounds than a score sheet holds; "
                    f"give at most {MAX_ROUNDS}"
                )
            if not rules.schedule and rules.hands > MAX_ROUNDS:
                raise SheetError(
                    f"hands: {rules.hands} rounds are more than a score sheet holds; give at most {MAX_ROUNDS}"
                )
        if dealer is not None:
            first = seat_of(names, dealer, "dealer")
        elif rng is not None:
            draw = random.Random(rng) if isinstance(rng, int) else rng
            first = draw.randrange(len(names))
        else:
            raise SheetError(
                f"first dealer: name one of {and_list(names)}, or give a seed (or a random.Random) to draw one"
            )
        return cls(rules, names, first)

    # ----- what the rules say ------------------------------------------------

    @property
    def count(self) -> int:
        return len(self.players)

    @property
    def keeps_points(self) -> bool:
        """Whether the rules keep points; a sheet for rules that keep none counts games won."""
        return self.rules.score_keeping

    @property
    def schedule(self) -> tuple[int, ...]:
        """The hand size of each planned round, when the rules play a fixed number of rounds."""
        if not self.keeps_points:
            return ()
        if self.rules.schedule:
            return self.rules.schedule
        if self.rules.hands:
            return tuple(self.hand_size(i) for i in range(self.rules.hands))
        return ()

    @property
    def target(self) -> int:
        """The total that ends the match (0 for none)."""
        return self.rules.match_target(self.count) if self.keeps_points else 0

    @property
    def teams(self) -> tuple[tuple[int, int], ...]:
        """Allies' seats, opposite each other (D32); empty when the rules play no teams."""
        if not self.rules.teams:
            return ()
        half = self.count // 2
        return tuple((seat, seat + half) for seat in range(half))

    def team_name(self, team: tuple[int, int]) -> str:
        return " & ".join(self.players[seat] for seat in team)

    def dealer(self, round_index: int) -> int:
        """The dealer's seat in a round (0-based): one seat clockwise each round (D1)."""
        return (self.first_dealer + round_index) % self.count

    def hand_size(self, round_index: int) -> int:
        """The cards dealt to each player in a round (0-based), as the engine deals them."""
        return self.rules.hand_size(self.count, round_index)

    def seat(self, name: str, what: str = "player") -> int:
        return seat_of(self.players, name, what)

    @property
    def cards_in_hands(self) -> int:
        """The most cards the hands can hold together: the whole pack but the discard pile's card."""
        return sum(self.pack.values()) - 1

    @property
    def most_points(self) -> int:
        """The most points the hands left can be worth together: the whole pack's value less its
        cheapest card, which at least lies on the discard pile."""
        worth = [self.values[card] for card, copies in self.pack.items() for _ in range(copies)]
        return sum(worth) - min(worth)

    def without_jokers(self) -> bool:
        return not any(card.is_joker for card in self.pack)


def seat_of(players: Sequence[str], name: object, what: str = "player") -> int:
    """The seat of a player named exactly, or the only one named so ignoring case.

    :raises PlayerError: for a name that is no player's, naming the players.
    """
    if isinstance(name, str):
        clean = " ".join(name.split())
        if clean in players:
            return players.index(clean)
        matches = [seat for seat, other in enumerate(players) if same_name(other, clean)]
        if len(matches) == 1:
            return matches[0]
    raise PlayerError(f"{what}: {name!r} is not a player here; the players are {and_list(list(players))}")
