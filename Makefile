# The README's commands: `make build`, then `make test`. Everything they need
# (a virtualenv with pinned packages, Debian's chromium for the browser tests)
# is installed on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: build test serve check new docs clean browser bench

build: $(VENV)/.runtime node_modules/.package-lock.json
	$(PY) -m generator build

check: $(VENV)/.runtime
	$(PY) -m generator check --strict

serve: $(VENV)/.runtime node_modules/.package-lock.json
	$(PY) -m generator serve --port $(PORT)

# make new SLUG=my-topic [TITLE="My Topic"]: start an explainer from the working example.
new: $(VENV)/.runtime
	@test -n "$(SLUG)" || { echo "usage: make new SLUG=my-topic [TITLE=\"My Topic\"]"; exit 2; }
	$(PY) -m generator new "$(SLUG)" $(if $(TITLE),--title "$(TITLE)")

# Regenerate the field reference in docs/authoring.md from the schema.
docs: $(VENV)/.runtime
	$(PY) -m generator.reference

test: $(VENV)/.dev browser build
	$(PY) -m pytest

clean:
	rm -rf build

# Benchmarks, not tests: repeated runs and medians, written to docs/performance.md.
bench: $(VENV)/.dev browser node_modules/.package-lock.json
	$(PY) -m bench

# Browser files pinned in package.json (the partial Plotly bundle). Without npm
# the build ships the plotly package's full bundle instead.
node_modules/.package-lock.json: package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund; \
	else echo "npm not found: shipping the full plotly.js bundle (install Node.js for the smaller one)"; fi

$(VENV)/.runtime: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt $(VENV)/.runtime
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

# Browser tests drive Debian's chromium (Playwright's own browser download
# is not available on these machines).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }
