"""The module uvicorn imports in each server process (`homebase serve`)."""

import os

from homebase import tracing
from homebase.root.app import create_app

tracing.configure()  # OTEL_* (homebase/tracing): before the app makes its database engine
app = create_app(
    run_worker=os.environ.get("HOMEBASE_SERVE_WORKER", "1") == "1", server_process=True
)
