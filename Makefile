# The few verbs people type. `make run` and `make test` set everything up themselves.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000

MO := locale/fr/LC_MESSAGES/django.mo

.PHONY: install run serve stack test check lint format bench bench-tools probe browsers nginx messages gettext mutate js

# A virtualenv with the locked dependencies (reinstalled when the lock changes), the compiled
# French catalogue, then migrations.
install: $(VENV)/.installed $(MO)
	$(BIN)/python manage.py migrate --noinput

$(MO): locale/fr/LC_MESSAGES/django.po | gettext $(VENV)/.installed
	$(BIN)/python manage.py compilemessages -l fr --ignore=.venv

# GNU gettext (msgfmt, xgettext) for the catalogues, installed when it is missing.
gettext:
	@command -v msgfmt >/dev/null 2>&1 || { \
		echo "Installing Debian's gettext for the translations"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }

# Collect new strings into the French catalogue after changing texts (then translate them, and
# run it again: it also puts French typography's narrow no-break spaces in the translations).
messages: gettext $(VENV)/.installed
	$(BIN)/python manage.py makemessages -l fr --no-location --no-wrap --ignore=.venv --ignore=screenshots --ignore=tests --ignore=mutants
	$(BIN)/python scripts/french_typography.py locale/fr/LC_MESSAGES/django.po

$(VENV)/.installed: requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	touch $@

# The JavaScript tooling (package-lock.json, exact versions): Biome, axe-core. Node and npm come
# with the machine; reinstalled when the lock changes. `npm install` with the lock present installs
# its exact versions (`npm ci` refuses here: the registry holds only this platform's Biome binary).
js: node_modules/.installed

node_modules/.installed: package-lock.json
	npm install --no-audit --no-fund --loglevel=error
	touch $@

# Django's development server (reloading on changes), on SQLite unless DATABASE_URL says
# otherwise; the static files come from whitenoise's finders.
run: install
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Debian's Chromium headless shell for the browser tests (Chromium without its window, as
# Playwright itself runs it headless, lighter than the whole browser), installed when missing.
browsers:
	@command -v chromium-headless-shell >/dev/null 2>&1 || { \
		echo "Installing Debian's chromium-headless-shell for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; }

# Debian's nginx for make stack and the system tier, installed when it is missing.
nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
		echo "Installing Debian's nginx"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null; }

# Every tier on SQLite (tests/referee: the referee alone; tests/web: pages through Django's test
# client; tests/browser: Debian's Chromium headless shell at the phone sizes; tests/system:
# gunicorn, nginx and racing phones over loopback), then the tiers that read or write the
# database again on PostgreSQL when one answers at POSTGRES_URL (REQUIRE_POSTGRES=1, as in CI,
# makes a missing PostgreSQL an error). The browser tier runs once: what Chromium shows of
# pages whose server side the web tier covers on both.
POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/tamalou
# Four test processes even on two cores: the browser and system tiers spend most of their time
# waiting for Chromium and the servers.
TEST_WORKERS ?= 4
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup
test: install browsers nginx js lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	node --test tests/js/
	$(PYTEST) --durations=15 tests/browser tests/system tests/referee tests/web
	@if $(BIN)/python scripts/postgres_available.py "$(POSTGRES_URL)"; then \
		echo "Again on PostgreSQL ($(POSTGRES_URL))"; \
		DATABASE_URL="$(POSTGRES_URL)" $(PYTEST) --durations=15 -m "not no_database" tests/web tests/system; \
	elif [ -n "$(REQUIRE_POSTGRES)" ]; then \
		echo "PostgreSQL is required but does not answer at $(POSTGRES_URL)" >&2; exit 1; \
	else \
		echo "No PostgreSQL at $(POSTGRES_URL): the suite ran on SQLite only."; \
	fi

# The inner loop: the referee and the pages through the test client, on SQLite (about a minute).
check: install
	$(PYTEST) tests/referee tests/web

# Python with ruff, and the boundaries between its packages with import-linter (the contracts
# in pyproject.toml); the JavaScript (static/js, tests/js, the service worker) with Biome
# (biome.json), warnings included.
BIOME := node_modules/.bin/biome
lint: $(VENV)/.installed js
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(BIOME) lint --error-on-warnings

format: $(VENV)/.installed js
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIOME) lint --write

# Production: DEBUG=0 and the environment described in the README (SECRET_KEY, ALLOWED_HOSTS,
# DATABASE_URL, ...); static files collected hashed and compressed, served by whitenoise (or by
# nginx in front, deploy/nginx.conf); gunicorn on WSGI with deploy/gunicorn.conf.py.
HOST ?= 127.0.0.1
WEB_CONCURRENCY ?= 3
serve: install
	DEBUG=0 $(BIN)/python manage.py collectstatic --noinput -v0
	DEBUG=0 HOST=$(HOST) PORT=$(PORT) WEB_CONCURRENCY=$(WEB_CONCURRENCY) \
		$(BIN)/gunicorn -c deploy/gunicorn.conf.py tamalou_ref.wsgi

# The production shape on one machine (deploy/stack.sh): `make serve` on 127.0.0.1 at
# STACK_APP_PORT (default PORT+1), behind nginx in the foreground on HOST:PORT with
# deploy/nginx.conf (a copy under .stack/, its ports and static root rewritten). Same
# environment as `make serve`, HTTPS=0 unless set. Debian's nginx is installed when missing.
stack: nginx
	@HOST=$(HOST) PORT=$(PORT) MAKE="$(MAKE)" deploy/stack.sh

# Locust and its dependencies, exact versions (bench/requirements.txt), for `make bench` and
# `make probe` only (`make test` needs none of them); reinstalled when the list changes. Debian's
# nginx (for deploy/stack.sh) and curl (the probe's hammer), installed when missing.
$(VENV)/.bench-installed: bench/requirements.txt $(VENV)/.installed
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r bench/requirements.txt
	touch $@

bench-tools: $(VENV)/.bench-installed nginx
	@command -v curl >/dev/null 2>&1 || { \
		echo "Installing Debian's curl for make bench and make probe"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl >/dev/null; }

# The budgets of docs/performance.md against `make stack` (deploy/stack.sh on free ports, a SQLite
# file of its own; BENCH_ARGS="--postgres URL" for a fresh database on that server instead):
# many tables at once (Locust's users as phones), a 150-round game, a table's page with 200
# games, the first load. About six minutes; prints each figure with PASS or FAIL, exits 0.
# BENCH_ARGS: --tables N (60), --seconds S (180, after a third as much of warm-up).
BENCH_ARGS ?=
bench: install bench-tools
	$(BIN)/python -m bench.bench $(BENCH_ARGS)

# The door's budgets against `make stack`: half-sent heads and stalled bodies closed by nginx,
# a 3 MB body refused, one address hammering exports and sheets while another plays, the rate
# limits counting phones, no 5xx. On a SQLite file of its own, then on a fresh database (created
# and dropped) of the PostgreSQL server at POSTGRES_URL when one answers. Fails on a FAIL.
probe: install bench-tools
	@status=0; $(BIN)/python -m bench.bench --probe $(BENCH_ARGS) || status=1; \
	if $(BIN)/python scripts/postgres_available.py "$(POSTGRES_URL)"; then \
		$(BIN)/python -m bench.bench --probe --postgres "$(POSTGRES_URL)" $(BENCH_ARGS) || status=1; \
	elif [ -n "$(REQUIRE_POSTGRES)" ]; then \
		echo "PostgreSQL is required but does not answer at $(POSTGRES_URL)" >&2; exit 1; \
	else \
		echo "No PostgreSQL at $(POSTGRES_URL): the probe ran on SQLite only."; \
	fi; exit $$status

# Mutation testing of the referee (scoring/referee/), not part of `make test`: mutmut (settings in
# pyproject.toml) changes the code one mutant at a time and runs the referee's tests against
# each; the report lists the survivors and fails under MUTATION_MIN percent killed. Every run
# starts afresh. The property tests run fewer, fixed examples here (PROPERTY_EXAMPLES).
MUTATION_MIN ?= 95
mutate: $(VENV)/.installed
	rm -rf mutants
	PROPERTY_EXAMPLES=15 $(BIN)/mutmut run --max-children 2
	$(BIN)/python scripts/mutation_report.py --min $(MUTATION_MIN)
