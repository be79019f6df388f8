"""`make client`: regenerate the Python client from the app's OpenAPI document.

    python -m scripts.client           # rewrite clients/python/homebase_client
    python -m scripts.client --check   # exit 1, naming the files, if that copy is stale

The document is `create_app().openapi()` built in a child process with no HOMEBASE_*
variables (one of them, HOMEBASE_MAX_BODY_BYTES, shows in the document), so the result
depends only on the code. openapi-python-client (pinned in requirements.lock) writes the
package into a temporary directory, refusing any warning (a warning means it left part of
the document out); only then is clients/python/homebase_client replaced. Nothing else under
clients/python is touched: README.md, pyproject.toml, the generator's configuration and the
hand-written homebase_webhooks.py stay as they are.
"""

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLIENT_DIR = ROOT / "clients" / "python"
PACKAGE = "homebase_client"
CONFIG = CLIENT_DIR / "openapi-python-client.yaml"
BIN = Path(sys.executable).parent  # the venv's: openapi-python-client and ruff

# Settings of a throwaway runtime: the document needs an app, never its database.
_DUMP = """\
import json, sys, tempfile
from homebase.config import Settings
from homebase.db.engine import Database
from homebase.http.app import create_app
from homebase.ratelimit import MemoryLimiter
from homebase.runtime import Runtime
url = f"sqlite+aiosqlite:///{tempfile.gettempdir()}/homebase-unused.sqlite3"
settings = Settings(env="test", database_url=url, secret_key="openapi-document-only")
app = create_app(Runtime(settings=settings, db=Database(url), limiter=MemoryLimiter()))
sys.stdout.write(json.dumps(app.openapi(), indent=2, ensure_ascii=False) + "\\n")
"""


class GenerationFailed(RuntimeError):
    pass


def openapi_document() -> str:
    env = {name: value for name, value in os.environ.items() if not name.startswith("HOMEBASE_")}
    done = subprocess.run(
        [sys.executable, "-c", _DUMP],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode != 0:
        raise GenerationFailed(f"building the OpenAPI document failed:\n{done.stderr}")
    return done.stdout


def generate(destination: Path) -> None:
    """Write the generated package to `destination` (which must not exist)."""
    with tempfile.TemporaryDirectory(prefix="homebase-client-") as work:
        document = Path(work) / "openapi.json"
        document.write_text(openapi_document(), encoding="utf-8")
        output = Path(work) / PACKAGE
        env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
        done = subprocess.run(
            [
                str(BIN / "openapi-python-client"),
                "generate",
                "--path",
                str(document),
                "--output-path",
                str(output),
                "--config",
                str(CONFIG),
                "--meta",
                "none",
                "--fail-on-warning",
            ],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0 or "Warning" in done.stdout or not output.is_dir():
            raise GenerationFailed(
                f"openapi-python-client failed or warned:\n{done.stdout}\n{done.stderr}"
            )
        shutil.copytree(
            output, destination, ignore=shutil.ignore_patterns("__pycache__", ".ruff_cache")
        )


def differences(left: Path, right: Path) -> list[str]:
    """Files (relative paths) present in only one tree or different in content."""
    comparison = filecmp.dircmp(left, right, ignore=["__pycache__", ".ruff_cache"])
    found: list[str] = []

    def walk(node: filecmp.dircmp, prefix: str) -> None:
        found.extend(prefix + name for name in node.left_only + node.right_only + node.funny_files)
        _, mismatch, errors = filecmp.cmpfiles(
            node.left, node.right, node.common_files, shallow=False
        )
        found.extend(prefix + name for name in mismatch + errors)
        for name, child in node.subdirs.items():
            walk(child, f"{prefix}{name}/")

    walk(comparison, "")
    return sorted(found)


def stale_files(checked_in: Path = CLIENT_DIR / PACKAGE) -> list[str]:
    """What `make client` would change in the checked-in package; [] when it is current."""
    if not checked_in.is_dir():
        return [f"{checked_in} is missing"]
    with tempfile.TemporaryDirectory(prefix="homebase-client-check-") as work:
        fresh = Path(work) / PACKAGE
        generate(fresh)
        return differences(checked_in, fresh)


def regenerate(target: Path = CLIENT_DIR / PACKAGE) -> None:
    with tempfile.TemporaryDirectory(prefix="homebase-client-new-", dir=target.parent) as work:
        fresh = Path(work) / PACKAGE
        generate(fresh)
        shutil.rmtree(target, ignore_errors=True)
        fresh.rename(target)


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.client",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--check", action="store_true", help="only report whether the checked-in package is stale"
    )
    arguments = parser.parse_args()
    try:
        if arguments.check:
            stale = stale_files()
            if stale:
                print(
                    "clients/python/homebase_client is stale; run make client:\n  "
                    + "\n  ".join(stale),
                    file=sys.stderr,
                )
                return 1
            print("clients/python/homebase_client is current")
            return 0
        regenerate()
    except GenerationFailed as failure:
        print(failure, file=sys.stderr)
        return 1
    print(f"regenerated {(CLIENT_DIR / PACKAGE).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
