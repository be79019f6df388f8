"""Python's cyclic garbage collector, tuned for a long-running server process.

With the defaults, a full collection walks every object startup made (modules, routes,
the OpenAPI document, compiled statements, SQLAlchemy's caches) every few thousand
requests, and the request it lands in waits for it: a tail latency no code change removes
(docs/performance.md, "The garbage collector"). Two public `gc` calls, once the application has
started (`homebase serve`, each worker process):

- `gc.freeze()` after a `gc.collect()`: what startup made lives as long as the process,
  so it moves to the permanent generation and no later collection walks it;
- a higher first-generation threshold: a request allocates a few thousand container
  objects, nearly all freed by reference counting when it ends, so collecting the young
  generation every 700 allocations (the default) mostly walked live requests' objects.

Not for tests or embedding: freezing in a process that builds many apps would keep each
one's cycles from ever being collected.
"""

import gc

THRESHOLDS = (20_000, 50, 50)


def settle() -> None:
    """Freeze what exists now and raise the thresholds (call once, after startup)."""
    freeze()
    gc.set_threshold(*THRESHOLDS)


def freeze() -> None:
    """What exists now, out of every later collection's sight (a standalone worker's
    start-up: root/worker.py)."""
    gc.collect()
    gc.freeze()
