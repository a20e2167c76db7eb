# `make run` (the main job on the managed local Neo4j), `make test`, `make lint`, `make docs` and
# `make bench`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: run test lint docs bench stop clean

$(BIN)/paperkg: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[pandas,analysis]'
	touch $@

# The suite's extras (pytest, Playwright, nbclient, neo4j-viz, rdflib, py2neo) only for `make test`.
$(VENV)/.test-extras: pyproject.toml $(BIN)/paperkg
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

# START_ARGS: options for `paperkg db start`, e.g. START_ARGS="--bolt-port 7688 --http-port 7475".
run: $(BIN)/paperkg
	$(BIN)/paperkg db start $(START_ARGS)
	$(BIN)/paperkg ingest examples/corpus
	@echo; echo "== Lineage: what 'Tracking Root Growth Over Time' builds on, up to 3 steps"
	$(BIN)/paperkg query ancestors -p paper=2205.03349 -p depth=3
	@echo; echo "== Co-citation: works cited together with RootGraph (2103.07781)"
	$(BIN)/paperkg query cocited_with -p paper=2103.07781 -p limit=5
	@echo; echo "== Unsupported claims: claims of 2405.01127 that the sources checked do not support"
	$(BIN)/paperkg query unsupported_claims -p paper=2405.01127
	@echo; $(BIN)/paperkg db status
	@echo "Explore in Neo4j Browser at the address above; more questions: $(BIN)/paperkg query --list"

# Two workers, each with its own session Neo4j; a file's tests stay together in one worker
# (module fixtures). Much of the suite waits on servers, so two share two cores well. The files
# go out in the order tests/conftest.py gives them, the slowest first: xdist's own order (the
# files with most tests first) leaves the crash walks, one long test each, to the end.
TEST_WORKERS ?= 2
test: $(VENV)/.test-extras
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# ruff (lint and format), mypy and the import layers (import-linter), on the checkout as it is.
lint: $(VENV)/.test-extras
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# The documentation site (docs/, mkdocs.yml) into build/site; --strict makes a broken link, a
# missing anchor or a page left out of the navigation an error.
docs: $(VENV)/.test-extras
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The performance benchmark (not part of the suite): 2k, 10k and 50k papers, half an hour to an hour.
# It runs paperkg with its core dependencies only, as a scheduled re-ingestion job is installed:
# where pandas is installed the driver imports it at start-up, 0.25 s of every run.
BENCH_VENV ?= .venv-bench
$(BENCH_VENV)/bin/paperkg: pyproject.toml
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install --quiet --upgrade pip
	$(BENCH_VENV)/bin/pip install --quiet -e .
	touch $@

bench: $(BENCH_VENV)/bin/paperkg
	$(BENCH_VENV)/bin/python bench/run.py $(BENCH_ARGS)

stop: $(BIN)/paperkg
	$(BIN)/paperkg db stop

clean:
	rm -rf $(VENV) $(BENCH_VENV) .pytest_cache build
