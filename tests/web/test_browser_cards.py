"""The table drawn like cards, in a real browser against a real server (tests/support/browser.py): SVG faces that fit
a 320 px phone, eight seats around the oval at 320 px, motion that stops under reduced motion, the
four-colour deck, and pass and play: two people at one page through a whole match, their hands hidden
from each other between turns.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.support.browser import DESKTOP, PATIENCE, PHONE, new_game
from tests.web.test_browser_table import Watched, by_touch, open_room, play, sit, start

NARROW: dict[str, Any] = {**PHONE, "viewport": {"width": 320, "height": 640}}

#: Pairs of elements among ``selector`` whose boxes overlap, and elements that stick out of the page sideways.
OVERLAPS = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)].map((e) => [e.textContent, e.getBoundingClientRect()]);
  const out = [];
  for (let i = 0; i < boxes.length; i++) {
    const [a, r] = boxes[i];
    if (r.left < 0 || r.right > document.documentElement.clientWidth) out.push(["outside", a]);
    for (let j = i + 1; j < boxes.length; j++) {
      const [b, s] = boxes[j];
      if (r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom) out.push([a, b]);
    }
  }
  return out;
}"""

#: Whether the page scrolls sideways.
SIDEWAYS = "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"

#: Count the cards that fly (added to the page as .flying) from now on.
COUNT_FLIGHTS = """() => {
  window.flights = 0;
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes)
      if (node.classList?.contains("flying")) window.flights += 1;
  }).observe(document.body, { childList: true });
}"""


@contextmanager
def at_my_turn(
    chromium: Any, base: str, device: dict[str, Any], preset: str, players: int, options: dict[str, str] | None = None
) -> Iterator[Watched]:
    """A game against easy computers on ``device``, at its first turn of this seat's (closed after)."""
    context = chromium.new_context(**device)
    try:
        me = Watched(context.new_page(), touch=True)
        new_game(me.page, base, preset, players, options or {})
        play([me], until="turn")
        yield me
    finally:
        context.close()


def test_svg_cards_fit_a_320_px_phone(chromium: Any, live_server: Any) -> None:
    with at_my_turn(chromium, live_server.base, NARROW, "classic", 2) as me:
        page = me.page
        cards = page.evaluate(
            """() => [...document.querySelectorAll("#hand .card, #top-card .card")].map((c) => {
              const rank = c.querySelector(".index .rank").getBoundingClientRect();
              return { svg: !!c.querySelector("svg.face"), width: c.getBoundingClientRect().width,
                       rankHeight: rank.height, text: c.querySelector(".index").textContent };
            })"""
        )
        assert len(cards) == len(me.table["hand"]) + 1
        for card in cards:
            assert card["svg"] and card["width"] >= 40, card  # a picture, at least 40 px wide
            assert card["rankHeight"] >= 11, card  # its corner index readable
        assert not page.evaluate(SIDEWAYS)
        # a card 40 px wide still has a corner index of readable size (11 px and more)
        small = page.evaluate(
            """async () => {
              const { cardFace } = await import("/static/cards.js");
              const card = cardFace({ code: "10H", text: "10♥", suit: "H" }, document.createElement("span"));
              card.style.width = "40px"; card.style.height = "56px";
              document.body.append(card);
              const size = parseFloat(getComputedStyle(card.querySelector(".rank")).fontSize);
              card.remove();
              return size;
            }"""
        )
        assert small >= 11, small
        # the two jokers: different pictures and colours; suits keep colour and symbol
        jokers = page.evaluate(
            """async () => {
              const { cardFace } = await import("/static/cards.js");
              return ["GJ", "JK"].map((code) => {
                const card = cardFace({ code, text: code, suit: null }, document.createElement("span"));
                document.body.append(card);
                const shapes = [...card.querySelectorAll("svg *")].map((e) => e.getAttribute("class"));
                const seen = { shapes: shapes.join(" "),
                               colour: getComputedStyle(card).color, text: card.querySelector(".index").textContent };
                card.remove();
                return seen;
              });
            }"""
        )
        assert jokers[0]["text"] == "GJ" and jokers[1]["text"] == "JK"
        assert "gj-shield" in jokers[0]["shapes"] and "gj-shield" not in jokers[1]["shapes"]
        assert jokers[0]["colour"] != jokers[1]["colour"]
        back = page.evaluate("() => getComputedStyle(document.querySelector('#stock .card.back')).backgroundImage")
        assert "back.svg" in back


def test_eight_seats_at_320_px(chromium: Any, live_server: Any) -> None:
    with at_my_turn(chromium, live_server.base, NARROW, "action", 8) as me:
        page = me.page
        assert page.locator("#seats .seat").count() == 8
        # every seat, and the piles, in sight and clear of each other, and no sideways scroll
        assert page.evaluate(OVERLAPS, "#seats .seat, #stock, #discard") == []
        assert not page.evaluate(SIDEWAYS)
        # yours at the bottom: below every other seat
        tops = page.evaluate(
            "() => [...document.querySelectorAll('#seats .seat')].map((s) => s.getBoundingClientRect().top)"
        )
        mine = me.table["seat"]
        assert all(tops[mine] > top for seat, top in enumerate(tops) if seat != mine), tops
        # each seat shows its count as a small fan of backs, hidden from screen readers
        fans = page.evaluate(
            """() => [...document.querySelectorAll('#seats .seat .fan')]
                 .map((f) => [f.children.length, f.getAttribute('aria-hidden')])"""
        )
        assert all(
            n == min(5, count) and hidden == "true" for (n, hidden), count in zip(fans, me.table["counts"], strict=True)
        )
        # every badge a seat can show, on every seat at once: the skip mark at its pop's largest (the motion's
        # own animation, held at its first frame), the away ring; each inside the page, and no sideways scroll
        badges = page.evaluate(
            """async () => {
              const { pop } = await import('/static/motion.js');
              for (const seat of document.querySelectorAll('#seats .seat')) {
                seat.classList.add('skipped', 'waiting');
                seat.style.setProperty('--away', '.5');
                pop(seat.querySelector('.skip-mark')).pause();
              }
              const width = document.documentElement.clientWidth;
              const out = [...document.querySelectorAll('#seats .seat')].flatMap((seat, i) => {
                const mark = seat.querySelector('.skip-mark').getBoundingClientRect();
                const ring = getComputedStyle(seat, '::after');
                const box = seat.getBoundingClientRect();
                const ringLeft = box.left + parseFloat(ring.left);
                const ringRight = ringLeft + parseFloat(ring.width);
                return [[i, 'mark', mark.left, mark.right], [i, 'ring', ringLeft, ringRight]]
                  .filter(([, , left, right]) => left < 0 || right > width);
              });
              return { out, sideways: document.documentElement.scrollWidth > width };
            }"""
        )
        assert badges == {"out": [], "sideways": False}, badges
        by_touch(me, "turn")
        assert not page.evaluate(SIDEWAYS)


def test_a_phone_on_its_side_shows_the_whole_table(chromium: Any, live_server: Any) -> None:
    side = {**PHONE, "viewport": {"width": 844, "height": 390}}
    with at_my_turn(chromium, live_server.base, side, "action", 8) as me:
        page = me.page
        page.evaluate("() => window.scrollTo(0, 0)")
        bottoms = page.evaluate(
            """() => ["#felt", "#hand", "#prompt"]
                 .map((s) => document.querySelector(s).getBoundingClientRect().bottom)"""
        )
        assert all(bottom <= 390 for bottom in bottoms), bottoms  # the felt, your hand and what you are asked
        assert page.evaluate(OVERLAPS, "#seats .seat, #stock, #discard") == []
        assert not page.evaluate(SIDEWAYS)


def test_motion_shows_moves_and_stops_under_reduced_motion(chromium: Any, live_server: Any) -> None:
    flights = {}
    for motion in ("no-preference", "reduce"):
        context = chromium.new_context(**DESKTOP, reduced_motion=motion)
        try:
            me = Watched(context.new_page())
            new_game(me.page, live_server.base, "classic", 3, {})
            me.page.evaluate(COUNT_FLIGHTS)
            play([me], until="turn", moves=3)
            flights[motion] = me.page.evaluate("() => window.flights")
            moving = me.page.evaluate("() => document.getAnimations().filter((a) => a.playState === 'running').length")
            if motion == "reduce":
                assert moving == 0
        finally:
            context.close()
    assert flights["no-preference"] > 0 and flights["reduce"] == 0, flights


def test_the_away_ring_counts_down_from_the_servers_seconds(chromium: Any, live_server: Any) -> None:
    """A person away on their turn: the ring on their seat starts from the seconds the server says are left,
    and shows on no seat while the person away is not the one to act."""
    host_context, host, code = open_room(chromium, live_server.base)
    friend_context, _ = sit(chromium, live_server.base, code, "Bea")
    try:
        start(host)
        host.page.wait_for_selector("#table:not([hidden])")
        friend_context.close()  # Bea goes away
        deadline = time.monotonic() + 150
        rings_before = []
        while True:
            assert time.monotonic() < deadline, "Bea's turn never came"
            room, table = host.states[-1]["room"], host.table
            if table["to_act"] == 1 and not room["seats"][1]["connected"]:
                break
            if not room["seats"][1]["connected"]:
                assert room["away_left"] is None  # away, but not the one to act: no countdown
                rings_before.append(host.page.locator("#seats .seat.waiting").count())
            what = host.next()
            if what:
                by_touch(host, what)
            host.page.wait_for_timeout(40)
        host.page.wait_for_selector("#seats .seat.waiting")
        left = host.states[-1]["room"]["away_left"]
        assert 0 < left <= 60, left
        ring = host.page.evaluate(
            """() => {
              const seats = [...document.querySelectorAll('#seats .seat')];
              const seat = seats.find((s) => s.classList.contains('waiting'));
              return { seat: seats.indexOf(seat), left: (Number(seat.dataset.awayUntil) - Date.now()) / 1000,
                       away: parseFloat(seat.style.getPropertyValue('--away') || '0'),
                       size: getComputedStyle(seat, '::after').width };
            }"""
        )
        assert ring["seat"] == 1 and 0 < ring["left"] <= left, (ring, left)
        assert 0 <= ring["away"] <= 1 - ring["left"] / 60 + 0.05 and ring["size"] != "auto", ring
        assert not any(rings_before), rings_before
    finally:
        for context in (host_context, friend_context):
            context.close()


def test_the_four_colour_deck_is_a_toggle_kept_on_the_device(chromium: Any, live_server: Any) -> None:
    context = chromium.new_context(**DESKTOP)
    try:
        me = Watched(context.new_page())
        new_game(me.page, live_server.base, "classic", 2, {})
        page = me.page
        colours = """async () => {
          const { cardFace } = await import("/static/cards.js");
          return ["C", "D", "H", "S"].map((suit) => {
            const text = `5${"♣♦♥♠"["CDHS".indexOf(suit)]}`;
            const card = cardFace({ code: `5${suit}`, text, suit }, document.createElement("span"));
            document.body.append(card);
            const colour = getComputedStyle(card).color;
            card.remove();
            return colour;
          });
        }"""
        two = page.evaluate(colours)
        assert two[0] == two[3] and two[1] == two[2] and two[0] != two[1]  # the usual two colours
        assert page.get_attribute("#tool-colours", "aria-pressed") == "false"
        page.click("#tool-colours")
        assert page.get_attribute("#tool-colours", "aria-pressed") == "true"
        four = page.evaluate(colours)
        assert len(set(four)) == 4, four
        page.reload()
        page.wait_for_selector("#hand .card")
        assert page.get_attribute("#tool-colours", "aria-pressed") == "true" and len(set(page.evaluate(colours))) == 4
        page.click("#tool-colours")
        assert page.evaluate(colours) == two
        # sound: one toggle, off until asked for
        assert page.get_attribute("#tool-sound", "aria-pressed") == "false"
    finally:
        context.close()


def post(base: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        f"{base}/api/rooms", json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_a_room_with_people_here_gives_each_its_token(live_server: Any) -> None:
    status, body = post(
        live_server.base,
        {"name": "Ann", "seats": ["me", "here", "easy", "here"], "names": ["Bea", "Cid"], "start": True},
    )
    assert status == 200, body
    assert [s["seat"] for s in body["here"]] == [1, 3]
    assert len({body["token"], *(s["token"] for s in body["here"])}) == 3
    status, body = post(live_server.base, {"name": "Ann", "seats": ["me", "here"], "names": [], "start": True})
    assert status == 400 and body["error"] == 'seats: 1 seats are "here" but 0 names given', body
    status, body = post(live_server.base, {"name": "Ann", "seats": ["me", "here"], "names": [""], "start": True})
    assert status == 400 and "name" in body["error"], body


def test_pass_and_play_two_people_at_one_phone(chromium: Any, live_server: Any) -> None:
    context = chromium.new_context(**PHONE)
    try:
        me = Watched(context.new_page(), touch=True)
        page = me.page
        page.goto(f"{live_server.base}/")
        page.fill("#name", "Ann")
        page.check("#new-preset-classic")
        page.select_option("#new-players", "2")
        page.select_option("#new-seat-1", "here")
        page.fill("#new-seat-name-1", "Bea")
        page.click("#play-now")
        page.wait_for_selector("#table:not([hidden]), #pass:not([hidden])", timeout=PATIENCE * 1000)
        assert me.sockets == 2  # one connection per person here, each with its own seat
        passes: list[str] = []
        seats_played: set[int] = set()
        deadline = time.monotonic() + 150
        while me.next() != "end":
            assert time.monotonic() < deadline, "the match did not end in time"
            if page.is_visible("#pass"):
                # between turns no hand is on the page, nor any card of one, and the table takes no tap
                shown = page.evaluate(
                    """() => ({ hand: document.querySelectorAll("#hand .card").length,
                               table: document.querySelector("#table").hidden,
                               codes: [...document.querySelectorAll("[data-code]")].length })"""
                )
                assert shown == {"hand": 0, "table": True, "codes": 0}, shown
                passes.append(page.text_content("#pass-name") or "")
                page.locator("#pass-ready").tap()
                page.wait_for_selector("#pass", state="hidden")
                if len(passes) == 2:  # a reload mid-match: both people here are connected again
                    page.reload()
                    page.wait_for_selector("#table:not([hidden]), #pass:not([hidden])", timeout=PATIENCE * 1000)
                continue
            what = me.next()
            if what == "dialog":  # a suit to name, or a round's end to close
                page.locator("#dialog .suit-choice, #dialog .move-choice, #dialog-close").first.tap()
            elif what == "turn":
                seats_played.add(
                    page.evaluate(
                        """() => [...document.querySelectorAll('#seats .seat')]
                             .findIndex((s) => s.classList.contains('mine'))"""
                    )
                )
                page.locator("#hand .card.marked, #moves button").first.tap()
            page.wait_for_timeout(40)
        assert {"Ann", "Bea"} <= set(passes), passes  # the phone went to each of them
        assert len(passes) > 2 and me.sockets == 4  # after the reload, one connection per person here again
        assert seats_played == {0, 1}
        result = me.states[-1]["table"]["result"]
        assert result is not None
        assert page.text_content("#result h2") == result["lines"][0]
    finally:
        context.close()


#: A reverse, two stacked reverses, a skip, a draw and a chain of 2s growing, given to the page's own drawing and
#: motion as the states that follow the real one it shows (``t``: that state; ``room``: its room), as the
#: server gives each; what the table then shows, and what moves (``getAnimations()`` brings the style up to
#: date first).
NEXT_STATES = """async ([room, t]) => {
  const { showChanges } = await import('/static/motion.js');
  const { drawCentre, drawSeats } = await import('/static/felt.js');
  const moving = (node) => node.getAnimations().length > 0;
  const turning = (marker) => marker.getAnimations().map((a) => a.effect.getKeyframes()[0].transform);
  const marker = document.querySelector('#marker');
  const shown = { glyphs: [marker.textContent] };
  const show = (next) => {
    drawSeats(room, next);
    drawCentre(next);
    showChanges(room.code, next);
  };
  const turned = { ...t, direction: -t.direction, discard_count: t.discard_count + 1, reversed: 1, skipped: [] };
  show(turned);
  shown.glyphs.push(marker.textContent);
  shown.reverse = turning(marker);
  marker.getAnimations().forEach((a) => a.finish());
  const twice = { ...turned, discard_count: turned.discard_count + 1, reversed: 2 };
  show(twice);
  shown.glyphs.push(marker.textContent);
  shown.twice = turning(marker);
  const other = (t.seat + 1) % t.names.length;
  const skipping = { ...twice, discard_count: twice.discard_count + 1, skipped: [other], reversed: 0 };
  show(skipping);
  const seat = () => document.querySelectorAll('#seats .seat')[other];
  shown.skip = [seat().classList.contains('skipped'), moving(seat().querySelector('.skip-mark'))];
  // the next state comes at once (the seat after draws a card): every seat is drawn again, still marked
  const counts = skipping.counts.map((n, s) => (s === (other + 1) % t.names.length ? n + 1 : n));
  show({ ...skipping, counts, skipped: [other] });
  shown.still = seat().classList.contains('skipped');
  const chain = document.querySelector('#chain');
  shown.chain = [];
  for (const count of [2, 4]) {
    const next = { ...skipping, counts, chain: count, skipped: [] };
    show(next);
    shown.chain.push([chain.hidden ? '' : chain.textContent, moving(chain)]);
  }
  return shown;
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_reverse_skip_and_chain_are_shown_and_move_unless_reduced(chromium: Any, live_server: Any, motion: str) -> None:
    """At your turn in a real room (action, stacking), the page's drawing and motion given made-up next states:
    a reverse turns the direction marker over into the other arrow, two stacked reverses turn it over twice
    (the same arrow again), a skip marks the skipped seat and the mark stays through the next state, a
    chain's count grows with a pop; under reduced motion each is shown the same, and nothing moves."""
    device = {**DESKTOP, "reduced_motion": motion}
    with at_my_turn(chromium, live_server.base, device, "action", 4, {"stacking": "true"}) as me:
        shown = me.page.evaluate(NEXT_STATES, [me.states[-1]["room"], me.table])
        animated = motion == "no-preference"
        now, other = ("↻", "↺") if me.table["direction"] == 1 else ("↺", "↻")
        assert shown["glyphs"] == [now, other, other], shown
        # each turn-over the last animation of the marker (a state of the room's own may have come meanwhile)
        assert shown["reverse"][-1:] == (["perspective(8rem) rotateY(180deg)"] if animated else []), shown
        assert shown["twice"][-1:] == (["perspective(8rem) rotateY(360deg)"] if animated else []), shown
        assert shown["skip"] == [True, animated], shown
        assert shown["still"], shown
        # the first 2 shows +2, the second grows it to +4: each a pop, unless reduced
        assert shown["chain"] == [["+2", animated], ["+4", animated]], shown


#: Every turn-over the page gives the direction marker, in order (window.turns: its first keyframe).
COUNT_TURNS = """(() => {
  window.turns = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, options) {
    if (this.id === 'marker') window.turns.push(frames[0].transform);
    return animate.call(this, frames, options);
  };
})();"""


def test_every_reverse_of_a_real_match_turns_the_marker(chromium: Any, live_server: Any) -> None:
    """A whole match of action at three (aces reverse) by touch against the computers: every state that
    follows a card which reversed play (the server's ``reversed``) turns the marker over that many times,
    and nothing else turns it; the marker ends as the arrow of the last state's direction."""
    context = chromium.new_context(**PHONE)
    try:
        context.add_init_script(COUNT_TURNS)
        me = Watched(context.new_page(), touch=True)
        new_game(me.page, live_server.base, "action", 3, {"score_keeping": "false"})
        expected: list[str] = []
        for _ in range(5):  # matches until one holds a reverse
            play([me])
            for last, now in zip(me.states, me.states[1:], strict=False):
                was, table = last["table"], now["table"]
                dealt = table["round"] != was["round"] or (was["result"] and not table["result"])
                dealt = dealt or (was["round_end"] and not table["round_end"])
                played = table["discard_count"] > was["discard_count"] or table["top"] != was["top"]
                if not dealt and played and table["reversed"]:
                    expected.append(f"perspective(8rem) rotateY({180 * table['reversed']}deg)")
            if expected:
                break
            me.page.locator("#rematch").click()
            me.page.wait_for_function("() => document.querySelector('#result').hidden")
        assert expected, "five matches and never a reverse"
        assert me.page.evaluate("() => window.turns") == expected
        arrow = "↻" if me.table["direction"] == 1 else "↺"
        assert me.page.text_content("#marker") == arrow
    finally:
        context.close()


#: A test double of the browser's WebAudio: every oscillator started, by its frequency (window.tones).
COUNT_TONES = """(() => {
  window.tones = [];
  const Real = window.AudioContext;
  window.AudioContext = class extends Real {
    createOscillator() {
      const tone = super.createOscillator();
      const start = tone.start.bind(tone);
      tone.start = (...when) => { window.tones.push(tone.frequency.value); return start(...when); };
      return tone;
    }
  };
})();"""

#: Each sound by a note only it has (sound.js: a play's 330 Hz, a draw's 420, your turn's 1046, the end's 523).
SOUNDS = {"play": 330, "draw": 420, "turn": 1046, "end": 523}


def test_sounds_are_off_until_turned_on_then_play_draw_turn_and_end(chromium: Any, live_server: Any) -> None:
    context = chromium.new_context(**DESKTOP)
    context.add_init_script(COUNT_TONES)
    try:
        me = Watched(context.new_page())
        page = me.page
        new_game(page, live_server.base, "classic", 2, {})
        tones = "() => window.tones.length"
        play([me], until="turn", moves=2)
        assert page.get_attribute("#tool-sound", "aria-pressed") == "false"
        assert page.evaluate(tones) == 0  # off by default: moves made, no sound
        page.click("#tool-sound")
        assert page.get_attribute("#tool-sound", "aria-pressed") == "true"
        assert page.evaluate(tones) > 0  # the toggle says so with a sound
        play([me], until="turn", moves=1)
        page.click("#tool-sound")  # off again: moves make no sound
        assert page.get_attribute("#tool-sound", "aria-pressed") == "false"
        before = page.evaluate(tones)
        play([me], until="turn", moves=2)
        assert page.evaluate(tones) == before
        page.click("#tool-sound")
        play([me], until="end")
        heard = set(page.evaluate("() => window.tones"))  # every sound made, all while on
        assert {name for name, note in SOUNDS.items() if note in heard} == set(SOUNDS), heard
    finally:
        context.close()
