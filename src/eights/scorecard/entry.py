"""One round as entered at the table, checked against the rules, and scored by the engine's
own functions (``eights.rules.scoring.round_points``), never a second table of card values."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from eights.cards import Card, CardError
from eights.rules.scoring import round_points
from eights.scorecard.errors import HandError
from eights.scorecard.setup import Setup
from eights.words import and_list

#: What is entered for a player who did not go out: their points (the value of the cards
#: left in hand), or the cards themselves.
Left = int | tuple[Card, ...]

#: What a caller may pass for a player: points, cards as one string ("8H 10C"), or a list of cards.
LeftInput = int | str | Sequence[str | Card]


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """Who went out (None: the round was blocked) and, per seat, the points or cards left.

    ``left[seat]`` is None for the player who went out, and for a player not entered in a
    sheet that keeps no points (only who won counts there). ``deal`` is the round's place in the
    match's deals (0: the first deal), which gives its dealer and hand size; None for the deal after
    the round before (every round but one that followed a deleted round).
    """

    out: int | None
    left: tuple[Left | None, ...]
    deal: int | None = None

    @property
    def blocked(self) -> bool:
        return self.out is None


@dataclass(frozen=True, slots=True)
class Scored:
    """A round's outcome under the rules: each seat's hand value, points and the round's winners."""

    worth: tuple[int | None, ...]
    points: tuple[int, ...]
    winners: tuple[int, ...]


def read_entry(setup: Setup, out: str | None, left: Mapping[str, LeftInput] | None, stored: bool = False) -> RoundEntry:
    """Check a round as entered: ``out`` names the player who went out (None: blocked), ``left``
    maps every other player to their points or their cards left; an empty list of cards is no entry
    (0 points says that a player had nothing left, where points are kept). ``stored`` reads a round saved
    before, under the checks of its day: the bounds added since (``_within_the_pack``) are not applied,
    so an old sheet stays readable.

    :raises PlayerError: for a name that is no player's.
    :raises HandError: for an impossible entry, naming the problem and the valid choices.
    """
    out_seat = None if out is None else setup.seat(out, "went out")
    given: dict[int, Left] = {}
    if left is None:
        left = {}
    if not isinstance(left, Mapping):
        raise HandError("the cards left: give each player's name with their points or their cards, like {'Bob': 12}")
    for name, value in left.items():
        seat = setup.seat(name)
        if seat in given:
            raise HandError(f"{setup.players[seat]} is entered twice: give each player's points or cards once")
        hand = _read_left(setup, setup.players[seat], value)
        if hand == () and not stored:
            # No cards at all is a hand not given (a box left empty, a name forgotten), on every front end:
            # only the player who went out holds none, and one who counts nothing gives 0 points.
            continue
        given[seat] = hand
    entry = RoundEntry(out_seat, tuple(given.get(seat) for seat in range(setup.count)))
    check_entry(setup, entry, stored)
    return entry


def read_hand(setup: Setup, name: str, value: LeftInput) -> Left:
    """One player's hand as entered, checked alone (the checks of the whole round come after):
    points that are a whole number from 0 to what the pack can be worth, where the rules keep points;
    or cards of the pack, no more of them than the hands can hold.

    :raises HandError: naming the player, the problem and what is allowed.
    """
    left = _read_left(setup, name, value)
    if isinstance(left, int) and left < 0:
        raise HandError(f"{name}: {left} points is negative; give 0 or more (the value of the cards left in hand)")
    _within_the_pack(setup, name, left)
    return left


def _within_the_pack(setup: Setup, name: str, left: Left) -> None:
    """Points only where the rules keep them, and no more than the pack can be worth; no more cards
    than the hands can hold."""
    if isinstance(left, int):
        if not setup.keeps_points:
            raise HandError(
                f"{name}: {setup.rules.name} keeps no points, so give the cards left (or nothing), not {left} points"
            )
        if left < 0:
            raise HandError(f"{name}: {left} points is negative; give 0 or more (the value of the cards left in hand)")
        if left > setup.most_points:
            raise HandError(
                f"{name}: {left} points is more than the cards of the pack can be worth in hands "
                f"({setup.most_points}); give 0 to {setup.most_points}"
            )
    elif len(left) > setup.cards_in_hands:
        raise HandError(
            f"{name}: {len(left)} cards is more than the hands can hold ({setup.cards_in_hands}: the pack "
            "but the discard pile's card)"
        )


#: What reads as a number written some other way than the digits 0-9 alone: ``+5``, ``1_000``, ``٣``.
_NUMBER_LIKE = re.compile(r"[+\-]?[\d_ ]*\d[\d_ ]*")


def parse_points(text: str) -> int | None:
    """Points written with the digits 0-9 alone (a leading minus is read, to be refused as negative);
    None for anything else, ``+5``, ``1_000``, ``" 5"`` and other scripts' digits included."""
    return int(text) if re.fullmatch(r"-?[0-9]+", text) else None


def points_from_text(name: str, text: str) -> int:
    """What a person typed where only points go (a points box, ``--points``): a whole number in the
    digits 0-9 (a leading minus is read, to be refused as negative), as ``parse_points`` reads them.

    :raises HandError: naming the player and the text, for anything else (``abc``, ``+5``, ``1_000``, `` 5``).
    """
    points = parse_points(text)
    if points is None:
        raise HandError(
            f"{name}: {text!r} is not a whole number in the digits 0-9; give the value of {name}'s "
            "cards left, like 35, or the cards themselves"
        )
    return points


def _read_left(setup: Setup, name: str, value: object) -> Left:
    if isinstance(value, bool):
        raise HandError(f"{name}: {value!r} is neither points nor cards; give a whole number or cards like 8H 10C")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        if _NUMBER_LIKE.fullmatch(value.strip()) and parse_points(value.strip()) is None:
            raise HandError(
                f"{name}: {value!r} is not points as this sheet reads them; "
                "write them with the digits 0-9 alone, like 35"
            )
        value = value.replace(",", " ").split()
    if isinstance(value, Sequence):
        cards: list[Card] = []
        for item in value:
            if isinstance(item, Card):
                cards.append(item)
                continue
            if not isinstance(item, str):
                raise HandError(f"{name}: {item!r} is not a card; write cards like 8H, 10C, QS, A♠")
            try:
                cards.append(Card.parse(item, jokers=not setup.without_jokers()))
            except CardError as exc:
                raise HandError(f"{name}: {exc}") from None
        return tuple(cards)
    raise HandError(f"{name}: {value!r} is neither points nor cards; give a whole number or cards like 8H 10C")


def left_from_text(text: str) -> LeftInput:
    """What a person typed for a player's hand: a whole number in the digits 0-9 is points (``35``,
    ``-3`` to be refused as negative), anything else cards (``8H 2C``, ``8H,2C``; nothing at all: no
    entry, refused where the round needs one), or a number written otherwise (``+5``), refused when it is read."""
    clean = text.strip()
    points = parse_points(clean)
    return clean if points is None else points


def check_entry(setup: Setup, entry: RoundEntry, stored: bool = False) -> None:
    """Refuse an entry that cannot have happened under the rules (``stored``: see ``read_entry``).

    :raises HandError: naming the player, the problem and what is allowed.
    """
    players = setup.players
    if len(entry.left) != setup.count:
        raise HandError(f"a round needs an entry for each of the {setup.count} players")
    if entry.out is not None and entry.left[entry.out] is not None:
        name = players[entry.out]
        others = [p for seat, p in enumerate(players) if seat != entry.out]
        raise HandError(
            f"{name} went out, so {name} has no cards and no points to enter; "
            f"give points or cards only for {and_list(others)}"
        )
    for seat, value in enumerate(entry.left):
        if isinstance(value, int) and value < 0:
            raise HandError(
                f"{players[seat]}: {value} points is negative; give 0 or more (the value of the cards left in hand)"
            )
    missing = [players[seat] for seat, value in enumerate(entry.left) if value is None and seat != entry.out]
    if missing and (setup.keeps_points or entry.blocked):
        why = "the round was blocked, so " if entry.blocked else ""
        zero = " (0 points for no cards left)" if setup.keeps_points else ""
        raise HandError(
            f"no points or cards for {and_list(missing)}: {why}give every player who did not go out "
            f"their points or their cards left{zero}"
        )
    if entry.blocked and setup.rules.blocked_fewest_cards:
        counted = [players[seat] for seat, value in enumerate(entry.left) if isinstance(value, int)]
        if counted:
            raise HandError(
                f"a blocked round of {setup.rules.name} goes to the fewest cards (D5): give the cards left "
                f"of {and_list(counted)}, not points"
            )
    if not stored:
        for seat, value in enumerate(entry.left):
            if value is not None:
                _within_the_pack(setup, players[seat], value)
    _check_cards(setup, entry)
    if stored:
        return
    cards = sum(len(value) for value in entry.left if isinstance(value, tuple))
    if cards > setup.cards_in_hands:
        raise HandError(
            f"{cards} cards are entered, more than the hands can hold together ({setup.cards_in_hands}: the pack "
            "but the discard pile's card)"
        )
    worth = sum(
        value if isinstance(value, int) else sum(setup.values[c] for c in value)
        for value in entry.left
        if value is not None
    )
    if setup.keeps_points and worth > setup.most_points:
        raise HandError(
            f"the hands entered are worth {worth} points together, more than the pack can be worth in hands "
            f"({setup.most_points}); check the points"
        )


def _check_cards(setup: Setup, entry: RoundEntry) -> None:
    seen: Counter[Card] = Counter()
    holders: dict[Card, list[str]] = {}
    for seat, value in enumerate(entry.left):
        if not isinstance(value, tuple):
            continue
        name = setup.players[seat]
        for card in value:
            if card.is_joker and setup.without_jokers():
                raise HandError(
                    f"{name}: {card} is a joker, and {setup.rules.name} is played without jokers; "
                    "give only cards of the ordinary 52 (like 8H, 10C, QS)"
                )
            if not setup.pack.get(card, 0):
                raise HandError(f"{name}: {card} is not in the pack {setup.rules.name} uses with {setup.count} players")
            seen[card] += 1
            holders.setdefault(card, []).append(name)
    for card, copies in seen.items():
        held = setup.pack.get(card, 0)
        if copies > held:
            who = Counter(holders[card])
            where = ", ".join(f"{name} {n}" if n > 1 else name for name, n in who.items())
            packs = setup.rules.packs_for(setup.count)
            pack = "the pack holds" if packs == 1 else f"the {packs} packs hold"
            raise HandError(
                f"{card} is entered {copies} times ({where}), but {pack} only {held}: "
                f"give each card only as often as it is left in the hands"
            )


def score_entry(setup: Setup, entry: RoundEntry) -> Scored:
    """The round scored by ``eights.rules.scoring.round_points`` as the engine scores it.

    A player entered by points gets a one-card stand-in hand whose card is worth those points,
    so the engine's own function also decides blocked rounds and ties; the fewest-cards rule
    (D5, baby-eating) only ever sees real cards (``check_entry`` refuses points there).
    """
    values = list(setup.values)
    hands: list[list[int]] = []
    worth: list[int | None] = []
    for seat, value in enumerate(entry.left):
        if value is None:
            hands.append([])
            worth.append(0 if seat == entry.out else None)
        elif isinstance(value, int):
            hands.append([len(values)])
            values.append(value)
            worth.append(value)
        else:
            hands.append([int(card) for card in value])
            worth.append(sum(setup.values[card] for card in value))
    points, winners = round_points(setup.rules, values, hands, entry.out)
    if setup.teams:
        # D32: if either ally goes out (or wins a blocked round), the team wins; as the engine does.
        half = setup.count // 2
        winners = tuple(sorted({seat for w in winners for seat in (w, (w + half) % setup.count)}))
    if not setup.keeps_points:
        points = tuple(1 if seat in winners else 0 for seat in range(setup.count))
    return Scored(tuple(worth), points, winners)


def breakdown(setup: Setup, value: Left | None) -> tuple[tuple[Card, int], ...] | None:
    """Each card left with its value in the rule set's table; None when points were entered."""
    if not isinstance(value, tuple):
        return None
    return tuple((card, setup.values[card]) for card in value)


# ----- plain data -------------------------------------------------------------


def entry_to_dict(setup: Setup, entry: RoundEntry) -> dict[str, Any]:
    """``{"out": "Ann" or None, "left": {"Bob": 12, "Cid": ["8H", "KS"]}}``."""
    left: dict[str, Any] = {}
    for seat, value in enumerate(entry.left):
        if value is None:
            continue
        left[setup.players[seat]] = value if isinstance(value, int) else [str(card) for card in value]
    data: dict[str, Any] = {"out": None if entry.out is None else setup.players[entry.out], "left": left}
    if entry.deal is not None:
        data["deal"] = entry.deal + 1  # the deal's number, 1 for the first
    return data


def entry_from_dict(setup: Setup, data: object) -> RoundEntry:
    """The entry ``entry_to_dict`` wrote, checked again.

    :raises SheetError: for data that is not such an entry.
    """
    if not isinstance(data, Mapping) or set(data) - {"deal"} != {"out", "left"}:
        raise HandError(
            "a round must be an object with 'out' (a name or null), 'left' (names to points or cards) "
            "and, after a deleted round, 'deal' (its deal's number)"
        )
    out, left, deal = data["out"], data["left"], data.get("deal")
    if out is not None and not isinstance(out, str):
        raise HandError(f"a round's 'out': {out!r} is not a player's name or null")
    if not isinstance(left, Mapping):
        raise HandError(f"a round's 'left': {left!r} is not an object of names to points or cards")
    if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool) or deal < 1):
        raise HandError(f"a round's 'deal': {deal!r} is not a deal's number (1 or more)")
    entry = read_entry(setup, out, left, stored=True)
    return entry if deal is None else replace(entry, deal=deal - 1)


def describe_left(value: Left | None) -> str:
    """``12`` or ``8♥ K♠`` or ``-``, for people."""
    if value is None:
        return "-"
    if isinstance(value, int):
        return str(value)
    return " ".join(card.pretty() for card in value) or "no cards"
