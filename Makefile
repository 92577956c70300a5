# Set-up and everyday commands; each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench fuzz clean bytecode

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python setup.cfg pyproject.toml
	$(BIN)/pip install -q --disable-pip-version-check -e .
	touch $@

# An editable install leaves mrp's modules uncompiled; where PYTHONDONTWRITEBYTECODE is set, Python then
# compiles every module at every start (about 0.07 s).  pip compiles a regular install; this does the same.
bytecode: $(VENV)/.installed
	@$(BIN)/python -m compileall -q mrp

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install -q --disable-pip-version-check -e '.[test]'
	touch $@

demo: bytecode
	$(BIN)/mrp-score --gold data/demo/gold.mrp data/demo/system.mrp

lint: $(VENV)/.installed-test
	$(BIN)/ruff check mrp tests bench
	$(BIN)/mypy mrp

test: lint
	$(BIN)/pytest

bench: $(VENV)/.installed-test bytecode
	$(BIN)/python bench/run.py

fuzz: $(VENV)/.installed-test
	MRP_FUZZ=1 $(BIN)/pytest -x tests/test_oracle.py tests/test_hostile.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
