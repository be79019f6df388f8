"""Helpers for the fault tests on the real topology (scripts/cluster): the `make_cluster`
fixture (each test's own throwaway PostgreSQL and redis-server, stopped in `finally`),
API keys made with `homebase admin`, the error envelope, process logs. Serial only:
`make test-faults` (a parallel run skips them). docs/operations.md ("Deployment")."""

import os
import shutil
from collections.abc import Iterator

import httpx
import pytest

from scripts.topology import Cluster
from tests.support import IN_CI, clean_env

SERIAL_ONLY = [
    pytest.mark.faults,
    pytest.mark.skipif(
        bool(os.environ.get("PYTEST_XDIST_WORKER")),
        reason="fault tests run serially: make test-faults",
    ),
]

REQUIRED = ("haproxy", "redis-server", *(("runuser",) if os.geteuid() == 0 else ()))


@pytest.fixture(name="make_cluster")
def make_cluster_fixture(tmp_path) -> Iterator:
    missing = [name for name in REQUIRED if not shutil.which(name)]
    if missing:
        message = f"{', '.join(missing)} not installed (.ci/run installs haproxy)"
        if IN_CI:
            pytest.fail(f"{message}; CI=true requires it")
        pytest.skip(f"NOTICE: {message}; the fault tests are skipped")
    clusters: list[Cluster] = []

    def make(**settings: str) -> Cluster:
        cluster = Cluster(tmp_path / f"run{len(clusters)}", env=clean_env(**settings))
        clusters.append(cluster)
        return cluster.start(timeout=120)

    try:
        yield make
    finally:
        for cluster in clusters:
            cluster.stop()


def tail(cluster: Cluster, *names: str) -> str:
    return "\n".join(
        f"--- {name}.log\n" + (cluster.run_dir / f"{name}.log").read_text(errors="replace")[-1500:]
        for name in names
    )


def api_key(cluster: Cluster, workspace: str, scopes: str) -> dict[str, str]:
    key = cluster.homebase("admin", "create-api-key", "--workspace", workspace, "--scopes", scopes)
    return {"Authorization": f"token {key['key']}", "X-Key-Id": key["id"]}


def assert_envelope(response: httpx.Response, code: str) -> None:
    body = response.json()["error"]
    assert body["code"] == code, response.text
    assert body["request_id"] == response.headers["x-request-id"]
    assert int(response.headers["retry-after"]) >= 1
