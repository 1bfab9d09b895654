# `make run` sets up and runs the site on embedded defaults; `make test` runs the whole suite.
PYTHON ?= python3
# Local work runs with DEBUG on (the settings default to off, as production must); the test suite
# asks for it in okeysite/settings_test.py.
export DEBUG ?= 1
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup migrate lint bench browser clean screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(BIN)/python
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

setup: $(VENV)/.installed

migrate: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo

run: migrate
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Browser tests need Debian's Chromium; install it when we can (root), else say how.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "Browser tests need Chromium: sudo apt-get install -y chromium" >&2; exit 1; fi; }

test: setup browser
	$(BIN)/pytest $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check .

bench: setup
	$(BIN)/python bench/engine.py

# PNGs of the table (deal, mid-hand at three sizes, your turn, result, match end, watcher) and the
# main pages, Turkish and English, into screenshots/ (git-ignored): look at them after UI changes.
screenshots: setup browser
	$(BIN)/pytest -q -p no:randomly tests/e2e/screenshots.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
