# The two commands of the README: `make run` (the main job on the managed local Neo4j) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: run test bench stop clean

$(BIN)/paperkg: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/paperkg
	$(BIN)/paperkg db start
	$(BIN)/paperkg ingest examples/corpus
	$(BIN)/paperkg tour

test: $(BIN)/paperkg
	$(BIN)/pytest

stop: $(BIN)/paperkg
	$(BIN)/paperkg db stop

clean:
	rm -rf $(VENV) .pytest_cache
