"""`make bench`: the service against a bare FastAPI hello-world on the same machine.

See bench/run.py for what is measured and docs/performance.md for the figures."""
