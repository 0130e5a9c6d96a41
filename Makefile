# Two set-up commands (see README): `make serve` and `make test`.
# Each one creates or refreshes the virtual environment .venv from pinned versions.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
export NO_MKDOCS_2_WARNING := 1
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PIP_VERSION := 26.3

.PHONY: serve serve-port-check test site book bench bench-site mutation lint clean chromium

$(STAMP): pyproject.toml constraints.txt build-constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check pip==$(PIP_VERSION)
	$(BIN)/python -m pip install --quiet -c constraints.txt --build-constraint build-constraints.txt -e '.[book,dev,api]'
	touch $(STAMP)

## serve the book site on http://127.0.0.1:8000 (another port: make serve PORT=8001); a busy port is
## refused in one line before the build starts, and changes to rules_lib/ rebuild the site too
PORT ?= 8000
serve: serve-port-check $(STAMP)
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:$(PORT) --watch rules_lib

serve-port-check:
	@$(PYTHON) tools/port_free.py $(PORT)

## every test: lint, strict site build, library/catalogue/widget tests, nbval over every notebook,
## and the browser tests against the built site (tools/run_tests.sh: the build beside the Python
## tests, the browser tests after it)
test: $(STAMP) chromium
	BIN=$(BIN) tools/run_tests.sh

## the browser tests drive Debian's Chromium; install it when missing (sudo when not root), unless
## RULES_LIB_CHROMIUM names another Chromium-based browser (GitHub's runners ship Google Chrome);
## node runs the site scripts' regular expressions in tests/test_site_scripts.py
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
chromium:
	@if [ -n "$$RULES_LIB_CHROMIUM" ] || command -v chromium >/dev/null; then :; else \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q chromium; fi
	@if command -v node >/dev/null; then :; else \
		$(SUDO) apt-get update -q && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -q nodejs; fi

## build the site into site/
site: $(STAMP)
	$(BIN)/mkdocs build --strict

## re-execute every notebook of the book and store its outputs and widget state
book: $(STAMP)
	$(BIN)/python tools/execute_book.py

## benchmarks (not part of the tests)
bench: $(STAMP)
	@for script in $(filter-out benchmarks/bench_site.py,$(wildcard benchmarks/bench_*.py)); do \
		echo "== $$script"; $(BIN)/python $$script || exit 1; done

## does a catalogue check fail when a rule is wrong? mutation score per system (not part of the tests)
mutation: $(STAMP)
	$(BIN)/python tools/mutation.py

## each system's calculators page, cold and warm, full speed and CPU-throttled 4x: times, long tasks, bytes
## (the site as published: the same build as make site)
bench-site: $(STAMP) chromium
	$(BIN)/mkdocs build --strict --site-dir .site-bench
	$(BIN)/python benchmarks/bench_site.py .site-bench

clean:
	rm -rf $(VENV) site .site-test .site-bench .cache
