"""The web table's per-client limits across instances, on a real Redis: two guards (two instances) share
the rates and the sockets' count; an instance that dies stops counting once its beat lapses, one that
closes at once; Redis down, each keeps to its share in memory; Redis restarted empty, both write their
counts again by themselves."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from eights.web.guard import ALIVE, SOCKETS, Guard
from eights.web.settings import Limits
from tests.web.test_workers import PATIENCE

LIMITS = Limits(
    rooms_per_client="4/hour", misses_per_client="2/minute", connections_per_client=4, lab_work_per_client="10/hour"
)


@pytest.fixture
def guards(redis_url: str) -> Iterator[tuple[Guard, Guard]]:
    one, two = Guard(LIMITS, redis_url), Guard(LIMITS, redis_url)
    yield one, two
    one.close()
    two.close()


def counted(url: str, client: str) -> dict[str, int]:
    """Each instance's count of ``client``'s sockets, as Redis holds them."""
    with redis.Redis.from_url(url) as plain:
        return {key.decode(): int(value) for key, value in plain.hgetall(SOCKETS + client).items()}


def eventually(check: Any, what: str) -> None:
    until = time.monotonic() + PATIENCE
    while not check():
        assert time.monotonic() < until, what
        time.sleep(0.1)


def test_two_instances_share_the_rates(guards: tuple[Guard, Guard]):
    one, two = guards
    assert [one.make_room("1.2.3.4"), two.make_room("1.2.3.4"), one.make_room("1.2.3.4")] == [True] * 3
    assert two.make_room("1.2.3.4")
    assert not one.make_room("1.2.3.4")
    assert not two.make_room("1.2.3.4")
    assert one.make_room("5.6.7.8"), "another client has its own"
    one.missed("1.2.3.4")
    assert two.may_look_up("1.2.3.4")
    two.missed("1.2.3.4")
    assert not one.may_look_up("1.2.3.4")
    assert not two.may_look_up("1.2.3.4")


def test_two_instances_share_the_labs_work(guards: tuple[Guard, Guard]):
    one, two = guards
    one.spend_lab_work("1.2.3.4", 3.2)  # a part second counts as a second
    assert two.lab_work_left("1.2.3.4") == 6
    two.spend_lab_work("1.2.3.4", 30.0)  # more than is left: all that is left
    assert one.lab_work_left("1.2.3.4") == two.lab_work_left("1.2.3.4") == 0
    assert one.lab_work_left("5.6.7.8") == 10, "another client has its own"


def test_two_instances_share_the_sockets(redis_url: str, guards: tuple[Guard, Guard]):
    one, two = guards
    assert [one.open_socket("1.2.3.4") for _ in range(3)] == [True] * 3
    assert two.open_socket("1.2.3.4")
    assert not two.open_socket("1.2.3.4")
    assert not one.open_socket("1.2.3.4")
    assert sorted(counted(redis_url, "1.2.3.4").values()) == [1, 3]
    one.close_socket("1.2.3.4")
    assert two.open_socket("1.2.3.4")
    assert not one.open_socket("1.2.3.4")
    assert one.open_socket("5.6.7.8"), "another client has its own"


def test_an_instance_closed_stops_counting_at_once(redis_url: str):
    one, two = Guard(LIMITS, redis_url), Guard(LIMITS, redis_url)
    try:
        for _ in range(4):
            assert one.open_socket("1.2.3.4")
        assert not two.open_socket("1.2.3.4")
        one.close()
        assert two.open_socket("1.2.3.4")
    finally:
        two.close()


def test_the_sockets_of_a_killed_instance_stop_counting_once_its_beat_lapses(redis_url: str):
    """An instance SIGKILLed with four sockets of a client: the other refuses that client's fifth until
    the dead one's beat is ALIVE seconds old, then lets it in."""
    holder = textwrap.dedent(
        f"""
        import sys, time
        from eights.web.guard import Guard
        from eights.web.settings import Limits
        guard = Guard(Limits(connections_per_client=4), {redis_url!r})
        assert all(guard.open_socket("1.2.3.4") for _ in range(4))
        print("holding", flush=True)
        time.sleep(600)
        """
    )
    process = subprocess.Popen([sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True)
    other = Guard(LIMITS, redis_url)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip() == "holding"
        assert not other.open_socket("1.2.3.4")
        process.kill()
        process.wait()
        killed = time.monotonic()
        eventually(lambda: other.open_socket("1.2.3.4"), "the dead instance's sockets never stopped counting")
        assert time.monotonic() - killed >= ALIVE - 1.5, "not before its beat lapsed"
        assert list(counted(redis_url, "1.2.3.4").values()) == [1], "the dead instance's count was dropped"
    finally:
        process.kill()
        process.wait()
        other.close()


def test_redis_down_each_instance_keeps_to_its_share_then_both_recover(redis_server: Any, redis_url: str):
    one, two = Guard(LIMITS, redis_url), Guard(LIMITS, redis_url)
    try:
        assert [one.open_socket("1.2.3.4") for _ in range(3)] == [True] * 3
        assert two.open_socket("1.2.3.4")
        eventually(lambda: one.instances == two.instances == 2, "the instances never saw each other")
        redis_server.stop()
        # Down: half of each limit per instance (two instances were alive); sockets open stay open.
        assert not one.open_socket("1.2.3.4"), "it holds three here, past its share of two"
        assert [two.open_socket("1.2.3.4") for _ in range(2)] == [True, False]
        assert [two.open_socket("9.9.9.9") for _ in range(3)] == [True, True, False]
        assert [one.make_room("9.9.9.9") for _ in range(3)] == [True, True, False]
        assert [two.make_room("9.9.9.9") for _ in range(3)] == [True, True, False]
        redis_server.start()  # empty: what it held was lost
        eventually(
            lambda: sorted(counted(redis_url, "1.2.3.4").values()) == [2, 3] and counted(redis_url, "9.9.9.9") != {},
            "the instances never wrote their counts again",
        )
        assert not one.open_socket("1.2.3.4"), "the client holds five across both"
        two.close_socket("1.2.3.4")
        assert not one.open_socket("1.2.3.4"), "and four"
        two.close_socket("1.2.3.4")
        assert one.open_socket("1.2.3.4")
        assert two.open_socket("9.9.9.9") and two.open_socket("9.9.9.9")
        assert not one.open_socket("9.9.9.9")
        assert one.make_room("9.9.9.9"), "the windows in Redis start again (Redis lost them)"
    finally:
        one.close()
        two.close()


def test_a_redis_restart_is_recovered_by_itself(redis_server: Any, redis_url: str):
    one, two = Guard(LIMITS, redis_url), Guard(LIMITS, redis_url)
    try:
        assert [one.open_socket("1.2.3.4") for _ in range(2)] == [True] * 2
        assert [two.open_socket("1.2.3.4") for _ in range(2)] == [True] * 2
        redis_server.restart()
        eventually(lambda: sorted(counted(redis_url, "1.2.3.4").values()) == [2, 2], "the counts never came back")
        assert not one.open_socket("1.2.3.4")
        assert not two.open_socket("1.2.3.4")
    finally:
        one.close()
        two.close()


def test_without_redis_the_guard_is_one_instances(tmp_path: Any):
    alone = Guard(LIMITS)
    assert [alone.open_socket("1.2.3.4") for _ in range(5)] == [True] * 4 + [False]
    assert [alone.make_room("1.2.3.4") for _ in range(5)] == [True] * 4 + [False]
    alone.close()
