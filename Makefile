# The two commands: `make run` and `make test`. Everything else is for development.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
# The packages mypy checks (with django-stubs) in `make lint`.
# Every format: each top-level folder holding a format.py (its declaration), no list to keep.
TYPED := events config $(patsubst %/format.py,%,$(wildcard */format.py))

.PHONY: run serve test test-fast lint typecheck format lock migrate demo bench bench-cache clean messages screenshots

# Exact versions from the lock (with their hashes), then the project itself on top of them.
$(BIN)/.installed: pyproject.toml requirements.lock
	@echo "Installing the locked dependencies into $(VENV) (once)…"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/pip install --quiet --require-hashes -r requirements.lock
	@$(BIN)/pip install --quiet --quiet --no-deps --no-build-isolation -e .
	@touch $@

# HOST=0.0.0.0: serve the venue network; the LAN address phones open is printed with a QR code
# (scripts/run.py sets SITE_URL, the base of every QR code and e-mail link, to it).
# With DATABASE_URL=postgres://… the server (a thread per request) borrows its connections from
# a pool of DB_POOL_MAX (10 unless set), so a room signing up at once waits for one instead of
# running PostgreSQL out of connections.
run: $(BIN)/.installed
	@echo "Preparing the database and the demo events…"
	@DEBUG=1 $(BIN)/python manage.py migrate --noinput --verbosity 0
	@DEBUG=1 $(BIN)/python manage.py load_demo --verbosity 0
	@DEBUG=1 HOST=$(HOST) PORT=$(PORT) $(BIN)/python scripts/run.py

# What production runs (DEBUG off, SECRET_KEY, DATABASE_URL, SITE_URL, EMAIL_BACKEND set):
# migrate, collectstatic, gunicorn and the deadline loop; SIGTERM stops both cleanly.
serve: $(BIN)/.installed
	$(BIN)/python -m config.serve

# The suite in three passes: the tests that share nothing but their own database on two
# processes (pytest-xdist, one test database each); the browser journeys on two processes too,
# a module to a process (each its own live server, database and Chromium; much of a journey is
# waiting for a page to follow a write, which two processes overlap); then the tests that start
# servers of their own one at a time (fixed ports, timing on a 2-core machine).
# BROWSER=0 leaves the journeys out. SECOND_DATABASE=1 (CI's run on SQLite, after PostgreSQL)
# keeps only what can differ by database: no journeys, no `slow` sweeps (they test the pages), no
# `nodb` tests (they touch none), and of the server tests only `make run`'s (SQLite is what it
# serves; the others serve production on PostgreSQL and Redis). PYTEST_ARGS adds files or -k
# (a pass with nothing selected, exit code 5, is not a failure).
ifeq ($(SECOND_DATABASE),1)
BROWSER := 0
ONCE := and not slow and not nodb
SERVER_TESTS := tests/test_run_load.py
endif
# Each pass prints its dots, its failures and a one-line summary (CI adds the ten slowest tests
# through PYTEST_ADDOPTS).
test: $(BIN)/.installed lint
	@echo "== tests (two processes)"
	@$(BIN)/pytest -n 2 -m "not browser and not server $(ONCE)" $(PYTEST_ARGS) || [ $$? = 5 ]
ifneq ($(BROWSER),0)
	@echo "== browser journeys (Chromium, two processes)"
	@$(BIN)/pytest -n 2 --dist loadfile -m "browser and not server" $(PYTEST_ARGS) || [ $$? = 5 ]
endif
	@echo "== tests that start servers of their own"
	@$(BIN)/pytest -m "server" $(SERVER_TESTS) $(PYTEST_ARGS) || [ $$? = 5 ]

# After every change: the suite without the browser journeys, the server tests and the few slow
# sweeps (every admin form and every URL with hostile values, the whole demo restored, every page
# in every language), on two processes (pytest-xdist), no lint. `make test` before a commit.
test-fast: $(BIN)/.installed
	@$(BIN)/pytest -n 2 -m "not browser and not server and not slow" $(PYTEST_ARGS)

# Quiet when all is well: only what is wrong is printed.
lint: $(BIN)/.installed
	@echo "== lint (ruff, mypy)"
	@$(BIN)/ruff check --quiet .
	@$(BIN)/ruff format --check --quiet .
	@$(MAKE) --no-print-directory typecheck

typecheck: $(BIN)/.installed
	@$(BIN)/mypy --no-error-summary $(TYPED)

format: $(BIN)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# After changing the dependencies in pyproject.toml (other pins stay);
# `make lock UPGRADE=1` moves every pin to its newest allowed release.
lock: $(BIN)/.installed
	$(BIN)/pip-compile --quiet $(if $(UPGRADE),--upgrade) --extra dev --generate-hashes \
		--allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements.lock pyproject.toml

# Translations: makemessages for sv, et, nl (needs GNU gettext's xgettext), then compile every
# .po to its committed .mo with Babel. `make run` and `make test` need neither (the .mo files are
# in the repository; tests/test_translations.py fails when one is stale).
messages: $(BIN)/.installed
	DEBUG=1 $(BIN)/python scripts/catalogues.py extract
	$(BIN)/python scripts/catalogues.py compile

# The organiser's guide's pictures (docs/guide/images/): the browser test that takes them from
# the demo at 390 and 1280 px, writing them into the guide (without GUIDE_SHOTS, to a temporary folder).
screenshots: $(BIN)/.installed
	GUIDE_SHOTS=1 $(BIN)/pytest tests/browser/test_guide_screenshots.py -m browser -p no:cacheprovider

bench: $(BIN)/.installed
	$(BIN)/python bench/run.py

# The shipped nginx cache in front of gunicorn: 5,000 phones polling, and a burst without it
# (bench/shared_cache.py; needs Debian's nginx).
bench-cache: $(BIN)/.installed
	$(BIN)/python bench/shared_cache.py

clean:
	rm -rf $(VENV) var
