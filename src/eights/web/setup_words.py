"""The words of the web's setup form (GET /api/presets): each preset's one-line character for its card on the
front page, and each option's name, group and explanation, said where it is set. The options themselves (which
exist, their kinds and values) come from the rule set (``eights.web.app.option_space``), never from here: an
option without words here still shows, under its field's name."""

from __future__ import annotations

#: Each preset in a line: what playing it is like.
CHARACTER = {
    "classic": "The game as it comes: follow the suit or the rank, 8s are wild, the first one out wins.",
    "action": "Queens skip, aces reverse, 2s make the next player draw two; stack them if you dare.",
    "race": "2s chain, 4s reverse, jacks skip: a race to 50 points a player.",
    "derange": "Hands of 8 cards down to 1 and back, chains of 2s, follow-me 3s and 10s; the lowest total wins.",
    "baby-eating": "Jokers, the Guarantee Joker, the Suicide King, jack drops and teams: the wildest of all.",
}

#: The groups, in the order the form shows them.
GROUPS = ("The deal", "Drawing", "Special cards", "Scoring and the end", "Cards and teams")

#: The expanded deck's choices in words (the draw policies and scoring modes have theirs in the rules).
EXPANDED_WORDS = {"false": "no", "true": "yes", "auto": "from a number of players on (below)"}

#: key: (name, group, what it does).
OPTIONS: dict[str, tuple[str, str, str]] = {
    "packs": ("Packs", "Cards and teams", "How many 52-card packs are shuffled together."),
    "jokers": ("Jokers", "Cards and teams", "Jokers added to the packs."),
    "expanded_deck": ("Expanded deck", "Cards and teams", "A second pack, less some cards, for a big table."),
    "expanded_from": (
        "Expanded deck from",
        "Cards and teams",
        "The number of players that brings in the expanded deck.",
    ),
    "expanded_remove": ("Left out of the expanded deck", "Cards and teams", "Cards taken out of the second pack."),
    "expanded_max_players": ("Most players with the expanded deck", "Cards and teams", "How many it seats."),
    "teams": ("Teams", "Cards and teams", "Partners sit opposite and win together."),
    "deal": ("Cards dealt", "The deal", "The size of each hand at the deal."),
    "deal_two_players": ("Cards dealt to two players", "The deal", "The hand size when only two play."),
    "deal_extra_packs": ("Cards dealt with more packs", "The deal", "The hand size when more than one pack is used."),
    "rounds": ("Hand sizes, round by round", "The deal", "One hand size per round, like 8,7,6: the match's rounds."),
    "short_rounds": ("Short match", "The deal", "Play the short schedule of rounds instead of the long one."),
    "short_schedule": ("Short schedule", "The deal", "The hand sizes of the short match."),
    "starter_bury": (
        "Starter buried",
        "The deal",
        "A first card of these is put back in the stock and another turned.",
    ),
    "starter_turn_over": ("Starter turned over", "The deal", "A first card of these is covered by the next one."),
    "starter_effects": ("Starter acts", "The deal", "A first card of these acts as if the dealer had played it."),
    "starter_reverse_dealer_first": ("A reverse starter: the dealer first", "The deal", "The dealer plays first."),
    "draw": ("Drawing", "Drawing", "What a player who cannot or will not play does."),
    "draw_limit": ("Most cards drawn", "Drawing", "How many cards a player may draw in one turn."),
    "draw_at_will": ("Draw at will", "Drawing", "A player may draw even with a card to play."),
    "forced_play_exempt": ("Never forced to play", "Drawing", "Cards a player may keep and draw instead."),
    "reshuffle": ("Reshuffle", "Drawing", "An empty stock is made again from the pile."),
    "stacking": ("Stacking", "Special cards", "Several cards of one rank played at once."),
    "two_player_extra_turn": (
        "Two players: skip plays again",
        "Special cards",
        "A skip or a reverse gives another turn.",
    ),
    "chain_survives_out": ("A chain outlives the end", "Special cards", "Going out on a 2 still makes the next draw."),
    "follow_blocks_out": (
        "Follow-me must be covered",
        "Special cards",
        "A hand emptied on a follow-me is not out yet.",
    ),
    "same_number": ("Counted as one number", "Special cards", "Ranks that match each other, like 6 and 9."),
    "four_in_a_row": ("Four in a row", "Special cards", "Four cards of one number in a row: everyone buries a card."),
    "guarantee_joker": (
        "The Guarantee Joker",
        "Special cards",
        "The Guarantee Joker on the other joker ends the round.",
    ),
    "blocked_fewest_cards": ("Blocked: fewest cards win", "Scoring and the end", "When nobody can play, who wins."),
    "scoring": ("Scoring", "Scoring and the end", "Who scores the cards left in the hands."),
    "score_keeping": ("Keep score", "Scoring and the end", "Play several rounds and add up the points."),
    "target": ("Target score", "Scoring and the end", "The match ends when someone reaches it."),
    "target_per_player": ("Target per player", "Scoring and the end", "The target, times the number of players."),
    "hands": ("Rounds", "Scoring and the end", "How many rounds the match has."),
    "lowest_wins": ("Lowest total wins", "Scoring and the end", "The fewest points win instead of the most."),
}
