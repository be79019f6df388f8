"""Running wrk and reading its report."""

import math
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


@dataclass(frozen=True)
class WrkSettings:
    threads: int = 1
    connections: int = 32
    duration: float = 10.0
    timeout: float = 10.0


@dataclass(frozen=True)
class Result:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int  # socket errors plus non-2xx/3xx responses

    @property
    def ok(self) -> bool:
        return self.requests > 0 and self.errors == 0


def ensure_wrk() -> str:
    """wrk from PATH, installing the Debian package when it is missing."""
    found = shutil.which("wrk")
    if found:
        return found
    print("wrk not found; installing the Debian package", file=sys.stderr)
    install = ["apt-get", "install", "-y", "wrk"]
    if subprocess.run(install, check=False).returncode != 0:
        subprocess.run(["apt-get", "update"], check=True)
        subprocess.run(install, check=True)
    found = shutil.which("wrk")
    if not found:
        raise SystemExit("wrk is not available and could not be installed")
    return found


def lua_post(body: str, headers: dict[str, str]) -> Path:
    """A wrk script that POSTs `body` with `headers` on every request."""
    lines = ['wrk.method = "POST"', f"wrk.body = {_lua_string(body)}"]
    lines += [f"wrk.headers[{_lua_string(k)}] = {_lua_string(v)}" for k, v in headers.items()]
    handle = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    with handle:
        handle.write("\n".join(lines) + "\n")
    return Path(handle.name)


def _lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _command(
    wrk: str,
    url: str,
    settings: WrkSettings,
    headers: dict[str, str] | None,
    script: Path | None,
    seconds: float,
) -> list[str]:
    command = [
        wrk,
        f"-t{settings.threads}",
        f"-c{settings.connections}",
        f"-d{max(1, math.ceil(seconds))}s",  # wrk takes whole seconds only
        f"--timeout={settings.timeout:g}s",
        "--latency",
    ]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if script is not None:
        command += ["-s", str(script)]
    command.append(url)
    return command


def run(
    wrk: str,
    url: str,
    settings: WrkSettings,
    *,
    headers: dict[str, str] | None = None,
    script: Path | None = None,
    duration: float | None = None,
) -> Result:
    seconds = duration if duration is not None else settings.duration
    completed = subprocess.run(
        _command(wrk, url, settings, headers, script, seconds),
        capture_output=True,
        text=True,
        timeout=seconds + settings.timeout + 30,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"wrk failed ({completed.returncode}): {completed.stderr.strip()}")
    return parse(completed.stdout)


def start(
    wrk: str,
    url: str,
    settings: WrkSettings,
    *,
    headers: dict[str, str] | None = None,
    duration: float,
) -> subprocess.Popen:
    """wrk in the background (the load beside a measurement); read it with `finish`."""
    return subprocess.Popen(
        _command(wrk, url, settings, headers, None, duration),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen, timeout: float = 60.0) -> Result:
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise RuntimeError("background wrk did not finish") from None
    if process.returncode != 0:
        raise RuntimeError(f"wrk failed ({process.returncode}): {stderr.strip()}")
    return parse(stdout)


def _duration_ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if not match:
        raise ValueError(f"unreadable wrk duration {text!r}")
    return float(match.group(1)) * _UNITS[match.group(2)]


def parse(output: str) -> Result:
    def percentile(name: str) -> float:
        match = re.search(rf"^\s*{name}%\s+(\S+)", output, re.MULTILINE)
        if not match:
            raise ValueError(f"no {name}% latency in wrk output:\n{output}")
        return _duration_ms(match.group(1))

    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    total = re.search(r"(\d+) requests in", output)
    if not rate or not total:
        raise ValueError(f"unreadable wrk output:\n{output}")
    errors = 0
    socket_errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), "
        r"timeout (\d+)",
        output,
    )
    if socket_errors:
        errors += sum(int(value) for value in socket_errors.groups())
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if non_2xx:
        errors += int(non_2xx.group(1))
    return Result(
        requests_per_second=float(rate.group(1)),
        p50_ms=percentile("50"),
        p99_ms=percentile("99"),
        requests=int(total.group(1)),
        errors=errors,
    )
