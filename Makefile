# The two set-up commands: `make run` and `make test`. Everything else here serves them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
export PORT ?= 8000

.PHONY: run test lint install install-dev clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[languages]'
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

## run: install, migrate, collect the static files, seed the demo and serve on 127.0.0.1:$(PORT)
## with a worker. Static files are served as in production: hashed names, cached for a year,
## gzipped. Editing CSS or JS? `make run STATIC_MANIFEST=false` serves the source files, re-read
## on every request (docs/decisions.md, "Layout and assets").
run: export DEBUG ?= true
run: export STATIC_MANIFEST ?= true
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	bin/serve

## test: the whole suite, on PostgreSQL and Redis (127.0.0.1 unless DATABASE_URL/REDIS_URL say
## otherwise), started first if installed but stopped (bin/test-services says what to install)
test: export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/qaplatform
test: export REDIS_URL ?= redis://127.0.0.1:6379/1
test: install-dev lint
	bin/test-services
	$(BIN)/python manage.py makemigrations --check --dry-run --noinput
	$(BIN)/python -m pytest -n 2 --dist worksteal
	QA_TEST_PASS=sqlite DATABASE_URL= REDIS_URL= $(BIN)/python -m pytest -n 2 --dist worksteal -m both_backends

lint: install-dev
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) var/static
