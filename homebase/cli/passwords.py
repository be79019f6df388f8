"""Where `homebase admin set-password` and `create-user` take a member's password from, read
before the command's transaction opens (a prompt never holds the database).

Never from a command-line argument for set-password (shell history, `ps`): the
HOMEBASE_ADMIN_PASSWORD environment variable when set and not empty, else standard input,
one line (its line ending dropped, nothing else). On a terminal that line is asked for
without echo, twice. create-user keeps `--password` for scripts and takes the other two
only when asked (`--password-stdin`, or the variable); given two ways, it refuses rather
than pick one. The variable is read by these commands only; it is not a setting of the
service (homebase/config.py)."""

import os
import sys

import click

from homebase.kit.errors import AdminError

ENV = "HOMEBASE_ADMIN_PASSWORD"


def from_environment() -> str | None:
    return os.environ.get(ENV) or None


def from_stdin() -> str:
    """One line of standard input, or asked for on the terminal (on stderr: stdout holds
    the command's one JSON object)."""
    stream = sys.stdin
    if stream is None:
        raise AdminError(f"no standard input to read the password from; or set {ENV}")
    if stream.isatty():
        entered: str = click.prompt(
            "New password", hide_input=True, confirmation_prompt=True, err=True
        )
        return entered
    password = stream.readline().removesuffix("\n").removesuffix("\r")
    if not password:
        raise AdminError(f"no password on standard input (one line expected); or set {ENV}")
    return password


def for_set_password() -> str:
    """The variable wins: standard input is not read when it is set."""
    return from_environment() or from_stdin()


def for_create_user(argument: str | None, stdin: bool) -> str | None:
    """None: the member gets no password (cannot sign in to the console)."""
    environment = from_environment()
    given = [
        name
        for name, present in (
            ("--password", argument is not None),
            ("--password-stdin", stdin),
            (ENV, environment is not None),
        )
        if present
    ]
    if len(given) > 1:
        raise AdminError(f"give the password one way, not {' and '.join(given)}")
    if stdin:
        return from_stdin()
    return environment if environment is not None else argument
