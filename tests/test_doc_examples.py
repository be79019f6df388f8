"""Every example in the README, docs/ and the clients' READMEs runs, twice in a row, against
a live server: a reader who pastes one and then pastes it again never meets an error.

An example is a fenced block whose language is `sh`, `python` or `ts`. Each runs here,
or the line before it says why it cannot (`<!-- example not run: starts a server -->`):
a block that starts a server, installs packages or is a sketch of a reader's own code
(and every TypeScript block: tests/test_typescript_client.py compiles and runs the
programs they show).
The placeholders the pages write (`hbk_...`, `wsp_...`, `http://127.0.0.1:8000`) become
the live server's key, workspace and address; `curl` fails on an HTTP error (`-f`). A
page's Python blocks run as one program, in order (a later block uses an earlier one's
`client`)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.served_support import serve
from tests.test_docs import PAGES, ROOT

# One worker runs this module (make test: --dist loadgroup), so its module-scoped server
# starts once, not on every worker that gets one of its tests.
pytestmark = pytest.mark.xdist_group("doc_examples")

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
NOT_RUN = re.compile(r"<!-- example not run: (.+?) -->\s*$")
LANGUAGES = {"sh", "python", "ts"}


def _examples() -> list[tuple[Path, int, str, str, str | None]]:
    """(page, line, language, code, why it is not run) of every example."""
    found = []
    for page in PAGES:
        text = page.read_text()
        for match in FENCE.finditer(text):
            if match.group(1) not in LANGUAGES:
                continue
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            reason = NOT_RUN.search(before)
            line = text.count("\n", 0, match.start()) + 1
            found.append((page, line, match.group(1), match.group(2), reason and reason.group(1)))
    return found


EXAMPLES = _examples()
RUN = [example for example in EXAMPLES if example[4] is None]


def test_every_example_says_why_when_it_is_not_run():
    assert all(len(reason) > 10 for *_, reason in EXAMPLES if reason is not None)
    # TypeScript needs compiling: its examples are programs tests/test_typescript_client.py
    # runs (clients/typescript/examples/), and the page says so above each block.
    assert [f"{page}:{line}" for page, line, language, *_ in RUN if language == "ts"] == []
    # The check below is only as good as the number of examples it runs.
    assert len(RUN) >= 5


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    # seed-demo writes a whole workspace in one transaction: on a loaded machine that can
    # outlast the default write timeout, which is not what these tests are about.
    folder = tmp_path_factory.mktemp("examples")
    with serve(folder, worker=True, database_write_timeout_seconds="60") as served:
        demo = served.admin("seed-demo")
        yield served, demo["workspace"]["id"], demo["api_key"]["key"]


def _substitute(code: str, base_url: str, workspace: str, key: str) -> str:
    return (
        code.replace("http://127.0.0.1:8000", base_url)
        .replace("hbk_...", key)
        .replace("wsp_...", workspace)
    )


def _run_sh(code: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    code = re.sub(r"(?m)(^|\|\s*|&&\s*)curl ", r"\1curl -fsS ", code)
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", code],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
    )


def _run_python(code: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True, timeout=60
    )


def _programs() -> list[tuple[str, str, str]]:
    """(name, language, code): each sh block alone; each page's Python blocks as one."""
    programs: list[tuple[str, str, str]] = []
    python: dict[Path, list[tuple[int, str]]] = {}
    for page, line, language, code, _ in RUN:
        name = f"{page.relative_to(ROOT)}:{line}"
        if language == "python":
            python.setdefault(page, []).append((line, code))
        else:
            programs.append((name, language, code))
    for page, blocks in python.items():
        lines = ",".join(str(line) for line, _ in blocks)
        programs.append(
            (f"{page.relative_to(ROOT)}:{lines}", "python", "\n".join(c for _, c in blocks))
        )
    return programs


@pytest.mark.parametrize(
    ("language", "code"), [p[1:] for p in _programs()], ids=[p[0] for p in _programs()]
)
def test_the_example_runs_twice_in_a_row(served, language, code):
    served, workspace, key = served
    env = {
        **served.env,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT / "clients" / "python"),
    }
    code = _substitute(code, served.base_url, workspace, key)
    run = _run_sh if language == "sh" else _run_python
    for attempt in ("first", "second"):
        done = run(code, env, served.folder)
        assert done.returncode == 0, f"{attempt} run: {done.stdout[-1500:]}{done.stderr[-1500:]}"
