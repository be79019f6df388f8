from datetime import UTC, datetime

import pytest

from homebase.kit.clock import FrozenClock


@pytest.fixture
def settings_overrides(tmp_path) -> dict:
    return {"storage_dir": tmp_path / "storage"}


@pytest.fixture
def clock(runtime) -> FrozenClock:
    clock = FrozenClock(datetime.now(UTC).replace(microsecond=0))
    runtime.clock = clock
    return clock
