"""`make test` spreads the tests over pytest-xdist workers with `--dist loadgroup`, so that
a module marked `xdist_group` (one that starts a server, a browser or a compiler for all
its tests) runs whole on one worker and sets up once. pytest 9.2 with pytest-xdist 3.8
silently stopped grouping (pyproject.toml keeps pytest below 9.2): this fails if grouping
stops again, instead of the suite quietly setting those modules up once per worker."""

import os
import subprocess
import sys
import textwrap


def test_a_marked_module_runs_whole_on_one_worker(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n")
    (tmp_path / "test_grouped.py").write_text(
        textwrap.dedent(
            """
            import os
            import pytest

            pytestmark = pytest.mark.xdist_group("together")

            @pytest.mark.parametrize("n", range(8))
            def test_grouped(n):
                with open("grouped.txt", "a") as record:
                    record.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")
            """
        )
    )
    done = subprocess.run(
        # Only xdist among the installed plugins: each of the three processes starts fast.
        [sys.executable, "-m", "pytest", "-q", "-p", "xdist", "-n", "2", "--dist", "loadgroup"],
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    workers = (tmp_path / "grouped.txt").read_text().split()
    assert len(workers) == 8
    assert len(set(workers)) == 1, f"the group was split over workers {sorted(set(workers))}"
