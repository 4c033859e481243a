# The two commands: `make run` and `make test`. Everything else is for development.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: run test lint format migrate demo bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
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

format: $(BIN)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(BIN)/.installed
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) var
