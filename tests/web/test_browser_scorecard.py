"""The web scorecard in a real browser (issue 22): a whole derange sheet filled by touch on a phone, its totals
checked against figures worked by hand, and a second phone following the read-only link as rounds appear.

Derange values (rules/derange.toml): A 15, 2 30, 3 30, 4-7 and 9 their pips, 8 50, 10 30, J 10, Q 10, K 20;
everyone but the player out adds their own hand; 15 rounds; the lowest total wins. At three players the
table uses two packs, so the picker offers two of each card.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser import PATIENCE, PHONE

WAIT = PATIENCE * 1000
PLAYERS = ("Ann", "Bob", "Cid")
#: A hand as entered: points typed in, or the cards tapped on the picker.
Hand = int | list[str]

#: The fifteen rounds: who went out (None: blocked) and the others' hands.
ROUNDS: list[tuple[str | None, dict[str, Hand]]] = [
    ("Ann", {"Bob": ["8H", "KS"], "Cid": 14}),  # Bob 50 + 20 = 70
    ("Bob", {"Ann": 4, "Cid": ["QS", "3C"]}),  # Cid 10 + 30 = 40
    ("Cid", {"Ann": 12, "Bob": 7}),
    ("Ann", {"Bob": 0, "Cid": 25}),
    (None, {"Ann": ["2D"], "Bob": 5, "Cid": 6}),  # blocked: everyone adds their hand; Ann 30
    ("Bob", {"Ann": 9, "Cid": 3}),
    ("Cid", {"Ann": 10, "Bob": 20}),
    ("Ann", {"Bob": ["5C"], "Cid": 15}),
    ("Bob", {"Ann": 6, "Cid": 30}),
    ("Cid", {"Ann": ["AH", "9S"], "Bob": 11}),  # Ann 15 + 9 = 24
    ("Ann", {"Bob": 40, "Cid": 8}),
    ("Bob", {"Ann": 13, "Cid": 2}),
    ("Cid", {"Ann": 21, "Bob": 3}),
    ("Ann", {"Bob": 17, "Cid": 19}),
    ("Bob", {"Ann": ["8C", "8C"], "Cid": 4}),  # both packs' 8C: 50 + 50 = 100
]
#: Totals (Ann, Bob, Cid) after each round, worked by hand; after round 7, round 1 is edited (Bob had only
#: KS: 20, not 70), so from round 7 on Bob has 50 less.
TOTALS = [
    (0, 70, 14),
    (4, 70, 54),
    (16, 77, 54),
    (16, 77, 79),
    (46, 82, 85),
    (55, 82, 88),
    (65, 52, 88),  # 65, 102 - 50, 88
    (65, 57, 103),
    (71, 57, 133),
    (95, 68, 133),
    (95, 108, 141),
    (108, 108, 143),
    (129, 111, 143),
    (129, 128, 162),
    (229, 128, 166),
]


def start_sheet(page: Any, base: str) -> str:
    """Start a derange sheet for Ann, Bob and Cid, Ann dealing first; the sheet's code."""
    page.goto(f"{base}/scorecard")
    fill_new_sheet(page)
    code: str = page.url.rsplit("/", 1)[1]
    return code


def fill_new_sheet(page: Any) -> None:
    """On the start page: a derange sheet for Ann, Bob and Cid, Ann dealing first, started."""
    page.check("#preset-derange")
    page.fill("#player-0", "Ann")
    page.fill("#player-1", "Bob")
    page.click("#add-player")
    page.fill("#player-2", "Cid")
    page.select_option("#sheet-dealer", "Ann")
    page.click("#start-sheet")
    page.wait_for_selector("#entry:not([hidden])", timeout=WAIT)


def pick(page: Any, seat: int, cards: list[str]) -> None:
    """Tap the cards on the picker (a card given twice is tapped twice: two copies)."""
    page.click(f"#pick-{seat}")
    page.wait_for_selector("#picker[open]", timeout=WAIT)
    for card in cards:
        page.click(f'#picker-cards [data-card="{card}"]')
    page.click("#picker-done")
    page.wait_for_selector("#picker", state="hidden", timeout=WAIT)


def fill_round(page: Any, out: str | None, hands: dict[str, Hand]) -> None:
    page.click("#out-blocked" if out is None else f"#out-{PLAYERS.index(out)}")
    for name, hand in hands.items():
        seat = PLAYERS.index(name)
        if isinstance(hand, int):
            page.click(f"#mode-points-{seat}")
            page.fill(f"#points-{seat}", str(hand))
        else:
            page.click(f"#mode-cards-{seat}")
            pick(page, seat, hand)


def save(page: Any, rounds: int) -> None:
    page.click("#save-round")
    page.wait_for_function("(n) => document.body.dataset.rounds === n", arg=str(rounds), timeout=WAIT)


def shown_totals(page: Any) -> tuple[int, ...]:
    """The totals in the standings, in seat order."""
    totals = {
        row.get_attribute("data-player"): int(row.query_selector("td.number").inner_text())
        for row in page.query_selector_all("#standings tbody tr")
    }
    return tuple(totals[name] for name in PLAYERS)


def keep_the_match(page: Any, undo: int | None = None) -> None:
    """Enter the fifteen rounds, editing round 1 after round 7 (and, with ``undo``, undoing that round once
    and entering it again), checking the totals worked by hand after each."""
    assert page.inner_text("#next") == "Round 1 of 15: Ann deals 8 cards each."
    for number, (out, hands) in enumerate(ROUNDS, 1):
        fill_round(page, out, hands)
        save(page, number)
        if number == 1:
            line = page.inner_text('#rounds [data-round="1"] tr:nth-child(2) .breakdown')
            assert " ".join(line.split()) == "8♥ 50 + K♠ 20 = 70"
        if number == 5:
            assert "Bob dealt 4 · blocked" in page.inner_text('#rounds [data-round="5"]')
        if number == 7:
            # Edit round 1: Bob had only KS. The picker shows 8H and KS chosen; 8H is tapped to two
            # copies, then away.
            page.click("#edit-1")
            assert page.get_attribute("#out-0", "aria-pressed") == "true"
            page.click("#pick-1")
            assert page.get_attribute('#picker-cards [data-card="8H"]', "aria-label") == "8 of hearts, 1 of 2"
            page.click('#picker-cards [data-card="8H"]')
            page.click('#picker-cards [data-card="8H"]')
            assert page.get_attribute('#picker-cards [data-card="8H"]', "aria-pressed") == "false"
            page.click("#picker-done")
            page.click("#save-round")
            page.wait_for_function("() => document.querySelector('#entry-title').textContent.startsWith('Round 8')")
        assert shown_totals(page) == TOTALS[number - 1], f"after round {number}"
        if number < 15:
            assert page.inner_text("#next").startswith(f"Round {number + 1} of 15:")


def test_a_whole_derange_sheet_on_a_phone_shows_the_totals_worked_by_hand(chromium: Any, live_server: Any) -> None:
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        start_sheet(page, live_server.base)
        keep_the_match(page)
        assert page.inner_text("#result .winner-line") == "Bob wins"
        assert [row.inner_text().split("\t")[:2] for row in page.query_selector_all("#standings tbody tr")] == [
            ["1", "Bob"],
            ["2", "Cid"],
            ["3", "Ann"],
        ]
        assert page.get_attribute('#standings tr[data-player="Bob"]', "class") == "leader"
        assert page.is_hidden("#entry")
        # A refused entry is one line on the page and changes nothing: negative points in an edit of round 15.
        page.click("#edit-15")
        page.click("#mode-points-2")
        page.fill("#points-2", "-4")
        page.click("#save-round")
        page.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert page.inner_text("#problem").startswith("Cid: -4 points is negative")
        assert shown_totals(page) == TOTALS[-1]
    finally:
        context.close()


def test_a_second_phone_follows_the_read_only_link_and_cannot_change_the_sheet(chromium: Any, live_server: Any) -> None:
    keeper = chromium.new_context(**PHONE)
    follower = chromium.new_context(**PHONE)
    try:
        page = keeper.new_page()
        code = start_sheet(page, live_server.base)
        page.click("#share")
        link = page.inner_text("#view-link")
        assert link == f"{live_server.base}/s/{code}" and page.get_attribute("#view-qr", "src").startswith(
            "data:image/svg"
        )
        edit_link = page.get_attribute("#edit-link", "href")
        assert edit_link.startswith(f"{link}#e=")
        page.click("#share-close")

        watcher = follower.new_page()
        watcher.goto(link)
        watcher.wait_for_selector("#following:not([hidden])", timeout=WAIT)
        assert watcher.is_hidden("#entry") and watcher.is_hidden("#undo") and watcher.is_hidden("#finish")
        for number, (out, hands) in enumerate(ROUNDS[:3], 1):
            fill_round(page, out, hands)
            save(page, number)
            watcher.wait_for_function("(n) => document.body.dataset.rounds === n", arg=str(number), timeout=WAIT)
            assert shown_totals(watcher) == TOTALS[number - 1]
            assert watcher.query_selector_all("#rounds button") == []  # no edit or delete
        page.click("#undo")
        watcher.wait_for_function("() => document.body.dataset.rounds === '2'", timeout=WAIT)
        assert shown_totals(watcher) == TOTALS[1]
        page.wait_for_selector("#said:not([hidden])", timeout=WAIT)
        assert page.text_content("#said") == "Undid the entry of round 3."
        # The server restarts: both pages connect again by themselves, and the next round still appears.
        live_server.restart()
        fill_round(page, *ROUNDS[2])
        save(page, 3)
        watcher.wait_for_function("() => document.body.dataset.rounds === '3'", timeout=WAIT)
        watcher.wait_for_selector("#connection", state="hidden", timeout=WAIT)
        assert shown_totals(watcher) == TOTALS[2]
        # The read-only code is no edit token: the server refuses it, and the sheet stays as it was.
        answer = watcher.evaluate(
            """async (code) => {
                const response = await fetch(`/api/sheets/${code}/rounds`, {
                    method: "POST", headers: {"Content-Type": "application/json"},
                    body: JSON.stringify({token: code, out: "Ann", left: {Bob: 1, Cid: 1}}),
                });
                return [response.status, (await response.json()).error];
            }""",
            code,
        )
        assert answer == [
            403,
            "this link only shows the sheet: changes need its edit link, kept on the phone that started it",
        ]
        assert shown_totals(page) == TOTALS[2] and shown_totals(watcher) == TOTALS[2]
        # The edit link (the token after #, never sent to the server in the address) hands the sheet to
        # another phone, which can then enter the next round.
        second = chromium.new_context(**PHONE)
        try:
            other = second.new_page()
            other.goto(edit_link)
            other.wait_for_selector("#entry:not([hidden])", timeout=WAIT)
            assert other.url == link and other.is_hidden("#following")
            page.click("#out-1")  # the first phone has begun round 4 as well
            fill_round(other, *ROUNDS[3])
            save(other, 4)
            watcher.wait_for_function("() => document.body.dataset.rounds === '4'", timeout=WAIT)
            assert shown_totals(watcher) == TOTALS[3]
            # The first phone is told why what it had begun is gone, and its form waits for round 5.
            page.wait_for_function("() => document.body.dataset.rounds === '4'", timeout=WAIT)
            assert page.inner_text("#problem") == (
                "Round 4 was entered on another device while you were entering it here: "
                "check it in the list; what you had begun was cleared."
            )
            assert page.get_attribute("#out-1", "aria-pressed") == "false"
            assert page.inner_text("#next") == "Round 5 of 15: Bob deals 4 cards each."
        finally:
            second.close()
    finally:
        keeper.close()
        follower.close()


def test_a_phone_is_offered_only_the_names_of_its_own_sheets(chromium: Any, live_server: Any) -> None:
    """Issue 28, item 8: the names offered on the start page are those of the sheets this browser keeps;
    another phone is offered none of them."""
    keeper = chromium.new_context(**PHONE)
    stranger = chromium.new_context(**PHONE)
    try:
        page = keeper.new_page()
        start_sheet(page, live_server.base)
        page.goto(f"{live_server.base}/scorecard")
        page.wait_for_selector("#player-2", timeout=WAIT)
        offered = page.eval_on_selector_all("#known-names option", "options => options.map(o => o.value)")
        assert sorted(offered) == sorted(PLAYERS)
        assert [page.input_value(f"#player-{seat}") for seat in range(3)] == list(PLAYERS)
        other = stranger.new_page()
        other.goto(f"{live_server.base}/scorecard")
        other.wait_for_selector("#player-1", timeout=WAIT)
        assert other.eval_on_selector_all("#known-names option", "options => options.length") == 0
        assert other.input_value("#player-0") == ""
    finally:
        keeper.close()
        stranger.close()


#: The WCAG contrast of each text in the totals box against the box: [[what, ratio], ...].
TOTALS_CONTRAST = """() => {
  const rgb = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const linear = (c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  const luminance = (colour) => {
    const [r, g, b] = rgb(colour).map(linear);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const box = luminance(getComputedStyle(document.querySelector(".standings-box")).backgroundColor);
  const texts = ["#standings-title", "#standings thead th", "#standings tbody th", "#standings tbody td", "#next"];
  return texts.flatMap((selector) => [...document.querySelectorAll(selector)].map((node) => {
    const text = luminance(getComputedStyle(node).color);
    return [selector, (Math.max(box, text) + 0.05) / (Math.min(box, text) + 0.05)];
  }));
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_totals_are_readable_in_the_light_and_the_dark_theme(chromium: Any, live_server: Any, scheme: str) -> None:
    """The totals box is felt in both themes: its texts keep a contrast of 4.5 or more (WCAG AA) against it (in
    the light theme they were dark ink on the dark felt)."""
    context = chromium.new_context(**PHONE, color_scheme=scheme)
    try:
        page = context.new_page()
        start_sheet(page, live_server.base)
        fill_round(page, *ROUNDS[0])
        save(page, 1)
        low = [(what, round(ratio, 2)) for what, ratio in page.evaluate(TOTALS_CONTRAST) if ratio < 4.5]
        assert low == []
    finally:
        context.close()


def test_a_hand_left_out_or_points_that_are_no_number_are_refused_as_the_terminal_refuses_them(
    chromium: Any, live_server: Any
) -> None:
    """Issue 40, items 2 and 6: Save without Bob's cards saved "Bob no cards (0)"; ``abc`` in the points box
    was called "not a card" with the jokers derange does not play."""
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        start_sheet(page, live_server.base)
        fill_round(page, "Ann", {"Cid": 5})
        assert "none picked" in page.inner_text('.hand-row[data-player="Bob"]')
        page.click("#save-round")
        page.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert page.inner_text("#problem") == (
            "no points or cards for Bob: give every player who did not go out their points or their cards left "
            "(0 points for no cards left)"
        )
        page.click("#mode-points-1")
        page.fill("#points-1", "abc")
        page.click("#save-round")
        page.wait_for_function("() => document.querySelector('#problem').textContent.startsWith('Bob: ')", timeout=WAIT)
        assert page.inner_text("#problem") == (
            "Bob: 'abc' is not a whole number in the digits 0-9; give the value of Bob's cards left, like 35, "
            "or the cards themselves"
        )
        assert page.evaluate("document.body.dataset.rounds") == "0"
        page.fill("#points-1", "0")
        save(page, 1)
        assert shown_totals(page) == (0, 0, 5)
    finally:
        context.close()


def test_delete_asks_first_and_keeps_the_round_when_told_to(chromium: Any, live_server: Any) -> None:
    """Issue 40, item 11: Delete removed a round at one tap, with no confirmation."""
    context = chromium.new_context(**PHONE)
    try:
        page = context.new_page()
        start_sheet(page, live_server.base)
        for number, (out, hands) in enumerate(ROUNDS[:2], 1):
            fill_round(page, out, hands)
            save(page, number)
        page.click("#delete-1")
        page.wait_for_selector("#delete-dialog[open]", timeout=WAIT)
        assert page.inner_text("#delete-title") == "Delete round 1?"
        page.click("#delete-no")
        page.wait_for_selector("#delete-dialog", state="hidden", timeout=WAIT)
        assert page.evaluate("document.body.dataset.rounds") == "2" and shown_totals(page) == TOTALS[1]
        page.click("#delete-1")
        page.click("#delete-yes")
        page.wait_for_function("() => document.body.dataset.rounds === '1'", timeout=WAIT)
    finally:
        context.close()
