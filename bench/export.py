"""One export of every contact of the scale part's workspace (bench/scale.py, `--only
export`): a separate `homebase worker` writes it while the client polls."""

import time
from datetime import datetime
from pathlib import Path

import httpx

from bench.bulk import Sampler, rss_mb
from bench.scale import check
from bench.servers import Service

POLL_SECONDS = 0.5


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def measure(service: Service, base: str, count: int, rounds: int) -> list[dict]:
    results = []
    with (
        service.worker() as worker,
        httpx.Client(base_url=base, headers=service.auth, timeout=60) as client,
    ):
        assert worker.process is not None
        pid = worker.process.pid
        start_mb = rss_mb(pid)
        for _ in range(rounds):
            before = rss_mb(pid)
            began = time.monotonic()
            with Sampler(pid, every=0.2) as sampler:
                export = check(client.post("/v1/exports", json={"object": "contacts"}), 202)
                while export["status"] in ("queued", "running"):
                    time.sleep(POLL_SECONDS)
                    export = check(client.get(f"/v1/exports/{export['id']}"), 200)
            wall = time.monotonic() - began
            if export["status"] != "completed" or export["rows"] != count:
                raise RuntimeError(f"the export did not write every contact: {export}")
            # The link names HOMEBASE_PUBLIC_URL; the server is on its own port.
            link = base + "/exports/" + export["download_url"].rsplit("/exports/", 1)[1]
            head = httpx.get(link, headers={"Range": "bytes=0-99"})
            if head.status_code != 206 or not head.content.startswith(b'{"id":'):
                raise RuntimeError(f"the export's download: {head.status_code} {head.text[:200]}")
            size = _remove_files(service.directory)
            seconds = (
                _moment(export["finished_at"]) - _moment(export["started_at"])
            ).total_seconds()
            result = {
                "rows": export["rows"],
                "worker_seconds": seconds,
                "rows_per_second": export["rows"] / seconds,
                "wall_seconds": wall,
                "file_mb": size / 1e6,
                "start_mb": start_mb,
                "before_mb": before,
                "peak_mb": max(sampler.samples),
                "after_mb": sampler.samples[-1],
                "growth_mb": max(sampler.samples) - before,
            }
            results.append(result)
            print(
                f"export: {result['rows']:,} contacts in {seconds:.1f} s "
                f"({result['rows_per_second']:,.0f} rows/s; wall {wall:.1f} s), file "
                f"{result['file_mb']:.0f} MB; worker RSS {before:.0f} MB before, peak "
                f"{result['peak_mb']:.0f} MB",
                flush=True,
            )
    return results


def _remove_files(directory: Path) -> int:
    """Deletes the export files under the service's storage (the next round's would add
    to the disk); returns their size."""
    size = 0
    for path in (directory / "var" / "storage" / "exports").rglob("*"):
        if path.is_file():
            size += path.stat().st_size
            path.unlink()
    return size
