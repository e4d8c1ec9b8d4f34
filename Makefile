# Everything the project needs is installed here: a fresh clone needs only python3 (>= 3.11).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run workbench test test-browser test-all lint bench reports screenshot docs snapshots mutants mutants-goal clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

## The main job: one million 4-player Fortune games, summary on screen, table in results/.
run: $(STAMP)
	$(BIN)/snakesim compile
	$(BIN)/snakesim run fortune --players 4 --games 1000000 --seed 1 --out results/fortune-4p.parquet

## The house-rule workbench: a page at http://127.0.0.1:8765/ (Ctrl-C stops it).
workbench: $(STAMP)
	$(BIN)/snakesim workbench

## The default suite (heavy statistical tests and large identity counts are marked `slow` and
## left out), after lint; it prints how long it took (at most 4 minutes on 2 idle cores).
test: $(STAMP)
	@start=$$(date +%s); $(MAKE) --no-print-directory lint && $(BIN)/python -m pytest; rc=$$?; \
	echo "make test: $$(( $$(date +%s) - start )) s"; exit $$rc

## The pages opened in a real headless browser (Debian's chromium driven by Playwright), which
## this target installs first; a missing browser then fails the tests instead of skipping them.
BROWSER_STAMP := $(VENV)/.browser
$(BROWSER_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check 'playwright>=1.40'
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq --no-install-recommends chromium >/dev/null; \
	  else echo "make test-browser needs chromium: sudo apt-get install chromium"; exit 1; fi; }
	touch $(BROWSER_STAMP)

test-browser: $(BROWSER_STAMP) docs
	@start=$$(date +%s); SNAKESIM_BROWSER_REQUIRED=1 $(BIN)/python -m pytest -m browser -n 0; rc=$$?; \
	echo "make test-browser: $$(( $$(date +%s) - start )) s"; exit $$rc

## The README's picture of the workbench, taken by its browser test.
screenshot: $(BROWSER_STAMP)
	SNAKESIM_SCREENSHOT=docs/workbench.png $(BIN)/python -m pytest -m browser -n 0 -q -k house_rule

## Everything, slow tests included; the tests that time compiling (marked `timed`) after the
## rest, one at a time, since each needs the machine's every core to itself.
test-all: $(STAMP)
	@start=$$(date +%s); $(BIN)/python -m pytest -m 'not timed' && $(BIN)/python -m pytest -m timed -n 0; rc=$$?; \
	echo "make test-all: $$(( $$(date +%s) - start )) s"; exit $$rc

## The reviewed snapshots of every word snakesim says (tests/snapshots/), written anew from the
## code: after a change meant to alter the words; read `git diff tests/snapshots/` before committing.
snapshots: $(STAMP)
	$(BIN)/python -m tests.snapshots

## Mutation testing (mutmut, [tool.mutmut] in pyproject.toml): the analyses, the figure registry and
## the workbench's Python changed one small way at a time, each change run against the tests that
## reach it; then each module's score (tools/mutation_score.py; exit 1 below 90% where the goal is
## set). Not in `make test` or CI: hours on 2 cores. Ctrl-C stops it; run it again to go on where it
## stopped (mutants/ keeps every result; a function edited since is tested again).
MUTANTS_STAMP := $(VENV)/.mutants
$(MUTANTS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,mutants]'
	touch $(MUTANTS_STAMP)

mutants: $(MUTANTS_STAMP)
	@start=$$(date +%s); NUMBA_NUM_THREADS=1 $(BIN)/mutmut run --max-children $$(nproc) $(MUTANTS); \
	$(BIN)/python tools/mutation_score.py; rc=$$?; echo "make mutants: $$(( $$(date +%s) - start )) s"; exit $$rc

## The modules the goal names alone (every one of their mutants again: named, mutmut reruns them).
GOAL_MUTANTS := snakesim.analysis.verdicts.* snakesim.analysis.design.* snakesim.analysis.design_space.* \
	snakesim.analysis.balance.* snakesim.analysis.words.* snakesim.questions.* snakesim.core.figures.*
mutants-goal:
	@$(MAKE) --no-print-directory mutants MUTANTS='$(GOAL_MUTANTS)'

lint: $(STAMP)
	$(BIN)/ruff check snakesim tests benchmarks tools conftest.py
	$(BIN)/ruff format --check snakesim tests benchmarks tools conftest.py

## One table per game (every ratio from interleaved rounds in one process), then the
## look-ahead players, start-up, what a first run compiles, every kernel against the git
## revision BASELINE (make bench BASELINE=v0.2.0), a 10**7-game table and the Dask backend.
BASELINE ?= HEAD~1
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_fortune.py
	$(BIN)/python benchmarks/bench_rainbow.py
	$(BIN)/python benchmarks/bench_hisss.py
	$(BIN)/python benchmarks/bench_sssnake.py
	$(BIN)/python benchmarks/bench_lookahead.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_compile.py
	$(BIN)/python benchmarks/bench_against.py --baseline $(BASELINE)
	$(BIN)/python benchmarks/bench_catalogue.py
	$(BIN)/python benchmarks/bench_design.py
	$(BIN)/python benchmarks/bench_table.py
	$(BIN)/python benchmarks/bench_scale.py
	$(BIN)/python benchmarks/bench_workbench.py

## The documentation site, built into site/ from docs/ and the code's own registries, with no
## request outside the machine; --strict fails on a broken link or a page left out of the nav.
DOCS_STAMP := $(VENV)/.docs
$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	@start=$$(date +%s); NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --quiet --site-dir site; rc=$$?; \
	echo "make docs: $$(( $$(date +%s) - start )) s, open site/index.html"; exit $$rc

## Regenerate every report in reports/ from its study in analyses/.
reports: $(STAMP)
	for study in analyses/*.toml; do $(BIN)/snakesim study $$study || exit 1; done

clean:
	rm -rf $(VENV) results .pytest_cache
