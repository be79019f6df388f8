"""`python -m bench.inproc --layers`: a request's CPU time split by layer.

Each case runs twice: once plain, for its CPU time per request, and once under cProfile
(this thread's CPU clock), for how that time divides. Every function's own time is
charged to the layer its file belongs to (LAYERS, first match); a built-in function
(a C call: a socket send, sqlite3's execute, orjson.dumps) is charged to the layers of
its callers, in proportion to what each caller spent in it. The shares are then applied
to the plain run's CPU time per request, so the profiler's own overhead is left out.
"""

from collections import defaultdict

# (layer, path fragments of its files): first match wins, so the more specific first.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("JSON", ("orjson", "/json/")),
    (
        "row handling",
        (
            "sqlalchemy/engine/result",
            "sqlalchemy/engine/row",
            "homebase/db/types",
            "sqlalchemy/engine/_py_row",
            "sqlalchemy/cyextension/result",
        ),
    ),
    (
        "statement build",
        ("sqlalchemy/sql/", "homebase/db/tenancy", "homebase/db/statements", "sqlalchemy/util/"),
    ),
    ("execution", ("sqlalchemy/", "asyncpg", "homebase/db/", "sqlite3")),
    ("limiter", ("homebase/ratelimit", "redis/", "hiredis")),
    ("auth", ("homebase/auth/",)),
    (
        "routing and dependencies",
        (
            "fastapi/routing",
            "fastapi/dependencies",
            "starlette/routing",
            "homebase/http/v1_route",
            "fastapi/",
            "homebase/http/router",
        ),
    ),
    ("render", ("render", "homebase/kit/masking", "pydantic", "homebase/kit/")),
    ("middleware", ("homebase/http/", "homebase/metrics", "starlette/", "homebase/tracing")),
    ("domain code", ("homebase/",)),
)
OTHER = "other (event loop, asyncio)"
ORDER = (*(name for name, _ in LAYERS), OTHER)


def layer_of(path: str) -> str:
    for name, fragments in LAYERS:
        if any(fragment in path for fragment in fragments):
            return name
    return OTHER


def shares(stats: dict) -> dict[str, float]:
    """Each layer's share of the profile's total own time (pstats' `stats` dict)."""
    own: dict[str, float] = defaultdict(float)
    for (path, _line, name), (_cc, _nc, total, _cum, callers) in stats.items():
        if path != "~":
            own[layer_of(path)] += total
            continue
        if "orjson" in name or "sqlite3" in name:  # a C library with a layer of its own
            own[layer_of(name)] += total
            continue
        spent = sum(entry[2] for entry in callers.values()) or 1.0
        for (caller_path, _, _), entry in callers.items():
            own[layer_of(caller_path) if caller_path != "~" else OTHER] += total * entry[2] / spent
    whole = sum(own.values()) or 1.0
    return {layer: own.get(layer, 0.0) / whole for layer in ORDER}


def table(rows: dict[str, tuple[float, dict[str, float]]]) -> str:
    """Markdown: a column per case (its CPU µs per request), a row per layer."""
    cases = list(rows)
    lines = [
        "| layer | " + " | ".join(cases) + " |",
        "|---|" + "---:|" * len(cases),
    ]
    for layer in ORDER:
        cells = [f"{rows[case][0] * rows[case][1][layer]:.0f}" for case in cases]
        lines.append(f"| {layer} | " + " | ".join(cells) + " |")
    lines.append(
        "| **CPU µs per request** | " + " | ".join(f"**{rows[c][0]:.0f}**" for c in cases) + " |"
    )
    return "\n".join(lines)
