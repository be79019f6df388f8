"""A `homebase worker` process SIGKILLed while the model is composing a reply: the job is
not lost (its lease lapses and it is composed again) and the lead gets one reply, on
SQLite and PostgreSQL (docs/ai.md, "At most once, nothing lost")."""

import asyncio
import os
import signal
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from tests.responder_support import TWILIO, ai_jobs, drive, outbound, responder_workspace, text_in

ROOT = Path(__file__).resolve().parents[2]
# The killed worker's: its model timeout is far longer than the test's wait for the model
# to be called, so it is killed before giving up on the call however loaded the machine;
# its lease is not waited out but passed on this process's clock.
TIMEOUT_SECONDS, LEASE_SECONDS = 120, 121


@pytest.fixture
def settings_overrides(chat_server):
    return {
        **TWILIO,
        "ai_provider": "openai",
        "ai_base_url": chat_server.base_url,
        "ai_timeout_seconds": 10,  # this process's own calls: never the flaky part
        "ai_lease_seconds": 11,
        "ai_retry_unit_seconds": 0,
    }


async def _worker(runtime) -> asyncio.subprocess.Process:
    settings = runtime.settings
    env = {
        **os.environ,
        "HOMEBASE_ENV": "test",
        "HOMEBASE_DATABASE_URL": settings.database_url,
        "HOMEBASE_SECRET_KEY": settings.secret_key,
        "HOMEBASE_AI_PROVIDER": "openai",
        "HOMEBASE_AI_BASE_URL": settings.ai_base_url,
        "HOMEBASE_AI_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS),
        "HOMEBASE_AI_LEASE_SECONDS": str(LEASE_SECONDS),
        "HOMEBASE_WORKER_POLL_SECONDS": "0.05",
        "HOMEBASE_AI_QUIET_SECONDS": "0",
        "HOMEBASE_TESTING_LOOPBACK_RESOLVER": "true",
    }
    env.pop("HOMEBASE_REDIS_URL", None)
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "homebase",
        "worker",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


async def test_a_worker_killed_while_composing_loses_no_job_and_sends_one_reply(
    runtime, client, tenant, chat_server
):
    await responder_workspace(runtime, tenant)
    # Past the worker's timeout: it is killed long before it could give up.
    chat_server.respond_with(delay=30)
    await text_in(client, "hello")
    worker = await _worker(runtime)
    try:
        await asyncio.to_thread(chat_server.wait_for, 1, 60)
        (job,) = await ai_jobs(runtime, tenant)
        assert job["status"] == "composing"
    finally:
        worker.send_signal(signal.SIGKILL)  # no cleanup, nothing given back
        await worker.wait()
    assert await outbound(tenant) == []
    chat_server.respond_with(json_object={"reply": "Hi! Buying or selling?", "handoff": False})
    real = runtime.clock  # the dead worker's lease lapses
    runtime.clock = lambda: real() + timedelta(seconds=LEASE_SECONDS + 1)
    await drive(runtime)
    (sent,) = await outbound(tenant)
    assert sent["status"] == "SENT" and "Buying or selling?" in sent["body"]
    (job,) = await ai_jobs(runtime, tenant)
    assert (job["status"], job["reply_message_id"]) == ("replied", sent["id"])
    # The dead worker's call, then this one's (a loaded machine may have let the dead
    # worker time out and call once more before the kill: still one reply).
    assert len(chat_server.recorded()) >= 2
