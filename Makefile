# Set-up and everyday commands; each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test test-oldest lint docs bench fuzz clean bytecode

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/python setup.cfg pyproject.toml
	$(BIN)/pip install -q --disable-pip-version-check -e .
	touch $@

# An editable install leaves mrp's modules uncompiled; where PYTHONDONTWRITEBYTECODE is set, Python then
# compiles every module at every start (about 0.07 s).  pip compiles a regular install; this does the same.
bytecode: $(VENV)/.installed
	@$(BIN)/python -m compileall -q mrp

# the dask extra too: tests/test_dask.py runs mrp-similarity's blocks on a real local Dask cluster;
# TEST_EXTRAS=test,dask,hf (CI) adds Hugging Face evaluate for tests/test_integrations.py
TEST_EXTRAS ?= test,dask
$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/pip install -q --disable-pip-version-check -e '.[$(TEST_EXTRAS)]'
	touch $@

demo: bytecode
	$(BIN)/mrp-score --gold data/demo/gold.mrp data/demo/system.mrp

lint: $(VENV)/.installed-test
	$(BIN)/ruff check mrp tests bench
	$(BIN)/mypy mrp

# -n auto: the tests in worker processes, one per CPU this process may use (at most 4; tests/conftest.py)
test: lint
	$(BIN)/python -m mrp.cli.warm_up --quiet  # compiled once, ahead: tests expect the kernels loaded
	$(BIN)/pytest -n auto

$(VENV)/.installed-docs: $(VENV)/.installed
	$(BIN)/pip install -q --disable-pip-version-check -e '.[docs]'
	touch $@

# The API reference from the docstrings (docs/_build/html); a warning fails the build.
docs: $(VENV)/.installed-docs
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html

# The same tests against the lowest versions setup.cfg declares (constraints/oldest.txt), in a venv of their
# own with a kernel cache of its own (numba's cache holds one numba version's kernels at a time).
OLDEST := .venv-oldest
$(OLDEST)/.installed: setup.cfg pyproject.toml constraints/oldest.txt
	$(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/pip install -q --disable-pip-version-check -c constraints/oldest.txt -e '.[test,dask]'
	touch $@

test-oldest: $(OLDEST)/.installed
	NUMBA_CACHE_DIR=$(CURDIR)/$(OLDEST)/numba-cache $(OLDEST)/bin/python -m mrp.cli.warm_up --quiet
	NUMBA_CACHE_DIR=$(CURDIR)/$(OLDEST)/numba-cache $(OLDEST)/bin/pytest -n auto

bench: $(VENV)/.installed-test bytecode
	$(BIN)/python bench/run.py

# Longer randomised runs: the solver's oracles, hostile files, and every door (command and library) fuzzed
# with mutated files and hostile option values (MRP_FUZZ=k: 60 k files per door); the figures are printed.
MRP_FUZZ ?= 1
fuzz: $(VENV)/.installed-test
	MRP_FUZZ=$(MRP_FUZZ) $(BIN)/pytest tests/test_oracle.py tests/test_hostile.py tests/test_fuzz_doors.py \
		tests/test_umr_validate_levels.py

clean:
	rm -rf $(VENV) $(OLDEST) docs/_build build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
