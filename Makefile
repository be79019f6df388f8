# The two commands of the README are `make run` and `make test`; both install first
# (`make run` only the Python side: the service never needs Node.js).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TS := clients/typescript
TS_STAMP := $(TS)/node_modules/.installed

.PHONY: install run test test-faults lint bench client dist clean

install: $(STAMP) $(TS_STAMP)

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements.lock -e '.[dev]'
	touch $(STAMP)

# clients/typescript's pinned packages (package-lock.json), for `make client` and the
# TypeScript client's tests. Without npm they are skipped with a message, every time until
# npm is there (the tests skip too, and fail under CI=true).
$(TS_STAMP): $(TS)/package.json $(TS)/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		echo "cd $(TS) && npm ci"; \
		(cd $(TS) && npm ci --no-audit --no-fund --loglevel=error) && touch $(TS_STAMP); \
	else \
		echo "make install: npm not found, $(TS) not installed (apt-get install nodejs npm)"; \
	fi

run: $(STAMP)
	$(BIN)/homebase serve --demo

# Every test runs on SQLite; tests marked for PostgreSQL and Redis run against the
# servers named by HOMEBASE_TEST_POSTGRES_URL / HOMEBASE_TEST_REDIS_URL.
# Three pytest workers (pytest-xdist): each has its own SQLite template and PostgreSQL
# database. Much of the suite waits on subprocesses, sockets and the limiter's windows, so
# on two cores a third worker fills that idle time, and the suite ends sooner than with
# two. PYTEST_WORKERS=0 runs in one process.
# --dist loadgroup: tests spread over the workers one by one as before, except that a
# module marked `xdist_group` (one that starts a server, a browser or a compiler for all
# its tests) runs whole on one worker, so that set-up happens once (pytest stays below 9.2,
# which silently breaks this: pyproject.toml, tests/test_xdist_groups.py).
# compileall first: where PYTHONDONTWRITEBYTECODE is set (as on the CI machines) no Python
# process writes the package's bytecode, so every `homebase` process the tests start (servers,
# workers, commands) would compile all of homebase/ again, a cost paid by each of them.
PYTEST_WORKERS ?= 3
test: install
	$(BIN)/python -m compileall -q homebase
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The fault tests (tests/cluster/test_cluster*.py) each start a whole topology (scripts/cluster: HAProxy,
# two API instances, two workers, a throwaway PostgreSQL and Redis on free ports) and break
# it. They run alone, in one process: a parallel run (`make test`) skips them.
test-faults: install
	$(BIN)/python -m pytest -n 0 $(PYTEST_ARGS) tests/cluster/test_cluster*.py

# mypy checks homebase/ strictly ([tool.mypy] in pyproject.toml); the tests are not typed.
lint: install
	$(BIN)/ruff check homebase tests bench scripts clients/python
	$(BIN)/ruff format --check homebase tests bench scripts
	$(BIN)/mypy

bench: install
	$(BIN)/python -m bench.run $(BENCH_ARGS)

# clients/python/homebase_client and clients/typescript/src/schema.d.ts from the app's
# OpenAPI document (openapi-python-client and openapi-typescript, pinned); the rest of both
# folders is hand-written and left alone. Without Node.js the Python client is still made
# and the command fails naming what is missing. clients/python/README.md,
# clients/typescript/README.md.
client: install
	$(BIN)/python -m scripts.client

# dist/: the wheel of homebase (templates, migrations and every other file it reads inside),
# built offline with the venv's pinned setuptools, and requirements.lock beside it: a
# production venv installs the wheel with the lock as constraints (docs/operations.md,
# "Production install").
dist: install
	rm -rf dist build
	$(BIN)/python -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir dist .
	rm -rf build
	cp requirements.lock dist/

clean:
	rm -rf $(VENV) var dist build .pytest_cache .hypothesis .mypy_cache $(TS)/node_modules
