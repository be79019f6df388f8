"""Reading GET /metrics in tests: the exposition parsed with prometheus_client's own
parser, as {(sample name, sorted labels): value}. Counters are process-wide (every test
of a pytest worker shares them), so tests compare a scrape before and after."""

from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def parse(text: str) -> Samples:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def scrape(client: httpx.AsyncClient, **headers: str) -> Samples:
    response = await client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return parse(response.text)


def value(samples: Samples, name: str, **labels: Any) -> float:
    return samples.get((name, tuple(sorted((k, str(v)) for k, v in labels.items()))), 0.0)


def delta(before: Samples, after: Samples, name: str, **labels: Any) -> float:
    return value(after, name, **labels) - value(before, name, **labels)
