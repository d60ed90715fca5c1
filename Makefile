PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format bench clean

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(PIP) install --quiet -r requirements-dev.txt
	touch $@

## make run: install, migrate, load the demo event, and serve on http://127.0.0.1:8000
run: $(VENV)/.installed
	DEBUG=true $(PY) manage.py migrate --noinput
	DEBUG=true $(PY) manage.py seed_demo
	DEBUG=true $(PY) manage.py ensure_director
	@echo "Serving on http://$(HOST):$(PORT)/  (staff login: http://$(HOST):$(PORT)/login/)"
	DEBUG=true $(PY) manage.py runserver $(HOST):$(PORT)

## make test: install what the tests need, lint, and run the whole suite
test: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/pytest $(PYTEST_ARGS); status=$$?; \
	  if [ $$status -eq 5 ]; then echo 'pytest ran no tests' >&2; exit 1; fi; exit $$status

## make bench: benchmarks (not tests); they print figures and assert nothing
bench: $(VENV)/.installed
	$(PY) manage.py migrate --noinput
	$(PY) manage.py bench_printing --tables 128

lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) staticfiles
