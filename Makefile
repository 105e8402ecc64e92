# Two commands do all the set-up:  `make gallery`  and  `make test`.
# Each creates .venv and installs gamegraph into it on first use (and again when
# pyproject.toml changes). Set PYTHON to pick the interpreter (3.10 or newer).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: gallery test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[render,exact,test]'
	touch $(STAMP)

gallery: $(STAMP)
	$(BIN)/python -m renderers.gallery gallery

test: $(STAMP)
	@./scripts/ensure-browser
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_jackpot.py
	$(BIN)/python benchmarks/bench_supersix.py
	$(BIN)/python benchmarks/bench_ur.py

clean:
	rm -rf $(VENV) .pytest_cache
