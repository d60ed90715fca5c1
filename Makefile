PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run venue test lint format bench bench-load clean upgrade demo-fixture

# requirements.txt and requirements-dev.txt are exact, hashed pins compiled from requirements.in and
# requirements-dev.in (pip-tools); `make upgrade` compiles them again with the newest allowed releases.
$(VENV)/.installed: requirements.txt
	@test -x $(PY) || { echo "== Creating the virtual environment in $(VENV)"; $(PYTHON) -m venv $(VENV); }
	@echo "== Installing the app's packages from requirements.txt (the first time takes a minute or two)"
	@$(PIP) install --quiet --upgrade pip
	@$(PIP) install --quiet --require-hashes -r requirements.txt
	@touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	@echo "== Installing the test tools from requirements-dev.txt"
	$(PIP) install --quiet --require-hashes -r requirements-dev.txt
	@touch $@

## make run: install, migrate, load the demo event, and serve on http://$(HOST):$(PORT) (make run PORT=8080 HOST=0.0.0.0)
## The director's password, made on the first run, is the last thing printed before the server starts.
run: $(VENV)/.installed
	@echo "== Bringing the database up to date"
	@DEBUG=true $(PY) manage.py migrate --noinput --verbosity 0
	@echo "== Loading the demo event"
	@DEBUG=true $(PY) manage.py seed_demo
	@DEBUG=true $(PY) manage.py check --deploy --tag accounts >/dev/null
	@echo "== Serving on http://$(HOST):$(PORT)/  (staff login: http://$(HOST):$(PORT)/login/; stop with Ctrl-C)"
	@DEBUG=true $(PY) manage.py ensure_director
	@DEBUG=true $(PY) manage.py runserver $(HOST):$(PORT)

## make venue: the event at a venue: production settings (DEBUG off, collected static files, gunicorn) on the
## laptop's LAN address (or HOST=), port PORT, with its own database VENUE_DATABASE (kept between runs).
## Prints the address phones open, as text and as a QR code; the first run prints the director's password.
VENUE_DATABASE ?= $(HOME)/whist/venue.sqlite3
DIRECTOR ?= director
venue: $(VENV)/.installed
	$(PY) manage.py venue --port $(PORT) $(if $(WORKERS),--workers $(WORKERS)) --database "$(VENUE_DATABASE)" --username $(DIRECTOR) \
	  $(if $(filter-out file,$(origin HOST)),--host $(HOST))

## make test: install what the tests need, lint, check the types (mypy, configured in pyproject.toml), and run the
## whole suite, on as many processes as the machine has cores (pytest-xdist; TEST_WORKERS=0 runs it in one process)
TEST_WORKERS ?= auto
test: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -n $(TEST_WORKERS) $(PYTEST_ARGS); status=$$?; \
	  if [ $$status -eq 5 ]; then echo 'pytest ran no tests' >&2; exit 1; fi; exit $$status

## make bench: benchmarks (not tests); they print figures and assert nothing
## The benchmark commands live in bench/, installed only by its settings
BENCH = DJANGO_SETTINGS_MODULE=bench.settings $(PY) manage.py
bench: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(BENCH) bench_scale
	$(BENCH) bench_printing --tables 128
	$(BENCH) bench_logins
	$(BENCH) bench_bulk
	$(BENCH) bench_across

## make bench-load: 256 tables saving hands, alone then with 200 and 500 spectators polling the standings, on SQLite
## (the database as the cache), again on SQLite through the hand form without JavaScript (check page, sheet reloaded;
## no spectators; its p95 against a lone save's), then PostgreSQL with Redis (BENCH_POSTGRES's server, BENCH_REDIS); it creates and drops
## its own PostgreSQL database, keeps to its own key prefix in Redis (deleting those keys alone) and finds a free port
BENCH_POSTGRES ?= postgres://postgres@127.0.0.1:5432/postgres
BENCH_REDIS ?= redis://127.0.0.1:6379/0
bench-load: $(VENV)/.installed
	$(BENCH) bench_load --database sqlite
	$(BENCH) bench_load --database sqlite --path form --spectators ""
	$(BENCH) bench_load --database postgres --postgres $(BENCH_POSTGRES) --cache-url $(BENCH_REDIS)

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

## make upgrade: compile requirements.txt and requirements-dev.txt again from the .in files, newest allowed releases
upgrade: $(VENV)/.installed-dev
	$(VENV)/bin/pip-compile --quiet --upgrade --generate-hashes --strip-extras --allow-unsafe \
	  --no-emit-index-url --no-emit-find-links -o requirements.txt requirements.in
	$(VENV)/bin/pip-compile --quiet --upgrade --generate-hashes --strip-extras --allow-unsafe \
	  --no-emit-index-url --no-emit-find-links -o requirements-dev.txt requirements-dev.in
	@echo "== Pins compiled: run make test, then commit requirements*.txt"

## make demo-fixture: play the demo event again into fixtures/demo-event.json (after changing the demo or the archive)
demo-fixture: $(VENV)/.installed
	rm -f .demo-build.sqlite3
	DATABASE_URL=sqlite:///$(CURDIR)/.demo-build.sqlite3 $(PY) manage.py migrate --noinput -v0
	DATABASE_URL=sqlite:///$(CURDIR)/.demo-build.sqlite3 $(PY) manage.py demo_build
	rm -f .demo-build.sqlite3*

clean:
	rm -rf $(VENV) staticfiles
