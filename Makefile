# The two commands of the README: `make run` (the main job on the managed local Neo4j) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: run test stop clean

$(BIN)/paperkg: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[pandas]'
	touch $@

# The suite's extras (pytest, Playwright, nbclient, neo4j-viz, rdflib, py2neo) only for `make test`.
$(VENV)/.test-extras: pyproject.toml $(BIN)/paperkg
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/paperkg
	$(BIN)/paperkg db start
	$(BIN)/paperkg ingest examples/corpus
	@echo; echo "== Lineage: what 'Tracking Root Growth Over Time' builds on, up to 3 steps"
	$(BIN)/paperkg query ancestors -p paper=2205.03349 -p depth=3
	@echo; echo "== Co-citation: works cited together with RootGraph (2103.07781)"
	$(BIN)/paperkg query cocited_with -p paper=2103.07781
	@echo; echo "== Unsupported claims: claims of 2402.06618 that no checked source supports"
	$(BIN)/paperkg query unsupported_claims -p paper=2402.06618
	@echo; $(BIN)/paperkg db status
	@echo "Explore in Neo4j Browser at the address above; more questions: $(BIN)/paperkg query --list"

test: $(VENV)/.test-extras
	$(BIN)/pytest

stop: $(BIN)/paperkg
	$(BIN)/paperkg db stop

clean:
	rm -rf $(VENV) .pytest_cache
