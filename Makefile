# Two commands do all the set-up:  `make gallery`  and  `make test`; `make test-fast` is the
# quick loop while working (docs/contributing.md).
# Each creates .venv and installs gamegraph into it on first use (and again when
# pyproject.toml or the compiled walk's source, gamegraph/_walk.pyx, changes). Set PYTHON to pick the interpreter (3.10 or newer).
# `make lint` runs the style checks; `make packaging` checks the dependency floors and the
# sdist, each in a throwaway environment (docs/packaging.md).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: gallery test test-fast test-slow lint packaging bench clean

$(STAMP): pyproject.toml gamegraph/_walk.pyx
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[render,exact,fast,pandas,test,dev,openspiel,dask]'
	touch $(STAMP)

gallery: $(STAMP)
	$(BIN)/gamegraph gallery gallery

# Two workers, one test file each at a time: the gallery's build (about a minute) runs
# beside the rest of the suite. `.venv/bin/python -m pytest` runs it in one process.
test: $(STAMP)
	@./scripts/ensure-browser
	$(BIN)/python -m pytest -n 2 --dist loadfile

# The quick loop, under a minute: what `make test` runs less the tests marked browser,
# notebook or subprocess (tests/conftest.py marks each test by what its code reaches) and
# those marked heavy by hand (seconds of computation each), without installing Chromium
# (docs/contributing.md).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadfile \
		-m 'not slow and not browser and not notebook and not subprocess and not heavy'

# Only the tests marked slow, which `make test` leaves out (pyproject.toml's addopts): the
# Ur block solver against the explicit graph at 4 pieces, one test per rule set, two at
# once (--dist load spreads one file's tests over both workers); -rP prints each one's
# largest difference. The explorer pages' timings in a browser run afterwards, alone:
# beside two solves on a 2-core machine a 170 ms policy switch measured 320 ms.
test-slow: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist load -m 'slow and not browser' -rP --durations=0
	$(BIN)/python -m pytest -n 0 -m 'slow and browser' -rP --durations=0

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

packaging:
	PYTHON=$(PYTHON) ./scripts/check-floors
	PYTHON=$(PYTHON) ./scripts/check-sdist

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_jackpot.py
	$(BIN)/python benchmarks/bench_supersix.py
	$(BIN)/python benchmarks/bench_ur.py
	$(BIN)/python benchmarks/bench_games.py
	$(BIN)/python benchmarks/bench_blas.py
	$(BIN)/python benchmarks/bench_render.py
	$(BIN)/python benchmarks/bench_cli.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build dist
