"""A real Radicale CalDAV server for the calendar-push tests, and helpers shared by the
appointment tests: members, connected calendars, booking."""

import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest

from homebase.calendars import service as calendars
from homebase.db.tenancy import TenantSession
from homebase.workspaces import service as workspaces
from tests.support import reserved_port, until

USER, PASSWORD = "maya", "radicale-secret"


class Radicale:
    """Radicale as a subprocess on 127.0.0.1 with its own storage folder and htpasswd
    (plain) auth, on a reserved port (it takes no port 0); stop() and start() again keep
    the port (the calendars' URLs name it, and while it is down it refuses connections)
    and the stored calendars."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = reserved_port()
        self.process: subprocess.Popen | None = None
        (folder / "users").write_text(f"{USER}:{PASSWORD}\n")
        (folder / "config").write_text(
            f"[server]\nhosts = 127.0.0.1:{self.port}\n"
            f"[auth]\ntype = htpasswd\nhtpasswd_filename = {folder / 'users'}\n"
            "htpasswd_encryption = plain\ndelay = 0\n"
            f"[storage]\nfilesystem_folder = {folder / 'storage'}\n"
            # info: its "Radicale server ready" line says when it listens.
            "[rights]\ntype = owner_only\n[logging]\nlevel = info\n"
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = self.folder / "log"
        log.write_text("")
        with log.open("ab") as sink:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "radicale", "--config", str(self.folder / "config")],
                stdout=subprocess.DEVNULL,
                stderr=sink,
            )

        def ready() -> bool:
            if self.process.poll() is not None:
                raise RuntimeError(f"radicale exited: {log.read_text()}")
            return "Radicale server ready" in log.read_text()

        until(ready, 60, what=lambda: f"radicale: {log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.process = None

    def new_calendar(self) -> str:
        """A fresh calendar collection (MKCALENDAR); its URL."""
        url = f"{self.base_url}/{USER}/{uuid.uuid4().hex[:12]}/"
        response = httpx.request("MKCALENDAR", url, auth=(USER, PASSWORD), timeout=10)
        assert response.status_code == 201, response.text
        return url

    def fetch(self, url: str) -> httpx.Response:
        return httpx.get(url, auth=(USER, PASSWORD), timeout=10)


def start_radicale(folder: Path) -> Radicale:
    server = Radicale(folder)
    try:
        server.start()
    except (OSError, RuntimeError) as error:
        pytest.fail(f"cannot start Radicale (pip install radicale, the [dev] extra): {error}")
    return server


@pytest.fixture(scope="session", name="radicale")
def radicale_fixture(tmp_path_factory):
    server = start_radicale(tmp_path_factory.mktemp("radicale"))
    yield server
    server.stop()


async def add_member(runtime, tenant, email: str = "maya@example.com") -> str:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        row = await workspaces.create_user(session, email=email, name="Maya Chen")
    return row["id"]


async def connect(runtime, tenant, user_id: str, url: str, password: str = PASSWORD) -> str:
    async with runtime.db.transaction() as connection:
        session = TenantSession(connection, tenant.id, clock=runtime.clock)
        row = await calendars.connect(
            session,
            runtime.settings.keys,
            user_id=user_id,
            url=url,
            credentials=calendars.Credentials(USER, password),
        )
    return row["id"]


async def contact(tenant, **fields) -> str:
    response = await tenant.post(
        "/v1/contacts", json={"first_name": "Dana", "phone": "+14155550142", **fields}
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


def slot(hour: int, minutes: int = 45, day: int = 21) -> dict[str, str]:
    return {
        "starts_at": f"2026-11-{day:02d}T{hour:02d}:00:00Z",
        "ends_at": f"2026-11-{day:02d}T{hour:02d}:{minutes:02d}:00Z",
    }


async def book(tenant, contact_id: str, **fields) -> dict:
    body = {"contact_id": contact_id, "title": "Showing: 1421 Sanchez St", **slot(17), **fields}
    response = await tenant.post("/v1/appointments", json=body)
    assert response.status_code == 201, response.text
    return response.json()


async def create_appointment_for_routes(tenant) -> str:
    """For tests/test_routes.py: an appointment made through the API."""
    return (await book(tenant, await contact(tenant), notes="private"))["id"]


async def appointment_snapshot(tenant, appointment_id: str):
    responses = [
        await tenant.get(f"/v1/appointments/{appointment_id}"),
        await tenant.get("/v1/appointments?limit=200"),
    ]
    assert all(response.status_code == 200 for response in responses)
    return [response.json() for response in responses]
