# The two commands: `make run` and `make test`. Everything else is for development.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
# The packages mypy checks (with django-stubs) in `make lint`.
TYPED := events config blokus shuffleboard roundrobin

.PHONY: run test lint typecheck format lock migrate demo bench clean

# Exact versions from the lock (with their hashes), then the project itself on top of them.
$(BIN)/.installed: pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

run: $(BIN)/.installed
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py load_demo
	@echo "Serving on http://127.0.0.1:$(PORT)/  (desk: http://127.0.0.1:$(PORT)/desk/)"
	DEBUG=1 $(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

test: $(BIN)/.installed lint
	$(BIN)/pytest

lint: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) --no-print-directory typecheck

typecheck: $(BIN)/.installed
	$(BIN)/mypy $(TYPED)

format: $(BIN)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# After changing the dependencies in pyproject.toml (other pins stay);
# `make lock UPGRADE=1` moves every pin to its newest allowed release.
lock: $(BIN)/.installed
	$(BIN)/pip-compile --quiet $(if $(UPGRADE),--upgrade) --extra dev --generate-hashes \
		--allow-unsafe --strip-extras --no-emit-index-url --no-emit-find-links \
		--output-file requirements.lock pyproject.toml

bench: $(BIN)/.installed
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) var
