import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.support.extras import missing

settings.register_profile(
    "ci", derandomize=True, deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _own_database(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test saves its matches in a database of its own, never in the user's."""
    monkeypatch.setenv("EIGHTS_DATABASE_URL", str(tmp_path_factory.mktemp("store") / "eights.db"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """A throwaway PostgreSQL server for the whole run (see tests/support/postgres.py); skipped when the machine
    has none, except under CI, where it fails."""
    from tests.support.postgres import PostgresUnavailable, throwaway_cluster

    try:
        with throwaway_cluster() as server:
            yield server
    except PostgresUnavailable as exc:
        missing("PostgreSQL server", exc)


@pytest.fixture
def postgres(postgres_server: Any) -> Iterator[Any]:
    """The throwaway PostgreSQL server with an emptied database, started again after a test that stopped it."""
    from sqlalchemy import text

    from eights.store import Store, database_url

    store = Store(database_url(postgres_server.url))
    with store.engine.begin() as connection:
        connection.execute(text("TRUNCATE sheets, rooms, matches, settings CASCADE"))
    store.close()
    try:
        yield postgres_server
    finally:
        postgres_server.ensure_started()


@pytest.fixture(scope="session")
def postgres_url(postgres_server: Any) -> str:
    """The throwaway PostgreSQL server's database URL."""
    return str(postgres_server.url)


@pytest.fixture(scope="module")
def redis_server() -> Iterator[Any]:
    """A throwaway Redis server for one test module (see tests/support/redis_server.py); skipped when the machine
    has none, except under CI, where it fails."""
    from tests.support.redis_server import RedisUnavailable, throwaway_redis

    try:
        with throwaway_redis() as server:
            yield server
    except RedisUnavailable as exc:
        missing("Redis server", exc)


@pytest.fixture
def redis_url(redis_server: Any) -> str:
    """The module's Redis server, emptied for one test: its ``url``."""
    import redis

    with redis.Redis.from_url(redis_server.url) as client:
        client.flushall()
    return str(redis_server.url)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """An empty match store on each backend: a SQLite file, and the throwaway PostgreSQL server emptied."""
    from sqlalchemy import text

    from eights.store import Store, database_url

    if request.param == "sqlite":
        opened = Store(database_url(str(tmp_path / "store.db")))
    else:
        opened = Store(database_url(request.getfixturevalue("postgres_url")))
        with opened.engine.begin() as connection:
            connection.execute(text("TRUNCATE sheets, rooms, matches, settings CASCADE"))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright for one test module (see tests/support/browser.py); skipped when the
    machine has none, except under CI, where it fails.

    Not for the whole run: while Playwright's synchronous API is open its event loop counts as running
    in the main thread, and the later tests that call ``asyncio.run`` would fail."""
    from tests.support.browser import CHROMIUM_ARGS, BrowserUnavailable, chromium_path

    try:
        path = chromium_path()
    except BrowserUnavailable as exc:
        missing("browser", exc)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Any]:
    """``eights serve`` in a process of its own on a database of its own (tests/support/browser.py)."""
    from tests.support.browser import LiveServer

    server = LiveServer(tmp_path / "served.db")
    yield server
    server.stop()
