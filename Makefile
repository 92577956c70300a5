# Set-up and everyday commands; each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench fuzz clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python setup.cfg pyproject.toml
	$(BIN)/pip install -q --disable-pip-version-check -e .
	touch $@

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install -q --disable-pip-version-check -e '.[test]'
	touch $@

demo: $(VENV)/.installed
	$(BIN)/mrp-score --gold data/demo/gold.mrp data/demo/system.mrp

lint: $(VENV)/.installed-test
	$(BIN)/ruff check mrp tests bench
	$(BIN)/mypy mrp

test: lint
	$(BIN)/pytest

bench: $(VENV)/.installed-test
	$(BIN)/python bench/run.py

fuzz: $(VENV)/.installed-test
	MRP_FUZZ=1 $(BIN)/pytest -x tests/test_oracle.py tests/test_hostile.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
