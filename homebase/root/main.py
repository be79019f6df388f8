"""The `homebase` command as installed (console script, `python -m homebase`): one Click
table of migrate and serve (cli/main.py), `worker`, and the `admin` group (cli/admin.py).
`worker` runs the composition root's worker (root/worker.py), so it and the table live
here, above every package they run."""

import asyncio
from collections.abc import Sequence

import click

from homebase.cli import output
from homebase.cli.admin import admin
from homebase.cli.group import Command, Group
from homebase.cli.main import migrate, serve


@click.command(cls=Command)
def worker() -> None:
    """Run the background worker alone (webhooks, messages, automations, calendars)."""
    # Loaded only by this command (start-up cost): no other needs every domain's jobs.
    from homebase.root.worker import run_worker_forever

    output.configure_logs("info")
    asyncio.run(run_worker_forever())


homebase = Group(
    "homebase",
    help="Homebase API service. Settings are HOMEBASE_* environment variables (README).",
    commands=[migrate, serve, worker, admin],
)


def main(argv: Sequence[str] | None = None) -> None:
    homebase.run(argv)
