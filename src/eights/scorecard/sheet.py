"""A score sheet: the setup and the rounds entered, everything else derived from them.

A sheet is rebuilt from its setup and its list of round entries (``to_dict`` / ``from_dict``),
so it can be stored as JSON. Every change (an entry, an edit, a delete, finishing early)
is checked by rebuilding the whole sheet first; a refused change leaves the sheet as it was,
and every accepted one can be undone, last first (the undo list is part of the stored sheet).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from eights.cards import Card
from eights.rules import SCORING_MODES, RulesError, RuleSet
from eights.rules.scoring import match_over, match_winners
from eights.scorecard.entry import (
    Left,
    LeftInput,
    RoundEntry,
    breakdown,
    describe_left,
    entry_from_dict,
    entry_to_dict,
    read_entry,
    score_entry,
)
from eights.scorecard.errors import MatchOverError, RoundNumberError, SheetError
from eights.scorecard.setup import MAX_ROUNDS, Setup
from eights.words import and_list, count_words

#: The version of ``Sheet.to_dict``'s layout.
FORMAT = 1


@dataclass(frozen=True, slots=True)
class RoundResult:
    """One entered round, scored, with the running totals after it."""

    number: int
    dealer: int
    hand_size: int
    entry: RoundEntry
    #: Each seat's hand value (0 for the player out; None where nothing was entered).
    worth: tuple[int | None, ...]
    #: Points each seat scored this round; in a sheet that keeps no points, 1 per winner.
    points: tuple[int, ...]
    totals: tuple[int, ...]
    #: The round's winners (both allies in a team game).
    winners: tuple[int, ...]
    #: The round's place in the match's deals (0: the first), which gave its dealer and hand size; past a
    #: deleted round it runs ahead of the round's number.
    deal: int

    @property
    def out(self) -> int | None:
        return self.entry.out

    @property
    def blocked(self) -> bool:
        return self.entry.out is None


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of the standings: place (ties share it), who (a player or a team), total."""

    place: int
    name: str
    total: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Change:
    """An accepted change, kept so that ``undo`` can reverse it."""

    kind: str  # "add", "edit", "delete" or "finish"
    index: int = -1
    was: RoundEntry | None = None


class Sheet:
    """A score sheet for a match played with real cards: the sheet, not the dealer."""

    __slots__ = ("_finished", "_history", "_results", "_rounds", "setup")

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self._rounds: tuple[RoundEntry, ...] = ()
        self._finished = False
        self._history: tuple[_Change, ...] = ()
        self._results: tuple[RoundResult, ...] = ()

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        players: Sequence[str],
        dealer: str | None = None,
        rng: random.Random | int | None = None,
    ) -> Sheet:
        """A new sheet: 2 to 8 players in seat order (clockwise), the first dealer named or drawn
        with ``rng`` (a ``random.Random`` or a seed).

        :raises SheetError: naming the problem and the valid choices.
        """
        return cls(Setup.create(rules, players, dealer, rng))

    # ----- what the sheet says ------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        return self.setup.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def keeps_points(self) -> bool:
        """False for rules that keep no points (baby-eating; action without score keeping):
        the sheet then counts games won, each round entered being one game."""
        return self.setup.keeps_points

    @property
    def rounds(self) -> tuple[RoundResult, ...]:
        return self._results

    @property
    def entries(self) -> tuple[RoundEntry, ...]:
        return self._rounds

    @property
    def schedule(self) -> tuple[int, ...]:
        """Hand sizes of the planned rounds (derange: 8..1..8); empty when the match runs to a target."""
        return self.setup.schedule

    @property
    def target(self) -> int:
        return self.setup.target

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's total (games won, in a sheet that keeps no points)."""
        return self._results[-1].totals if self._results else (0,) * self.setup.count

    def total(self, player: str) -> int:
        return self.totals[self.setup.seat(player)]

    @property
    def finished_early(self) -> bool:
        return self._finished and not self._ended_by_rules(self._results)

    @property
    def over(self) -> bool:
        """Whether the match has ended: by the rules, or finished early."""
        return self._finished or self._ended_by_rules(self._results)

    @property
    def next_round(self) -> int:
        """The number of the round to enter next (1-based)."""
        return len(self._rounds) + 1

    @property
    def next_deal(self) -> int:
        """The place of the next round in the match's deals: the deal after the last round's."""
        return self._results[-1].deal + 1 if self._results else 0

    @property
    def dealer(self) -> str | None:
        """Whose deal it is now; None once the match is over."""
        return None if self.over else self.players[self.setup.dealer(self.next_deal)]

    @property
    def hand_size(self) -> int | None:
        """The cards to deal each player this round; None once the match is over."""
        return None if self.over else self.setup.hand_size(self.next_deal)

    @property
    def leader(self) -> tuple[str, ...]:
        """Who would win if the match ended now (several on a tie); empty before the first round."""
        return tuple(self.players[seat] for seat in self._leading_seats())

    @property
    def winners(self) -> tuple[str, ...]:
        """The winners of the match; empty while it goes on."""
        return self.leader if self.over else ()

    def standings(self) -> tuple[Standing, ...]:
        """Best first, ties sharing a place; by team where a sheet without points plays teams."""
        totals = self.totals
        rows: list[tuple[str, int, tuple[int, ...]]]
        if not self.keeps_points and self.setup.teams:
            rows = [(self.setup.team_name(team), totals[team[0]], team) for team in self.setup.teams]
        else:
            rows = [(name, totals[seat], (seat,)) for seat, name in enumerate(self.players)]
        low_first = self.keeps_points and self.rules.lowest_wins
        rows.sort(key=lambda row: row[1] if low_first else -row[1])
        result: list[Standing] = []
        for i, (name, total, seats) in enumerate(rows):
            place = result[-1].place if result and result[-1].total == total else i + 1
            result.append(Standing(place, name, total, seats))
        return tuple(result)

    def result(self, number: int) -> RoundResult:
        """Round ``number`` (1-based).

        :raises RoundNumberError: when there is no such round.
        """
        return self._results[self._index(number)]

    def breakdown(self, number: int, player: str) -> tuple[tuple[Card, int], ...] | None:
        """The cards a player had left in round ``number``, each with its value in the rule set's
        table; None when their points were entered rather than their cards."""
        result = self.result(number)
        return breakdown(self.setup, result.entry.left[self.setup.seat(player)])

    def breakdown_text(self, number: int, player: str, pretty: bool = False) -> str:
        """``8H 50 + KS 10 = 60``; ``12 points`` where points were entered; ``went out``. Where no
        points are kept (the cards left only settle a blocked round): ``2 cards: 8H KS``. ``pretty``
        writes the cards with their suit symbols, as people read them (``8♥ 50 + K♠ 10 = 60``); the web
        page takes the notation and draws the symbols itself."""
        seat = self.setup.seat(player)
        result = self.result(number)
        if result.entry.out == seat:
            return "went out"
        cards = breakdown(self.setup, result.entry.left[seat])
        if cards is None:
            return "-" if result.entry.left[seat] is None else f"{result.worth[seat]} points"
        if not self.keeps_points:
            held = f"{len(cards)} card{'' if len(cards) == 1 else 's'}"
            return f"{held}: {' '.join(_card_text(card, pretty) for card, _ in cards)}" if cards else "no cards"
        if not cards:
            return "no cards = 0"
        return " + ".join(f"{_card_text(card, pretty)} {value}" for card, value in cards) + f" = {result.worth[seat]}"

    def describe_scoring(self) -> str:
        """How this sheet counts and when the match ends, in one line."""
        rules = self.rules
        if not self.keeps_points:
            who = "team" if self.setup.teams else "player"
            return f"no points: each game entered is won by the {who} who went out; most games won leads"
        how = SCORING_MODES[rules.scoring]
        order = "lowest" if rules.lowest_wins else "highest"
        if self.schedule:
            end = f"{len(self.schedule)} rounds ({', '.join(map(str, self.schedule))} cards)"
            if self.target:
                end += f", or until a total reaches {self.target}"
        elif self.target:
            end = f"until a total reaches {self.target}"
        else:
            end = "one round"
        return f"{how}; the match lasts {end}; {order} total wins"

    # ----- changes --------------------------------------------------------------

    def add_round(
        self, out: str | None, left: Mapping[str, LeftInput] | None = None, deal: int | None = None
    ) -> RoundResult:
        """Enter the next round: who went out (None: the round was blocked, D5) and, for each
        other player, their points or their cards left (``{"Bob": 12, "Cid": "8H KS"}``). ``deal``: its
        deal's number (1 = the first) where it was dealt later than after the last round (a sheet kept
        elsewhere, with a round deleted before it).

        :raises SheetError: for a round after the match has ended, past ``MAX_ROUNDS``, or an impossible entry.
        """
        if self.over:
            raise MatchOverError(self._over_message() + "; edit or delete a past round, or undo")
        if len(self._rounds) >= MAX_ROUNDS:
            raise MatchOverError(
                f"round {self.next_round} cannot be entered: a score sheet holds at most {MAX_ROUNDS} rounds; "
                "finish the match (it is decided on the totals so far) and start a new sheet"
            )
        entry = read_entry(self.setup, out, left)
        if deal is not None:
            entry = replace(entry, deal=deal - 1)
        self._commit((*self._rounds, entry), self._finished, _Change("add"))
        return self._results[-1]

    def add_blocked_round(self, left: Mapping[str, LeftInput]) -> RoundResult:
        """Enter a blocked round (no one went out), with every player's points or cards."""
        return self.add_round(None, left)

    def edit_round(self, number: int, out: str | None, left: Mapping[str, LeftInput] | None = None) -> RoundResult:
        """Replace round ``number``; every total after it follows.

        :raises SheetError: for a round that does not exist, an impossible entry, or an edit
            that would end the match before rounds already entered.
        """
        index = self._index(number)
        entry = replace(read_entry(self.setup, out, left), deal=self._rounds[index].deal)  # the same deal
        rounds = (*self._rounds[:index], entry, *self._rounds[index + 1 :])
        self._commit(rounds, self._finished, _Change("edit", index, self._rounds[index]))
        return self._results[index]

    def delete_round(self, number: int) -> str:
        """Remove round ``number``: the rounds after it move up one, each keeping the dealer and hand size
        it was played with (its deal), and every total after it follows; the next round is dealt after
        the last one entered.

        :returns: what changed, in words: the round deleted, and the rounds that moved up.
        :raises RoundNumberError: for a round that does not exist.
        """
        index = self._index(number)
        after = self._rounds[index + 1 :]
        if after and after[0].deal is None:  # it was dealt after the deleted round, and stays so
            after = (replace(after[0], deal=self._results[index + 1].deal), *after[1:])
        rounds = self._rounds[:index] + after
        self._commit(rounds, self._finished, _Change("delete", index, self._rounds[index]))
        return self._moved_words(number)

    def _moved_words(self, number: int) -> str:
        """``deleted round 1; round 2 is now round 1, with the dealer and cards it had`` (as it was played)."""
        moved = self._results[number - 1 :]
        if not moved:
            return f"deleted round {number}"
        first, last = moved[0].number, moved[-1].number
        if first == last:
            now = f"round {first + 1} is now round {first}, with the dealer and cards it had"
        else:
            now = f"rounds {first + 1}-{last + 1} are now {first}-{last}, with the dealers and cards they had"
        return f"deleted round {number}; {now}"

    def finish(self) -> None:
        """End the match now (finish early); the winners are decided on the totals so far,
        as the engine decides a finished match.

        :raises MatchOverError: when the match is already over or no round has been entered.
        """
        if self.over:
            winners = and_list(list(self.winners))
            how = "was already finished" if self.finished_early else "is already over"
            raise MatchOverError(f"the match {how}, won by {winners}: there is nothing to finish")
        if not self._rounds:
            raise MatchOverError("no round has been entered yet: enter at least one round before finishing")
        self._commit(self._rounds, True, _Change("finish"))

    def undo(self) -> str:
        """Reverse the last change still in force (an entry, an edit, a delete or a finish).

        :returns: what was undone, in words.
        :raises SheetError: when there is nothing to undo.
        """
        if not self._history:
            raise SheetError("nothing to undo: no round has been entered, edited or deleted on this sheet")
        change = self._history[-1]
        rounds, finished = self._rounds, self._finished
        limit = len(rounds) if change.kind == "delete" else len(rounds) - 1
        if change.kind in ("edit", "delete") and not 0 <= change.index <= limit:
            raise SheetError(f"cannot undo: the stored undo list names round {change.index + 1}, which is not there")
        if change.kind == "add":
            rounds, said = rounds[:-1], f"undid the entry of round {len(rounds)}"
        elif change.kind == "finish":
            finished, said = False, "undid finishing the match"
        elif change.kind == "edit" and change.was is not None:
            rounds = (*rounds[: change.index], change.was, *rounds[change.index + 1 :])
            said = f"undid the edit of round {change.index + 1}"
        elif change.kind == "delete" and change.was is not None:
            rounds = (*rounds[: change.index], change.was, *rounds[change.index :])
            said = f"undid the deletion of round {change.index + 1}"
        else:  # pragma: no cover - only a corrupted history gets here
            raise SheetError(f"cannot undo a change of kind {change.kind!r}")
        self._commit(rounds, finished, None)
        return said

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    # ----- plain data -------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-able data that ``from_dict`` loads back into an equal sheet."""
        history: list[dict[str, Any]] = []
        for change in self._history:
            item: dict[str, Any] = {"change": change.kind}
            if change.kind in ("edit", "delete"):
                item["round"] = change.index + 1
                assert change.was is not None
                item["was"] = entry_to_dict(self.setup, change.was)
            history.append(item)
        return {
            "sheet": FORMAT,
            "rules": self.rules.to_dict(),
            "players": list(self.players),
            "first_dealer": self.players[self.setup.first_dealer],
            "rounds": [entry_to_dict(self.setup, entry) for entry in self._rounds],
            "finished": self._finished,
            "undo": history,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sheet:
        """Load what ``to_dict`` wrote, checking everything again.

        :raises SheetError: naming what is wrong with the data.
        """
        if not isinstance(data, Mapping):
            raise SheetError("a stored sheet must be an object (as Sheet.to_dict writes it)")
        keys = {"sheet", "rules", "players", "first_dealer", "rounds", "finished", "undo"}
        if set(data) != keys:
            raise SheetError(f"a stored sheet has exactly the keys {', '.join(sorted(keys))}")
        if data["sheet"] != FORMAT:
            raise SheetError(f"stored sheet format {data['sheet']!r} is not known; this version reads {FORMAT}")
        try:
            rules = RuleSet.from_dict(dict(data["rules"]))
        except (RulesError, TypeError, ValueError) as exc:
            raise SheetError(f"the stored sheet's rules: {exc}") from None
        players = data["players"]
        if not isinstance(players, list):
            raise SheetError("the stored sheet's players must be a list of names")
        sheet = cls(Setup.create(rules, players, dealer=data["first_dealer"], stored=True))
        rounds, history = data["rounds"], data["undo"]
        if not isinstance(rounds, list) or not isinstance(history, list):
            raise SheetError("the stored sheet's rounds and undo must be lists")
        if not isinstance(data["finished"], bool):
            raise SheetError("the stored sheet's finished must be true or false")
        entries = tuple(entry_from_dict(sheet.setup, item) for item in rounds)
        changes = tuple(sheet._change_from_dict(item) for item in history)
        sheet._commit(entries, data["finished"], None)
        sheet._history = changes
        return sheet

    def _change_from_dict(self, item: object) -> _Change:
        if not isinstance(item, Mapping) or item.get("change") not in ("add", "edit", "delete", "finish"):
            raise SheetError("each undo item must be an object with change: add, edit, delete or finish")
        kind = item["change"]
        if kind in ("add", "finish"):
            return _Change(kind)
        number = item.get("round")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise SheetError(f"an undo item's round: {number!r} is not a round number (1 or more)")
        return _Change(kind, number - 1, entry_from_dict(self.setup, item.get("was")))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return (self.setup, self._rounds, self._finished, self._history) == (
            other.setup,
            other._rounds,
            other._finished,
            other._history,
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Sheet {self.rules.name} {and_list(list(self.players))}: {count_words(len(self._rounds), 'round')}>"

    # ----- the rebuild ----------------------------------------------------------------

    def _commit(self, rounds: tuple[RoundEntry, ...], finished: bool, change: _Change | None) -> None:
        """Rebuild from ``rounds``; only if that succeeds, take the new state (``change`` None: an undo)."""
        results = self._replay(rounds)
        # A round dealt right after the round before says so by no deal of its own (one sheet, one form).
        rounds = tuple(
            replace(entry, deal=None) if entry.deal is not None and entry.deal == (results[i - 1].deal + 1 if i else 0)
            else entry
            for i, entry in enumerate(rounds)
        )  # fmt: skip
        if finished and not results:
            raise MatchOverError(
                "the match was finished early: it needs at least one round; undo the finish to remove them all"
            )
        self._rounds, self._results, self._finished = rounds, results, finished
        self._history = self._history[:-1] if change is None else (*self._history, change)

    def _replay(self, rounds: tuple[RoundEntry, ...]) -> tuple[RoundResult, ...]:
        setup = self.setup
        totals = [0] * setup.count
        results: list[RoundResult] = []
        deal = -1
        for index, entry in enumerate(rounds):
            if entry.deal is not None and entry.deal <= deal:
                raise SheetError(
                    f"round {index + 1} is given deal {entry.deal + 1}, not after the round before's "
                    f"({deal + 1}): each round is dealt after the one before"
                )
            deal = deal + 1 if entry.deal is None else entry.deal
            if results and self._ended_by_rules(results):
                raise MatchOverError(
                    f"with this change the match ends after round {index}, but "
                    f"{count_words(len(rounds) - index, 'more round')} "
                    f"{'follows' if len(rounds) - index == 1 else 'follow'}: delete them first, "
                    "or change the round differently"
                )
            scored = score_entry(setup, entry)
            totals = [t + p for t, p in zip(totals, scored.points, strict=True)]
            results.append(
                RoundResult(
                    index + 1,
                    setup.dealer(deal),
                    setup.hand_size(deal),
                    entry,
                    scored.worth,
                    scored.points,
                    tuple(totals),
                    scored.winners,
                    deal,
                )
            )
        return tuple(results)

    def _ended_by_rules(self, results: Sequence[RoundResult]) -> bool:
        """Whether the rules end the match after these rounds (a sheet without points never ends by itself)."""
        if not results or not self.keeps_points:
            return False
        return match_over(self.rules, self.setup.count, results[-1].deal + 1, results[-1].totals)

    def _leading_seats(self) -> tuple[int, ...]:
        if not self._results:
            return ()
        totals = self._results[-1].totals
        if not self.keeps_points:
            high = max(totals)
            return tuple(seat for seat, total in enumerate(totals) if total == high)
        return match_winners(self.rules, self._results[-1].deal + 1, totals, self._results[-1].winners)

    def _index(self, number: int) -> int:
        count = len(self._rounds)
        if isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= count:
            return number - 1
        if not count:
            raise RoundNumberError(f"there is no round {number!r}: no round has been entered yet")
        valid = "1" if count == 1 else f"1-{count}"
        raise RoundNumberError(f"there is no round {number!r}: the rounds entered are {valid}")

    def _over_message(self) -> str:
        winners = and_list(list(self.winners))
        how = "was finished early" if self.finished_early else "is over"
        rounds = count_words(len(self._rounds), "round")
        return f"the match {how} after {rounds}, won by {winners}: no more rounds can be entered"


def _card_text(card: Card, pretty: bool) -> str:
    return card.pretty() if pretty else str(card)


def describe_entry(sheet: Sheet, result: RoundResult) -> str:
    """A round in one line: ``round 3 (Ann deals 6): Bob out; Cid 8H KS (60), Dee 12``."""
    players = sheet.players
    head = f"round {result.number} ({players[result.dealer]} deals {result.hand_size})"
    who = "blocked" if result.out is None else f"{players[result.out]} out"
    parts = []
    for seat, value in enumerate(result.entry.left):
        if value is None:
            continue
        text = describe_left(value)
        if isinstance(value, tuple):
            text += f" ({result.worth[seat]})"
        parts.append(f"{players[seat]} {text}")
    return f"{head}: {who}" + ("; " + ", ".join(parts) if parts else "")


__all__ = ["FORMAT", "Left", "RoundResult", "Sheet", "Standing", "describe_entry"]
