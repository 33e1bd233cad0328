"""A rule set in plain words, built from its fields alone.

``describe(rules)`` returns titled sections of sentences; ``describe_text`` joins
them into one text. Nothing here knows a preset by name: whatever a house-rules
file or an option changes, the words change with it (packs, the deal, the
starter, a turn, every special card from the effects table, scoring, the end).
The words say what is played and, where it helps, why; they never cite a decision
by its number (a player cannot look one up). The last line points at the rules
reference in the repository, which gives the sources and every decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from eights.cards import Card, CardError, parse_rank, rank_text
from eights.rules import RuleSet
from eights.rules import ruleset as ruleset_module
from eights.words import and_list, article, count_spelled, count_words, or_list

#: The rules reference in the repository: each preset's source and the reason for every decision.
REFERENCE = "docs/rules.md"

RANK_ORDER = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass(frozen=True, slots=True)
class Section:
    """One titled part of the rules: a heading and its sentences (one paragraph each)."""

    title: str
    lines: tuple[str, ...]


def describe(rules: RuleSet) -> list[Section]:
    """The rule set in plain words, section by section."""
    sections = [
        Section("Players and packs", tuple(_players(rules))),
        Section("The deal", tuple(_deal(rules))),
        Section("The starter", tuple(_starter(rules))),
        Section("A turn", tuple(_turn(rules))),
        Section("Special cards", tuple(_special(rules))),
        Section("Stacking", tuple(_stacking(rules))),
    ]
    two = _two_players(rules)
    if two:
        sections.append(Section("Two players", tuple(two)))
    sections.append(Section("Scoring", tuple(_scoring(rules))))
    sections.append(Section("The end of the game", tuple(_end(rules))))
    if rules.notes:
        sections.append(Section("Notes", tuple(rules.notes)))
    sections.append(Section("Sources and reasons", (_REFERENCE_LINE,)))
    return sections


_REFERENCE_LINE = (
    f"Where each preset's rules come from, and why every unclear point is played this way: {REFERENCE} in the "
    "eights repository."
)


def heading(rules: RuleSet) -> str:
    """The title line: title, preset name and source."""
    text = f"{rules.title} ({rules.name})"
    if rules.source:
        text += f". Source: {rules.source}"
    return text


def describe_text(rules: RuleSet) -> str:
    """The rule set in plain words as one text."""
    parts = [heading(rules)]
    for section in describe(rules):
        parts.append("")
        parts.append(section.title)
        parts.extend(f"- {line}" for line in section.lines)
    return "\n".join(parts) + "\n"


# ----- words for cards and effects ------------------------------------------------


def pattern_words(pattern: str) -> str:
    """A card pattern for people: ``8`` -> ``8``, ``KH`` -> ``K♥``, ``joker`` -> ``joker``."""
    key = pattern.strip().upper()
    if key == "JOKER":
        return "joker"
    if key == "JK":
        return "the joker (JK)"
    if key == "GJ":
        return "the Guarantee Joker (GJ)"
    try:
        return rank_text(parse_rank(key))
    except CardError:
        pass
    try:
        return Card.parse(key).pretty()
    except CardError:
        return pattern


def _patterns_with(rules: RuleSet, kind: str) -> list[str]:
    return [p for p, effects in rules.effects if any(e.partition(":")[0] == kind for e in effects)]


def _chain_cards(rules: RuleSet) -> str:
    return or_list([pattern_words(p) for p in _patterns_with(rules, "chain")]) or "chain card"


def _wild_cards(rules: RuleSet) -> str:
    return or_list(wild_cards(rules))


def wild_cards(rules: RuleSet) -> list[str]:
    """The wild cards in words: ``8``, ``joker``, ``the joker (JK)``."""
    return [pattern_words(p) for p in _patterns_with(rules, "wild")]


def effect_words(rules: RuleSet, effect: str) -> str:
    """One effect of the effects table (``wild``, ``draw:2``, ...) as a sentence part."""
    kind, _, count = effect.partition(":")
    n = int(count) if count.isdigit() else 0
    if kind == "wild":
        chain = " (but not on a pending chain)" if _patterns_with(rules, "chain") else ""
        return f"wild: it plays on anything{chain}, and its player names the suit the next player must follow"
    if kind == "skip":
        if n > 1:
            return (
                f"the next {n} other players are skipped (only others: with {n + 1} players or fewer, "
                "its player goes again)"
            )
        return "the next player is skipped"
    if kind == "reverse":
        return "reverses the direction of play"
    if kind == "draw":
        return f"the next player draws {count_words(n, 'card')} and loses the turn"
    if kind == "chain":
        return (
            f"starts or grows a chain: the next player must play {article(_chain_cards(rules))} or draw the whole "
            "chain, "
            f"{count_words(n, 'card')} for each card in it; drawing ends that player's turn"
        )
    if kind == "penalty":
        return f"the next player draws {count_words(n, 'card')} and still plays their turn"
    if kind == "cancel":
        cancels = or_list([pattern_words(p) for p in _patterns_with(rules, "cancel")])
        return (
            f"cancels the effect of the next card played on it: a wild still names its suit, and {article(cancels)} "
            f"on {article(cancels)} is itself cancelled, so the card after it acts normally"
        )
    if kind == "choose_draw":
        return f"its player chooses any player, themselves included, who draws {count_words(n, 'card')}"
    if kind == "swap":
        return (
            "its player chooses an opponent; each takes one random card from the other's hand, unseen, both "
            "at the same moment"
        )
    if kind == "extra":
        return "its player plays one more card by the usual rules, if they can (no draw if not)"
    if kind == "jack_drop":
        return (
            "every player drops all their jacks, in turn order from the next player and ending with its "
            "player; the last jack dropped is the card to match, and a hand emptied this way is out"
        )
    if kind == "ally":
        return "in a team game the turn passes straight to its player's ally instead"
    if kind == "suicide":
        return (
            "every other card (hands, stock and discard pile) is shuffled together and its player deals "
            f"{rules.deal} to each player, starting with the next; it alone stays face up"
        )
    if kind == "follow":
        wild = _wild_cards(rules)
        follow_me = "a card of the top card's suit" + (f" or {article(wild)}" if wild else "")
        return (
            "follow-me: its player may lay more cards of its rank, one at a time, then must lay a follow-me card "
            f"({follow_me}); a player holding one must play it, and one without draws a card and must play it "
            "if it follows, otherwise the turn ends"
        )
    # An effect kind newer than these words: the rule set's own short description.
    known = getattr(ruleset_module, "EFFECTS", {})
    return str(known.get(effect, known.get(f"{kind}:N", effect)))


def _effects_words(rules: RuleSet, effects: tuple[str, ...]) -> str:
    return "; ".join(effect_words(rules, e) for e in effects)


# ----- the sections ------------------------------------------------------------------


def _players(rules: RuleSet) -> list[str]:
    rows = sorted(rules.seats)
    where = [f"{count_words(p, 'pack')} for {lo}-{hi} players" for p, lo, hi in rows]
    lines = []
    if rules.packs == 0:
        lines.append(f"The fewest 52-card packs that seat the players: {and_list(where)}.")
    else:
        lo, hi = next((lo, hi) for p, lo, hi in rows if p == rules.packs)
        lines.append(f"{count_spelled(rules.packs, '52-card pack')}, for {lo}-{hi} players.")
        others = [w for (p, _, _), w in zip(rows, where, strict=True) if p != rules.packs]
        if others:
            lines.append(f"Other pack counts by option (packs=N, or packs=auto for the fewest): {and_list(others)}.")
    expanded = getattr(rules, "expanded_deck", "false")
    if expanded != "false":
        removed = and_list([pattern_words(p) for p in getattr(rules, "expanded_remove", ())])
        without = f" without {removed}" if removed else ""
        most = getattr(rules, "expanded_max_players", 0)
        up_to = f", for up to {most} players" if most else ""
        when = (
            f"from {rules.expanded_from} players on (option expanded_deck=true or false)"
            if expanded == "auto"
            else "(option expanded_deck=false removes it)"
        )
        lines.append(f"Expanded deck: a second pack{without} is added {when}{up_to}.")
    elif getattr(rules, "expanded_remove", ()):
        lines.append("Option expanded_deck=true adds a second pack for larger tables.")
    if rules.jokers == 1:
        lines.append("One joker (JK) is added to the pack.")
    elif rules.jokers == 2:
        lines.append("Two jokers are added to the pack: the Guarantee Joker (GJ) and the other joker (JK).")
    else:
        lines.append("No jokers.")
    return lines


def _deal(rules: RuleSet) -> list[str]:
    lines = []
    schedule = rules.schedule
    if schedule:
        sizes = ", ".join(str(s) for s in schedule)
        lines.append(f"{count_words(len(schedule), 'round')}, dealing {sizes} cards to each player in turn.")
        if rules.short_schedule and not rules.short_rounds:
            short = ", ".join(str(s) for s in rules.short_schedule)
            lines.append(f"Option short_rounds=true plays {short} instead; rounds=8,6,4 sets any list of hand sizes.")
    else:
        text = f"Deal {rules.deal} cards to each player"
        extra = []
        if rules.deal_two_players:
            extra.append(f"{rules.deal_two_players} each with two players")
        if rules.deal_extra_packs:
            extra.append(f"{rules.deal_extra_packs} each when more than one pack is used")
        if extra:
            text += " (" + "; ".join(extra) + ")"
        lines.append(text + ".")
    lines.append(
        "Cards are dealt one at a time, starting at the dealer's left; the next card is the starter, turned face up "
        "to begin the discard pile, and the rest is the stock. The first dealer is drawn at random and the deal "
        "passes one seat clockwise each round."
    )
    return lines


def _starter(rules: RuleSet) -> list[str]:
    lines = []
    if rules.starter_bury:
        cards = or_list([pattern_words(p) for p in rules.starter_bury])
        lines.append(
            f"A starter {cards} is buried in the middle of the stock and the next card turned, again while needed."
        )
    if rules.starter_turn_over:
        cards = or_list([pattern_words(p) for p in rules.starter_turn_over])
        lines.append(
            f"While the starter is {article(cards)}, the dealer turns another card onto it; if the stock runs out "
            "first, "
            "the last card turned stays, with no effect."
        )
    kinds = set(rules.starter_effects)
    acting = []
    for pattern, effects in rules.effects:
        own = tuple(e for e in effects if e.partition(":")[0] in kinds)
        if not own:
            continue
        words = []
        for effect in own:
            kind = effect.partition(":")[0]
            if kind == "wild":
                words.append("the dealer names the suit")
            elif kind == "reverse" and rules.starter_reverse_dealer_first:
                words.append("play goes counter-clockwise and the dealer plays first")
            elif kind == "reverse":
                words.append("play goes counter-clockwise, starting at the dealer's right")
            elif kind == "skip":
                words.append("the player at the dealer's left is skipped")
            elif kind == "draw":
                words.append(
                    f"the first player draws {count_words(int(effect.partition(':')[2]), 'card')} and loses the turn"
                )
            elif kind == "chain":
                words.append(f"it starts a chain of {effect.partition(':')[2]} for the first player")
            elif kind == "penalty":
                words.append(f"the first player draws {count_words(int(effect.partition(':')[2]), 'card')}")
            elif kind == "cancel":
                words.append("it cancels the effect of the first card played on it")
            else:
                words.append(effect_words(rules, effect))
        acting.append(f"{pattern_words(pattern)}: {'; '.join(words)}")
    if acting:
        lines.append("A starter with an effect acts as if the dealer had played it: " + ". ".join(acting) + ".")
    others = "Any other starter has no effect" if (acting or rules.starter_bury) else "The starter has no effect"
    lines.append(f"{others}; the player at the dealer's left plays first.")
    return lines


def _turn(rules: RuleSet) -> list[str]:
    lines = [
        "Play one card that matches the top card's rank or the active suit, or a wild card. After a wild, only the "
        "named suit or another wild plays."
    ]
    same = [pattern_words(r) for r in getattr(rules, "same_number", ())]
    if len(same) > 1:
        lines.append(
            f"{and_list(same)} count as the same number: any {same[0]} plays on any {same[1]} and the other way round."
        )
    if rules.draw == "until_playable":
        if rules.draw_at_will:
            lines.append(
                "You may draw instead of playing, even holding a playable card, one card at a time and as often as "
                "you like; after any draw you may play any playable card. The turn ends with a play, or with a pass "
                "when nothing can be drawn and nothing is playable."
            )
        else:
            lines.append(
                "If you cannot play, draw one card at a time until you can, then play; with nothing left to draw, pass."
            )
    elif rules.draw == "one_may_play":
        lines.append(
            "If you cannot play, draw one card: if it is playable you may play it at once, otherwise your turn ends."
        )
    elif rules.draw == "one_ends_turn":
        lines.append("If you cannot play, draw one card and your turn ends: the drawn card waits for your next turn.")
    else:
        lines.append(
            f"If you cannot play, draw up to {count_words(rules.draw_limit, 'card')}, one at a time, playing when you "
            f"can; after {count_words(rules.draw_limit, 'draw')} you may pass."
        )
    if rules.draw_at_will and rules.draw != "until_playable":
        lines.append("You may draw even when holding a playable card.")
    elif not rules.draw_at_will and rules.draw != "until_playable":
        lines.append("You may not draw while holding a playable card.")
    if rules.forced_play_exempt:
        cards = or_list([pattern_words(p) for p in rules.forced_play_exempt])
        lines.append(f"A player whose only playable cards are {cards} may draw instead of playing them.")
    if rules.reshuffle:
        lines.append(
            "When the stock runs out, the discard pile except its top card is shuffled into a new stock; with "
            "nothing to shuffle, a draw yields fewer cards or none, and a player who can neither play nor draw passes."
        )
    else:
        lines.append("There is no reshuffle: once the stock is exhausted, a player who cannot play passes.")
    return lines


def _special(rules: RuleSet) -> list[str]:
    table = [(pattern, effects) for pattern, effects in rules.effects if effects]
    grouped: dict[tuple[str, ...], list[str]] = {}
    for pattern, effects in table:
        grouped.setdefault(effects, []).append(pattern_words(pattern))
    lines = [f"{and_list(cards)}: {_effects_words(rules, effects)}." for effects, cards in grouped.items()]
    if not lines:
        lines.append("No card is special: every card just matches by rank or suit.")
    ranks = {parse_rank_or_none(p) for p, _ in table} - {None}
    overrides = [p for p, _ in table if parse_rank_or_none(p) is None and _card_rank(p) in ranks]
    if overrides:
        cards = and_list([pattern_words(p) for p in overrides])
        lines.append(f"A card named with its suit ({cards}) has only its own effect, not its rank's.")
    if _patterns_with(rules, "chain"):
        chain = _chain_cards(rules)
        lines.append(
            f"While a chain is pending only {article(chain)} may be played, a wild included; a player may always "
            "draw the "
            "chain instead, even holding a card that answers it."
        )
        if rules.chain_survives_out:
            lines.append(f"Going out on {article(chain)} still makes the next player draw the whole chain.")
    if _patterns_with(rules, "follow") and rules.follow_blocks_out:
        cards = or_list([pattern_words(p) for p in _patterns_with(rules, "follow")])
        lines.append(
            f"A round cannot end on {article(cards)}: a player whose last card was one must still follow or draw; with "
            "nothing to draw they stay in the round with no cards."
        )
    if getattr(rules, "four_in_a_row", False):
        same = [pattern_words(r) for r in getattr(rules, "same_number", ())]
        together = f" ({and_list(same)} count as one number)" if len(same) > 1 else ""
        lines.append(
            f"Four in a row: the moment a fourth card of one number lands directly on three of that number"
            f"{together}, every player, starting with the one who laid it and then in turn order, puts one card "
            "of their choice from hand under the discard pile; the first whose hand empties is out. Then the "
            "fourth card's own effect resolves, and the count starts again. Nothing cancels this."
        )
    if getattr(rules, "guarantee_joker", False):
        lines.append(
            "The Guarantee Joker: when the other joker (JK) is played and the very next card laid on it is the "
            "Guarantee Joker (GJ), by another player, the JK's player takes the whole stock into hand; then the "
            "GJ's own effect follows. Until the stock and discard pile hold 3 cards per player between them, a "
            "player who cannot match is skipped instead of drawing, and every forced draw is taken at random "
            "from the JK player's hand. Once per game, and again after a K♥."
        )
    lines.append("A card that empties its player's hand ends the round at once; its other effects are void.")
    return lines


def _card_rank(pattern: str) -> int | None:
    try:
        card = Card.parse(pattern)
    except CardError:
        return None
    return None if card.is_joker else card.rank


def _stacking(rules: RuleSet) -> list[str]:
    if rules.stacking:
        return [
            "On: you may lay several cards of one rank in one turn. The last one laid, left on top, must be "
            "playable; the others only share its rank. Each card's effect applies in turn (two skips skip two "
            "players, two draw cards double the draw)."
        ]
    follow = " (follow-me aside)" if _patterns_with(rules, "follow") else ""
    return [f"Off: one card per turn{follow}. Option stacking=true turns it on."]


def _two_players(rules: RuleSet) -> list[str]:
    turning = _patterns_with(rules, "skip") + _patterns_with(rules, "reverse")
    if not turning:
        return []
    cards = or_list([pattern_words(p) for p in turning])
    if not rules.two_player_extra_turn:
        return [
            "A skip gives the same player another turn; a reverse just reverses, so the other player plays next "
            "(option two_player_extra_turn=true makes every skip or reverse give another turn)."
        ]
    lines = [f"A turn in which {article(cards)} is laid is followed by another turn of the same player."]
    if {"skip", "reverse"} & set(rules.starter_effects) and not rules.starter_reverse_dealer_first:
        lines.append("So a starter that skips or reverses lets the dealer play first.")
    return lines


def score_table_words(rules: RuleSet) -> str:
    """The scoring table grouped by value: ``8 = 50; K, Q, J, 10 = 10; A = 1; 2-7 and 9 = face value``."""
    values = dict(rules.score_values)
    face = [r for r in RANK_ORDER[1:10] if values.get(r) == int(r)]
    groups: dict[int, list[str]] = {}
    for rank in RANK_ORDER:
        if rank in values and rank not in face:
            groups.setdefault(values[rank], []).append(rank)
    for pattern, value in rules.score_values:
        if parse_rank_or_none(pattern) is None:
            groups.setdefault(value, []).append(pattern_words(pattern))
    parts = [f"{', '.join(reversed(cards))} = {value}" for value, cards in sorted(groups.items(), reverse=True)]
    if face:
        parts.append(f"{_ranges(face)} = face value")
    return "; ".join(parts)


def parse_rank_or_none(pattern: str) -> int | None:
    try:
        return parse_rank(pattern)
    except CardError:
        return None


def _ranges(ranks: list[str]) -> str:
    """Runs of consecutive pip ranks: ``2-7 and 9``."""
    numbers = [int(r) for r in ranks]
    runs: list[list[int]] = []
    for n in numbers:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    words: list[str] = []
    for run in runs:
        words.extend([f"{run[0]}-{run[-1]}"] if len(run) > 2 else [str(x) for x in run])
    return and_list(words)


def _scoring(rules: RuleSet) -> list[str]:
    fewest = getattr(rules, "blocked_fewest_cards", False)
    lowest = "the fewest cards" if fewest or not rules.score_values else "the lowest hand value"
    blocked_by_value = f"If every player passes in turn, the round is blocked and the player with {lowest} wins it"
    if not rules.score_values:
        return ["No score is kept: cards have no value.", f"{blocked_by_value}; ties share the win."]
    table = score_table_words(rules)
    if not rules.score_keeping:
        return [
            "Score keeping is off (option score_keeping=true turns it on).",
            f"Hand values: {table}.",
            f"{blocked_by_value}; ties share the win.",
        ]
    lines = []
    if rules.scoring == "winner_collects":
        lines.append("The player who goes out collects the value of every other player's hand.")
        lines.append(
            f"{blocked_by_value} and collects the difference from each other player; a tie for lowest scores nothing."
        )
    else:
        lines.append("When a player goes out, every other player adds the value of their own hand to their total.")
        lines.append("If every player passes in turn, the round is blocked and every player adds their own hand.")
    lines.append(f"Hand values: {table}.")
    return lines


def _end(rules: RuleSet) -> list[str]:
    lines = []
    best = "lowest" if rules.lowest_wins else "highest"
    if getattr(rules, "teams", False):
        lines.append(
            "Teams of two: allies sit opposite each other (seats i and i + half the table); an even number of "
            "players, 4 or more. If either ally goes out, the team wins."
        )
    elif any(e.partition(":")[0] == "ally" for _, effects in rules.effects for e in effects):
        lines.append("Option teams=true plays in teams of two, allies sitting opposite.")
    if not rules.score_keeping:
        lines.append("The game is one round: the first player out wins.")
    elif rules.schedule:
        lines.append(
            f"The game is {count_words(len(rules.schedule), 'round')}; "
            f"then the {best} total wins, ties sharing the win."
        )
    else:
        ends = []
        if rules.target:
            ends.append(f"a player's total reaches {rules.target}")
        elif rules.target_per_player:
            per = rules.target_per_player
            examples = ", ".join(f"{per * n} for {n}" for n in range(rules.min_players, min(rules.max_players, 7) + 1))
            ends.append(f"a player's total reaches {per} per player ({examples} players)")
        if rules.hands:
            ends.append(f"{count_words(rules.hands, 'round')} have been played")
        if ends:
            lines.append(
                f"Rounds are played until {' or '.join(ends)}; then the {best} total wins, ties sharing the win."
            )
        else:
            lines.append(
                "The game is one round, won by the player who goes out (or who wins the blocked round). "
                "Option target=N or hands=N plays on, the " + best + " total winning."
            )
    lines.append(
        f"A round still running after {rules.max_actions} actions is stopped by a safety cap and scored as blocked."
    )
    return lines


__all__ = [
    "REFERENCE",
    "Section",
    "describe",
    "describe_text",
    "effect_words",
    "heading",
    "pattern_words",
    "score_table_words",
]


def rules_headline(rules: RuleSet, rules_file: Path | str | None = None) -> str:
    """The rule set's title with where it comes from and every rule it changes from its preset.

    ``Classic Crazy Eights (classic)``, ``Classic Crazy Eights (classic with deal=7, target=100)``,
    ``House (house.toml: action with stacking=true)``.
    """
    base, changes = rules.changes()
    source = f"{rules_file}: {base}" if rules_file is not None else base
    if changes:
        source += " with " + ", ".join(changes)
    return f"{rules.title} ({source})"


def rule_changes(rules: RuleSet) -> tuple[str, ...]:
    """What ``rules`` changes in its preset, as ``--option`` text: ``("stacking=true",)``."""
    return tuple(rules.changes()[1])
