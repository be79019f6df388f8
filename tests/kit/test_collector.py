"""The garbage collector is tuned once the server process's app has started
(kit/collector.py), and only there: an app built by a test or an embedder leaves it be."""

import gc

import pytest

from homebase.kit import collector
from homebase.root.app import create_app


@pytest.fixture
def restored_collector():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


async def test_the_server_processs_app_freezes_startup_and_raises_the_thresholds(
    runtime, restored_collector
):
    gc.unfreeze()
    app = create_app(runtime, server_process=True)
    assert gc.get_freeze_count() == 0  # not at build time: at startup
    async with app.router.lifespan_context(app):
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == collector.THRESHOLDS


async def test_an_app_built_elsewhere_leaves_the_collector_alone(runtime, restored_collector):
    gc.unfreeze()
    before = gc.get_threshold()
    app = create_app(runtime)
    async with app.router.lifespan_context(app):
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == before
