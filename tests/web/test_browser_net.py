"""The page's connection gives up a socket that answers nothing: a server that hangs (here paused with
SIGSTOP, as a stuck process or a relay that lost its way) keeps the socket open, so the page expects an
answer to its hello and to each ping within a deadline, and opens another socket when none comes.

Real parts: ``eights serve`` in a process of its own and Debian's Chromium; the page's clock is Playwright's,
so the test moves the page's time on instead of waiting for it."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

from tests.support.browser import DESKTOP, PATIENCE, LiveServer, new_game

#: The page's ping period and its deadline for an answer (src/eights/web/static/net.js), in ms.
PING_EVERY, ANSWER_WAIT = 25_000, 10_000


def test_a_server_that_answers_nothing_is_given_up_and_the_page_reconnects(chromium: Any, tmp_path: Path) -> None:
    server = LiveServer(tmp_path / "paused.db", pace=0)
    assert server.process is not None
    context = chromium.new_context(**DESKTOP)
    page = context.new_page()
    page.clock.install()
    paused = False
    try:
        new_game(page, server.base, "classic", 2, {})
        assert page.is_hidden("#connection")
        os.kill(server.process.pid, signal.SIGSTOP)
        paused = True
        page.clock.run_for(PING_EVERY + ANSWER_WAIT + 1000)  # a ping goes out, and nothing comes back
        page.wait_for_selector("#connection:has-text('Reconnecting')", timeout=PATIENCE * 1000)
        os.kill(server.process.pid, signal.SIGCONT)
        paused = False
        page.clock.run_for(ANSWER_WAIT + 16_000)  # the next try, on a new socket, is answered
        page.wait_for_selector("#connection", state="hidden", timeout=PATIENCE * 1000)
        page.wait_for_selector("#hand .card", timeout=PATIENCE * 1000)
    finally:
        if paused:
            os.kill(server.process.pid, signal.SIGCONT)
        context.close()
        server.stop()
