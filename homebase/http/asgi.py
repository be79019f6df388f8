"""The module uvicorn imports in each server process (`homebase serve`)."""

import os

from homebase.http.app import create_app

app = create_app(run_worker=os.environ.get("HOMEBASE_SERVE_WORKER", "1") == "1")
