"""`make client`: regenerate the Python client and the TypeScript types from the app's
OpenAPI document.

    python -m scripts.client           # rewrite clients/python/homebase_client and
                                       # clients/typescript/src/schema.d.ts
    python -m scripts.client --check   # exit 1, naming the files, if either copy is stale

The document is `create_app().openapi()` built in a child process with no HOMEBASE_*
variables (one of them, HOMEBASE_MAX_BODY_BYTES, shows in the document), so the result
depends only on the code. openapi-python-client (pinned in requirements.lock) writes the
package into a temporary directory, refusing any warning (a warning means it left part of
the document out); only then is clients/python/homebase_client replaced. Nothing else under
clients/python is touched: README.md, pyproject.toml, the generator's configuration and the
hand-written homebase_webhooks.py stay as they are.

The TypeScript types are openapi-typescript's output for the same document (the copy
pinned in clients/typescript/package-lock.json, installed by `make install` with `npm ci`),
written to clients/typescript/src/schema.d.ts; the rest of clients/typescript is
hand-written. Where Node.js or that install is missing, the Python client is still
regenerated and the command fails naming what is missing (clients/typescript/README.md).
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
from homebase.root.app import create_app
from homebase.ratelimit import MemoryLimiter
from homebase.runtime import Runtime
url = f"sqlite+aiosqlite:///{tempfile.gettempdir()}/homebase-unused.sqlite3"
settings = Settings(env="test", database_url=url, secret_key="openapi-document-only")
app = create_app(Runtime(settings=settings, db=Database(url), limiter=MemoryLimiter()))
sys.stdout.write(json.dumps(app.openapi(), indent=2, ensure_ascii=False) + "\\n")
"""


TYPESCRIPT_DIR = ROOT / "clients" / "typescript"
TYPESCRIPT_SCHEMA = TYPESCRIPT_DIR / "src" / "schema.d.ts"
TYPESCRIPT_GENERATOR = TYPESCRIPT_DIR / "node_modules" / ".bin" / "openapi-typescript"
# A member with a default is optional in a request: openapi-typescript would otherwise make
# it required wherever the schema is a component (ContactCreate.stage), so a request could
# not leave it out. Responses list every member they always carry in `required`.
TYPESCRIPT_OPTIONS = ("--default-non-nullable", "false")


class GenerationFailed(RuntimeError):
    pass


class TypeScriptUnavailable(GenerationFailed):
    """Node.js or clients/typescript's installed packages are missing."""


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


def generate(destination: Path, text: str | None = None) -> None:
    """Write the generated package to `destination` (which must not exist), from the
    document `text` (built from the code when None)."""
    with tempfile.TemporaryDirectory(prefix="homebase-client-") as work:
        document = Path(work) / "openapi.json"
        document.write_text(text if text is not None else openapi_document(), encoding="utf-8")
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


def stale_files(checked_in: Path = CLIENT_DIR / PACKAGE, text: str | None = None) -> list[str]:
    """What `make client` would change in the checked-in package; [] when it is current."""
    if not checked_in.is_dir():
        return [f"{checked_in} is missing"]
    with tempfile.TemporaryDirectory(prefix="homebase-client-check-") as work:
        fresh = Path(work) / PACKAGE
        generate(fresh, text)
        return differences(checked_in, fresh)


def regenerate(target: Path = CLIENT_DIR / PACKAGE, text: str | None = None) -> None:
    with tempfile.TemporaryDirectory(prefix="homebase-client-new-", dir=target.parent) as work:
        fresh = Path(work) / PACKAGE
        generate(fresh, text)
        shutil.rmtree(target, ignore_errors=True)
        fresh.rename(target)


def typescript_unavailable() -> str | None:
    """Why the TypeScript types cannot be generated on this machine, or None."""
    if shutil.which("node") is None:
        return "node is not installed (Node.js 20 or later; apt-get install nodejs npm)"
    if not TYPESCRIPT_GENERATOR.exists():
        return (
            "clients/typescript/node_modules has no openapi-typescript: run make install "
            "(it runs npm ci there when npm is installed)"
        )
    return None


def typescript_types(text: str | None = None) -> str:
    """openapi-typescript's output for the document `text` (built from the code when None)."""
    missing = typescript_unavailable()
    if missing is not None:
        raise TypeScriptUnavailable(missing)
    with tempfile.TemporaryDirectory(prefix="homebase-client-ts-") as work:
        document = Path(work) / "openapi.json"
        document.write_text(text if text is not None else openapi_document(), encoding="utf-8")
        output = Path(work) / "schema.d.ts"
        done = subprocess.run(
            [str(TYPESCRIPT_GENERATOR), str(document), *TYPESCRIPT_OPTIONS, "-o", str(output)],
            cwd=TYPESCRIPT_DIR,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0 or not output.is_file():
            raise GenerationFailed(f"openapi-typescript failed:\n{done.stdout}\n{done.stderr}")
        return output.read_text(encoding="utf-8")


def typescript_stale(text: str | None = None) -> bool:
    """Whether clients/typescript/src/schema.d.ts differs from what `make client` writes."""
    fresh = typescript_types(text)
    return not TYPESCRIPT_SCHEMA.is_file() or TYPESCRIPT_SCHEMA.read_text("utf-8") != fresh


def regenerate_typescript(text: str | None = None) -> None:
    fresh = typescript_types(text)  # nothing is replaced unless the generator succeeded
    TYPESCRIPT_SCHEMA.parent.mkdir(parents=True, exist_ok=True)
    TYPESCRIPT_SCHEMA.write_text(fresh, encoding="utf-8")


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
        text = openapi_document()  # one document for both clients
        if arguments.check:
            status = check_python(text)
        else:
            regenerate(text=text)
            print(f"regenerated {(CLIENT_DIR / PACKAGE).relative_to(ROOT)}")
            status = 0
    except GenerationFailed as failure:
        print(failure, file=sys.stderr)
        return 1
    # The TypeScript part runs (and fails on its own) after the Python client is done.
    try:
        if arguments.check:
            if typescript_stale(text):
                print(
                    f"{TYPESCRIPT_SCHEMA.relative_to(ROOT)} is stale; run make client",
                    file=sys.stderr,
                )
                return 1
            print(f"{TYPESCRIPT_SCHEMA.relative_to(ROOT)} is current")
        else:
            regenerate_typescript(text)
            print(f"regenerated {TYPESCRIPT_SCHEMA.relative_to(ROOT)}")
    except TypeScriptUnavailable as missing:
        print(
            f"make client: {TYPESCRIPT_SCHEMA.relative_to(ROOT)} NOT regenerated: {missing}",
            file=sys.stderr,
        )
        return 1
    except GenerationFailed as failure:
        print(failure, file=sys.stderr)
        return 1
    return status


def check_python(text: str) -> int:
    stale = stale_files(text=text)
    if stale:
        print(
            "clients/python/homebase_client is stale; run make client:\n  " + "\n  ".join(stale),
            file=sys.stderr,
        )
        return 1
    print("clients/python/homebase_client is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
