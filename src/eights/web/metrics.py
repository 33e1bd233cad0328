"""What an operator watches (docs/security.md): ``GET /healthz`` for a load balancer, and ``GET /metrics`` in
Prometheus' text format (prometheus_client) for this machine and trusted proxies only: rooms by phase,
connections (with many instances: those relayed, held for other instances, and whether Redis answers),
computer decisions (queued, busy, answered, played by the fallback and why) and how long
they took, the reviews and labs under way (the other work a stranger can ask of the workers), and the bytes
waiting for the sockets' readers (with the states a newer one replaced, and the readers closed as too slow).

The figures are read from the hub and its pool when scraped (one registry per app, so that several apps
in one process, as in the tests, keep theirs apart); only the decisions' durations are counted as
they happen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from eights.web.lab import LabDesk
from eights.web.outbox import Tally
from eights.web.reviews import Reviewer
from eights.web.rooms.registry import Hub

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: The pool's counts that only grow (the rest are gauges).
COUNTED = ("decisions", "searches", "fallbacks", "overruns", "refused", "expired", "lost", "restarts")


class HubCollector(Collector):
    """The hub's rooms and connections, and its pool's counts, as they are when scraped."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def collect(self) -> Iterator[Any]:
        hub = self.hub
        rooms = GaugeMetricFamily("eights_rooms", "Rooms held, by phase (asleep: saved, not asked for since a restart)")
        phases: dict[str, int] = {"lobby": 0, "playing": 0, "over": 0}
        for room in hub.rooms.values():
            phases[room.phase] = phases.get(room.phase, 0) + 1
        for phase, count in phases.items():
            rooms.add_sample("eights_rooms", {"phase": phase}, count)
        rooms.add_sample("eights_rooms", {"phase": "asleep"}, len(hub.dormant))
        yield rooms
        connections = GaugeMetricFamily("eights_connections", "WebSockets open in rooms")
        connections.add_metric([], sum(len(room.connections) for room in hub.rooms.values()))
        yield connections
        if hub.cluster is not None and hub.relays is not None:
            relayed = GaugeMetricFamily(
                "eights_relayed_connections", "WebSockets held here for rooms another instance owns"
            )
            relayed.add_metric([], len(hub.relays.relayed))
            yield relayed
            remote = GaugeMetricFamily(
                "eights_remote_connections", "WebSockets other instances hold to rooms owned here"
            )
            remote.add_metric([], len(hub.relays.remote))
            yield remote
            redis = GaugeMetricFamily("eights_redis_up", "Whether Redis answered this instance's last heartbeat")
            redis.add_metric([], 1 if hub.cluster.up else 0)
            yield redis
        stats = hub.pool.stats()
        for key in ("workers", "queued", "busy"):
            gauge = GaugeMetricFamily(f"eights_decisions_{key}", f"Computer decisions' pool: {key} now")
            gauge.add_metric([], stats.get(key, 0))
            yield gauge
        for key in COUNTED:
            counter = CounterMetricFamily(f"eights_decisions_{key}", f"Computer decisions' pool: {key} so far")
            counter.add_metric([], stats.get(key, 0))
            yield counter


class WorkCollector(Collector):
    """The reviews and labs under way, as they are when scraped."""

    def __init__(self, reviewer: Reviewer, labs: LabDesk) -> None:
        self.reviewer = reviewer
        self.labs = labs

    def collect(self) -> Iterator[Any]:
        reviews = GaugeMetricFamily("eights_reviews_running", "Reviews of finished matches under way")
        reviews.add_metric([], self.reviewer.running())
        yield reviews
        labs = GaugeMetricFamily("eights_labs", "Labs of house rules asked for, by state")
        states = {"waiting": 0, "playing": 0}
        for job in self.labs.jobs.values():
            states[job.state] = states.get(job.state, 0) + 1
        for state, count in states.items():
            labs.add_sample("eights_labs", {"state": state}, count)
        yield labs


class OutboxCollector(Collector):
    """What the sockets' outboxes hold, and what they dropped, as it is when scraped."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally

    def collect(self) -> Iterator[Any]:
        waiting = GaugeMetricFamily("eights_outbox_bytes", "Bytes of messages waiting for the sockets' readers")
        waiting.add_metric([], self.tally.waiting)
        yield waiting
        replaced = CounterMetricFamily(
            "eights_outbox_states_replaced", "States replaced by a newer one before their socket wrote them"
        )
        replaced.add_metric([], self.tally.replaced)
        yield replaced
        slow = CounterMetricFamily("eights_outbox_slow_readers", "Sockets closed for reading too slowly (4009)")
        slow.add_metric([], self.tally.slow)
        yield slow


class Metrics:
    """One app's metrics: its registry, with the hub's figures, the decisions' durations, the reviews
    and labs under way, and the sockets' outboxes."""

    def __init__(self, hub: Hub, reviewer: Reviewer, labs: LabDesk, outboxes: Tally) -> None:
        self.registry = CollectorRegistry()
        self.registry.register(HubCollector(hub))
        self.registry.register(WorkCollector(reviewer, labs))
        self.registry.register(OutboxCollector(outboxes))
        self.decision_seconds = Histogram(
            "eights_decision_seconds",
            "Seconds a computer decision took, asked to answered (the fallback's included)",
            buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0),
            registry=self.registry,
        )
        hub.on_decision = self.decision_seconds.observe

    def text(self) -> bytes:
        return generate_latest(self.registry)
