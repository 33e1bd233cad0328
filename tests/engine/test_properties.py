"""Properties of every game, checked with hypothesis over presets, player counts, options and seeds.

Each example deals a game from a seed and plays it with random legal actions from a second seed:
(1) every card is in exactly one place; (2) the seat to act always has a legal action until the
game is over; (3) a view shows nothing hidden and does not change when only hidden cards do, and the
incremental views and observations (``LiveViews``, ``Observer``) equal the reference at every step;
(4) every round ends within the safety cap, and a round stopped by it says so; (5) the same seed
and the same choices give the same game; (6) a clone is independent of its original; and the
checked door refuses an illegal action without touching the game.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eights.cards import ALL_CARDS
from eights.engine import DRAW, PASS, Action, Game, LiveViews, NameSuit, Play, redact, view
from eights.engine.actions import BURY, CHOOSE
from eights.engine.errors import IllegalAction, NotYourTurn
from eights.engine.events import CardsDrawn, CardsSwapped, Event, RoundOver, RoundStarted, SuicideKing
from eights.engine.game import FIELDS
from eights.research.encoding import ActionSpace, encode
from eights.research.observer import Observer
from eights.rules import RuleSet, load_preset
from tests.support.scripting import fitting_players

# (preset, options): every option that changes play, kept to games short enough to check at every action.
CONFIGS: list[tuple[str, tuple[str, ...]]] = [
    ("classic", ()),
    ("classic", ("deal_two_players=7",)),
    ("classic", ("target=100",)),
    *[
        ("action", (f"stacking={stacking}", f"score_keeping={keeping}", f"packs={packs}"))
        for stacking in ("true", "false")
        for keeping in ("true", "false")
        for packs in ("auto", "2", "3")
    ],
    ("race", ()),
    *[("derange", (f"packs={packs}", "short_rounds=true")) for packs in (1, 2, 3, 4)],
    *[("derange", (f"packs={packs}", "rounds=2,1")) for packs in (1, 2, 3, 4)],
    ("derange", ("rounds=8",)),
    ("baby-eating", ()),
    ("baby-eating", ("teams=true",)),
    ("baby-eating", ("expanded_deck=true",)),
]

_RULES: dict[tuple[str, tuple[str, ...]], RuleSet] = {}


def rules_for(config: tuple[str, tuple[str, ...]]) -> RuleSet:
    if config not in _RULES:
        preset, options = config
        _RULES[config] = load_preset(preset).with_options(list(options))
    return _RULES[config]


@st.composite
def games(draw: st.DrawFn, configs: list[tuple[str, tuple[str, ...]]] = CONFIGS) -> tuple[RuleSet, int, int, int]:
    """(rules, players, deal seed, choice seed)."""
    rules = rules_for(draw(st.sampled_from(configs)))
    players = draw(st.sampled_from(fitting_players(rules)))
    return rules, players, draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, 2**32 - 1))


def steps(game: Game, rng: random.Random):
    """Play random legal actions through the checked door; yield after each one."""
    while not game.is_over:
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        game.play(action, game.to_act)
        yield action


def snapshot(game: Game) -> tuple[object, ...]:
    """Every field of the game, copied (the RNG by its state)."""
    values: list[object] = []
    for name in FIELDS:
        value = getattr(game, name)
        if name == "rng":
            value = value.getstate()
        elif name == "hands":
            value = tuple(tuple(hand) for hand in value)
        elif isinstance(value, list):
            value = tuple(value)
        values.append((name, value))
    return tuple(values)


# ----- (1) every card is in exactly one place ------------------------------------------------


def places(game: Game) -> Counter[int]:
    cards: Counter[int] = Counter(game.stock)
    cards.update(game.discard)
    for hand in game.hands:
        cards.update(hand)
    return cards


@settings(max_examples=100, deadline=None)
@given(games())
def test_every_card_is_in_exactly_one_place(case):
    rules, n, seed, choices = case
    game = Game(rules, n, seed=seed)
    pack = Counter(rules.pack(n))
    if not rules.expanded_for(n):
        assert sum(pack.values()) == 52 * game.packs + rules.jokers
        assert all(pack[c] == game.packs for c in range(52))
    assert places(game) == pack
    for _ in steps(game, random.Random(choices)):
        assert places(game) == pack


# ----- (2) the seat to act always has a legal action --------------------------------------------


@settings(max_examples=100, deadline=None)
@given(games())
def test_the_seat_to_act_always_has_a_legal_action(case):
    rules, n, seed, choices = case
    game = Game(rules, n, seed=seed)
    rng = random.Random(choices)
    while not game.is_over:
        assert 0 <= game.to_act < n
        legal = game.legal_actions()
        assert legal, f"seat {game.to_act} is stuck in phase {game.phase_name}"
        assert len(set(legal)) == len(legal), f"repeated legal actions: {legal}"
        game.play(legal[rng.randrange(len(legal))], game.to_act)
    assert game.to_act == -1
    assert game.legal_actions() == []


# ----- (3) views show nothing hidden ---------------------------------------------------------------


def hidden_cards_shown(event: Event, seat: int | None) -> bool:
    """Whether a redacted event still shows cards ``seat`` may not see."""
    if isinstance(event, CardsDrawn):
        return event.seat != seat and event.cards is not None
    if isinstance(event, RoundStarted | SuicideKing):
        return any(hand is not None for i, hand in enumerate(event.hands) if i != seat)
    if isinstance(event, CardsSwapped):
        return seat not in (event.seat, event.target) and (event.gave is not None or event.got is not None)
    return False


def check_redaction(log: list[Event], seat: int | None) -> None:
    for event in log:
        seen = redact(event, seat)
        assert type(seen) is type(event)
        assert not hidden_cards_shown(seen, seat), (seat, seen)
        # What the seat may see is kept: its own cards, and everything but the hidden cards.
        if isinstance(event, RoundStarted | SuicideKing):
            if seat is not None:
                assert seen.hands[seat] == event.hands[seat]
            assert replace(seen, hands=event.hands) == event
        elif isinstance(event, CardsDrawn):
            assert replace(seen, cards=event.cards) == event
            if event.seat == seat:
                assert seen == event
        elif isinstance(event, CardsSwapped):
            assert replace(seen, gave=event.gave, got=event.got) == event
            if seat in (event.seat, event.target):
                assert seen == event
        else:
            assert seen == event


def hide_differently(game: Game, seat: int | None, rng: random.Random) -> Game:
    """A clone differing from ``game`` only in what ``seat`` cannot see: the stock's order, other
    seats' cards (their counts kept), and the hidden cards in the log."""
    other = game.clone(log=True)
    rng.shuffle(other.stock)
    others = [s for s in range(game.players) if s != seat and other.hands[s]]
    if len(others) >= 2:
        a, b = rng.sample(others, 2)
        i, j = rng.randrange(len(other.hands[a])), rng.randrange(len(other.hands[b]))
        other.hands[a][i], other.hands[b][j] = other.hands[b][j], other.hands[a][i]
    if others and other.stock:
        a = rng.choice(others)
        i, j = rng.randrange(len(other.hands[a])), rng.randrange(len(other.stock))
        other.hands[a][i], other.stock[j] = other.stock[j], other.hands[a][i]
    fake = ALL_CARDS[0]
    log = other.log
    assert log is not None
    for k, event in enumerate(log):
        if isinstance(event, CardsDrawn) and event.seat != seat and event.cards:
            log[k] = replace(event, cards=(fake,) * len(event.cards))
        elif isinstance(event, RoundStarted | SuicideKing):
            log[k] = replace(event, hands=tuple(h if i == seat else () for i, h in enumerate(event.hands)))
        elif isinstance(event, CardsSwapped) and seat not in (event.seat, event.target):
            log[k] = replace(event, gave=fake, got=fake)
    return other


def check_view(game: Game, seat: int | None) -> None:
    seen = view(game, seat)
    assert seen.hand == (tuple(game.hands[seat]) if seat is not None else ())
    assert seen.hand_counts == tuple(len(h) for h in game.hands)
    assert seen.stock_count == len(game.stock)
    if seat != game.to_act:
        assert seen.legal == () and seen.drawn is None
    else:
        assert list(seen.legal) == game.legal_actions()
    for event in seen.history:
        assert not hidden_cards_shown(event, seat), (seat, event)


def observed(observer: Observer, seat: int) -> list[float]:
    """Row ``seat`` of the observer's observations, brought up to date."""
    observer.refresh(seat)
    size = observer.size
    return list(observer.rows[seat * size : (seat + 1) * size])


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 2**32 - 1))
def test_views_show_nothing_hidden(case, probe_seed):
    rules, n, seed, choices = case
    game = Game(rules, n, seed=seed)
    space = ActionSpace(rules, n)
    observer = Observer(space, game)
    probe = random.Random(probe_seed)
    seats: list[int | None] = [*range(n), None]
    checked = 0
    for _ in steps(game, random.Random(choices)):
        if probe.random() < 0.15 or game.is_over:
            seat = probe.choice(seats)
            check_view(game, seat)
            # The view does not change when only hidden information does, nor does the observation.
            other = hide_differently(game, seat, probe)
            assert view(other, seat) == view(game, seat)
            if seat is not None:
                assert observed(Observer(space, other), seat) == observed(observer, seat)
            checked += 1
    assert checked
    for seat in seats:
        check_redaction(game.log, seat)


@settings(max_examples=40, deadline=None)
@given(games(), st.integers(0, 2**32 - 1))
def test_live_views_and_observations_equal_the_reference_at_every_step(case, probe_seed):
    """``LiveViews`` and ``Observer`` follow a game as it is played, reading only what the log gained;
    at every step they give exactly ``view(game, seat)`` and ``encode(view(game, seat))``, whichever
    seats ask and however long a seat went without asking."""
    rules, n, seed, choices = case
    game = Game(rules, n, seed=seed)
    space = ActionSpace(rules, n)
    live = LiveViews(game)
    observer = Observer(space, game)
    probe = random.Random(probe_seed)
    seats: list[int | None] = [*range(n), None]

    def check() -> None:
        for seat in probe.sample(seats, probe.randint(1, len(seats))):
            reference = view(game, seat)
            assert live.view(seat) == reference
            if seat is not None:
                assert observed(observer, seat) == encode(reference)
                assert list(observer.mask) == space.mask(game.legal_actions())

    check()
    for _ in steps(game, random.Random(choices)):
        check()


def test_a_hidden_change_is_a_real_change():
    """The clone ``hide_differently`` builds does differ from the game (else the test above proves nothing)."""
    game = Game(load_preset("classic"), 4, seed=3)
    other = hide_differently(game, 0, random.Random(1))
    assert other.hands[0] == game.hands[0]
    assert other.hands != game.hands or other.stock != game.stock
    assert other.log != game.log
    # A seat's own hand is part of its view: changing it changes the view.
    mine = game.clone(log=True)
    mine.hands[0][0], mine.stock[0] = mine.stock[0], mine.hands[0][0]
    assert view(mine, 0) != view(game, 0)
    assert view(mine, 1) == view(game, 1)
    space = ActionSpace(game.rules, 4)
    assert observed(Observer(space, mine), 0) != observed(Observer(space, game), 0)
    assert observed(Observer(space, mine), 1) == observed(Observer(space, game), 1)


# ----- (4) rounds end within the safety cap ---------------------------------------------------------


def round_lengths(game: Game, rng: random.Random) -> list[tuple[int, str]]:
    """Play to the end; each round's action count and how it ended."""
    lengths: list[tuple[int, str]] = []
    count = 0
    index = game.round_index
    for _ in steps(game, rng):
        count += 1
        if game.round_index != index:
            index = game.round_index
            assert game.last_round is not None
            lengths.append((count, game.last_round.reason))
            count = 0
    return lengths


@settings(max_examples=100, deadline=None)
@given(games(), st.integers(10, 40))
def test_every_round_ends_within_the_cap(case, cap):
    rules, n, seed, choices = case
    # Schedules and targets keep the match finite even when every round is capped.
    if rules.score_keeping and not rules.schedule and (rules.match_target(n) or rules.hands):
        rules = rules.replace(max_actions=cap, target=0, target_per_player=0, hands=2)
    else:
        rules = rules.replace(max_actions=cap)
    game = Game(rules, n, seed=seed)
    lengths = round_lengths(game, random.Random(choices))
    assert game.outcome is not None
    assert len(lengths) == game.outcome.rounds
    for count, reason in lengths:
        assert count <= cap
        assert reason in ("out", "blocked", "cap")
        if reason == "cap":
            assert count == cap
    rounds = [e for e in game.log if isinstance(e, RoundOver)]
    assert [e.reason for e in rounds] == [reason for _, reason in lengths]


@pytest.mark.parametrize("preset", ["classic", "action", "race", "derange", "baby-eating"])
def test_a_round_stopped_by_the_cap_says_so(preset):
    rules = load_preset(preset).replace(max_actions=10)
    capped = []
    for seed in range(20):
        game = Game(rules, 3, seed=seed)
        rng = random.Random(seed)
        lengths = round_lengths(game, rng)
        capped += [event for event in game.log if isinstance(event, RoundOver) and event.reason == "cap"]
        assert all(count <= 10 for count, _ in lengths)
    assert capped, "ten actions should not be enough to finish every round"
    for event in capped:
        assert "safety cap" in event.words()
        assert event.winners  # a capped round is scored like a blocked one


def test_the_default_cap_is_never_reached_in_random_play():
    for preset in ("classic", "action", "race", "derange", "baby-eating"):
        rules = load_preset(preset)
        assert rules.max_actions == 10000
        game = Game(rules, 4, seed=5)
        lengths = round_lengths(game, random.Random(5))
        assert all(reason != "cap" for _, reason in lengths)


# ----- (5) same seed, same game -----------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(games())
def test_same_seed_and_choices_give_the_same_game(case):
    rules, n, seed, choices = case
    first = Game(rules, n, seed=seed)
    played = list(steps(first, random.Random(choices)))
    second = Game(rules, n, seed=seed)
    again = list(steps(second, random.Random(choices)))
    assert again == played
    assert second.log == first.log
    assert second.outcome == first.outcome
    assert snapshot(second) == snapshot(first)
    # The log-free fast path plays the same game.
    fast = Game(rules, n, seed=seed, log=False)
    for action in played:
        fast.apply(action)
    assert fast.outcome == first.outcome
    assert fast.hands == first.hands and fast.totals == first.totals


# ----- (6) clone() is independent -------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(games(), st.integers(0, 2**16), st.booleans())
def test_a_clone_is_independent_and_plays_the_same(case, stop, with_log):
    rules, n, seed, choices = case
    whole = list(steps(Game(rules, n, seed=seed), random.Random(choices)))
    game = Game(rules, n, seed=seed)
    for action in whole[: stop % len(whole)]:
        game.play(action)
    assert not game.is_over
    before = snapshot(game)
    copy = game.clone(log=with_log)
    assert copy.hands == game.hands and copy.stock == game.stock and copy.discard == game.discard
    played = list(steps(copy, random.Random(choices + 1)))
    assert copy.is_over
    assert snapshot(game) == before, "playing the clone changed the original"
    for action in played:
        game.play(action)
    assert game.outcome == copy.outcome
    assert game.hands == copy.hands and game.stock == copy.stock and game.discard == copy.discard
    if with_log:
        assert copy.log == game.log
    else:
        assert copy.log is None


def test_mutating_a_clone_leaves_the_original_alone():
    game = Game(load_preset("derange").with_options(["short_rounds=true"]), 3, seed=11)
    before = snapshot(game)
    copy = game.clone(log=True)
    copy.hands[0].clear()
    copy.stock.pop()
    copy.discard.append(copy.discard[-1])
    copy.totals[1] = 99
    copy.queue.append(1)
    copy.jack_queue.append(2)
    copy.log.clear()
    copy.rng.random()
    assert snapshot(game) == before


def test_a_clone_copies_the_random_source_unless_given_one():
    game = Game(load_preset("classic"), 2, seed=5)
    state = game.rng.getstate()
    copy = game.clone()
    assert copy.rng is not game.rng and copy.rng.getstate() == state
    given = random.Random(1)
    mine = game.clone(rng=given)
    assert mine.rng is given
    mine.rng.random()
    assert game.rng.getstate() == state


# ----- the checked door refuses illegal actions and leaves the game untouched ---------------------


def illegal_candidates(game: Game) -> list[Action]:
    return [
        *(Play(c) for c in ALL_CARDS),
        DRAW,
        PASS,
        *(NameSuit(s) for s in range(4)),
        *(BURY[c] for c in ALL_CARDS[:4]),
        *CHOOSE[: game.players],
    ]


@settings(max_examples=60, deadline=None)
@given(games(), st.integers(0, 2**32 - 1))
def test_an_illegal_action_is_refused_and_changes_nothing(case, probe_seed):
    rules, n, seed, choices = case
    game = Game(rules, n, seed=seed)
    probe = random.Random(probe_seed)
    rng = random.Random(choices)
    while not game.is_over:
        legal = game.legal_actions()
        if probe.random() < 0.2:
            before = snapshot(game)
            wrong = [a for a in illegal_candidates(game) if a not in legal]
            action = probe.choice(wrong)
            with pytest.raises(IllegalAction) as info:
                game.play(action)
            assert str(info.value)
            assert snapshot(game) == before
            other = (game.to_act + 1) % n
            with pytest.raises(NotYourTurn):
                game.play(legal[0], other)
            assert snapshot(game) == before
        game.play(legal[rng.randrange(len(legal))])
