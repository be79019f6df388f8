"""`homebase serve`'s listening socket, bound before anything else happens (migrations, the
demo's "serving at" lines), so a port already taken is one line and a non-zero exit; the
`--port-file` that tells a supervisor (or a test) which port `--port 0` got; and the
public address the service hands out in links when HOMEBASE_PUBLIC_URL is unset."""

import ipaddress
import os
import socket
from pathlib import Path

import click

# A wildcard address is no address a client can use: links name the loopback one instead.
_WILDCARDS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (port 0: a free one), as uvicorn binds its own
    (SO_REUSEADDR, IPv6 for an address with a colon); a port already taken, an address this
    machine does not have or a port it may not open is a ClickException naming them."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        listening = socket.create_server((host, port), family=family)
    except OSError as error:
        # The system's words for it ("Address already in use"), without the address that
        # create_server appends to them: the line names it once.
        number = error.errno  # negative for a host name that does not resolve (gaierror)
        reason = os.strerror(number) if number and number > 0 else error.strerror or str(error)
        raise click.ClickException(
            f"serve --host {host} --port {port}: cannot listen on {_address(host, port)}: {reason}"
        ) from None
    listening.set_inheritable(True)  # uvicorn's --workers processes listen on it too
    return listening


def write_port(path: str, port: int) -> None:
    """`port` and a newline in `path`, whole or not at all: written beside it, then renamed
    over it, so a reader polling for the file never reads half a number. The socket is
    listening already: a client that connects now waits in its backlog until uvicorn
    accepts, after the migrations. The file stays when serve stops (uvicorn ends the
    process with the signal it was stopped by): whoever reads it removes it before a start."""
    target = Path(path)
    partial = target.with_name(f".{target.name}.{os.getpid()}")
    try:
        partial.write_text(f"{port}\n")
        os.replace(partial, target)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise click.ClickException(
            f"serve --port-file {path}: cannot write it: {error.strerror or error}"
        ) from None


def served_url(host: str, port: int) -> str:
    """The address a client reaches `serve --host host --port port` at."""
    return f"http://{_address(_WILDCARDS.get(host, host), port)}"


def _address(host: str, port: int) -> str:
    try:
        literal_v6 = ipaddress.ip_address(host).version == 6
    except ValueError:
        literal_v6 = False
    return f"[{host}]:{port}" if literal_v6 else f"{host}:{port}"
