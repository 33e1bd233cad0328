import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

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
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL server for the whole run (see tests/postgres.py); skipped when the machine
    has none, except under CI, where it fails."""
    from tests.postgres import PostgresUnavailable, throwaway_cluster

    try:
        with throwaway_cluster() as url:
            yield url
    except PostgresUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed under CI and is missing: {exc}")
        pytest.skip(f"skipped: no PostgreSQL server here ({exc}); `.ci/run` installs one")
