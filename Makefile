# The few verbs people type. `make run` and `make test` set everything up themselves.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

.PHONY: install run test lint format bench browsers

# A virtualenv with the locked dependencies (reinstalled when the lock changes), then migrations.
install: $(VENV)/.installed
	$(BIN)/python manage.py migrate --noinput

$(VENV)/.installed: requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $@

run: install
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Debian's Chromium for the browser tests, installed when it is missing.
browsers:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

test: install browsers lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/python -m pytest

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(VENV)/.installed
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: install
	$(BIN)/python bench/run.py
