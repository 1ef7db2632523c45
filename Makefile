# Positional Encoding Explorer — build, serve and test on a fresh Debian machine.
#   make serve   install what is missing, build, serve on http://127.0.0.1:8080
#   make test    install what is missing, run every test tier
#   make fuzz    20,000 hostile links against the built page (the e2e tier runs 120)
#   make hosts   the embed snippet pasted into a Hugo and a Jekyll post (Debian's packages) and an
#                mdBook chapter (crates.io), each served under a policy that refuses inline styles:
#                the live figure must show
#   make bench   criterion kernels (native), then the browser benchmark (input → repainted per
#                figure and control, against PE-Lab's algorithm; the reader's clock: input → every
#                figure in view repainted and the main thread free; bundle size; budgets), then what
#                each chapter and library costs in the wasm (benches/bundle.mjs), then the
#                animation benchmark (600 frames: display rate, flat wasm memory and JS heap), then
#                the long-session benchmark (10,000 slider moves: wasm memory and JS heap), then
#                the first load on a throttled phone profile (text and first figure), then a
#                scroll through the book on that profile (how long a figure in view stays
#                blank), then Lighthouse (below)
#   make lighthouse  Lighthouse (npm, pinned in benches/lighthouse) on dist/ served gzip-compressed,
#                in Debian's Chromium (mobile, simulated throttling): the four category scores, FCP,
#                LCP, TBT, CLS and the audits that did not pass, with their elements. A measurement:
#                LIGHTHOUSE_ARGS="--runs=3" for medians, "--assert" to fail below 100 or CLS > 0.01
# Nothing is downloaded from outside the package registries (crates.io, Debian, npm).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

export PATH := $(CURDIR)/tools/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

# The wasm-bindgen CLI must be exactly the wasm-bindgen crate version in Cargo.lock.
WASM_BINDGEN_VERSION := $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/"/, "", $$3); print $$3 }' Cargo.lock)
TRUNK_VERSION := 0.21.14
# The tool that splits the book's wasm by chapter (tools/build.mjs), from crates.io.
WASM_SPLIT_VERSION := 0.2.4
# The mdBook that `make hosts` builds a book with (crates.io; builds on Rust 1.95).
MDBOOK_VERSION := 0.4.52
CHROMIUM := /usr/bin/chromium
CHROMEDRIVER := /usr/bin/chromedriver
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
WASM := --target wasm32-unknown-unknown

.PHONY: serve test bench lighthouse build figures pictures tools lint unit wasm-test e2e fuzz hosts screenshots clean

# Trunk's development server (it rebuilds on every change); only this target needs Trunk.
serve: tools .tools/trunk-$(TRUNK_VERSION) figures
	trunk serve --release

# Two jobs at once: the release build compiles (`release-wasm`) beside the Rust tiers, which run
# one after another (they share target/debug's lock) while the cargo-installed tools build; the
# browser tier runs last, alone (its timings want the machine to themselves). Timings: README.
test:
	$(MAKE) --no-print-directory -j2 --output-sync=line test-tiers
	@echo "make test: every tier passed"

.PHONY: test-tiers tier-lint tier-unit tier-wasm release-wasm
test-tiers: tier-wasm release-wasm tools
	$(MAKE) --no-print-directory -j1 e2e
tier-lint: .tools/target
	$(MAKE) --no-print-directory -j1 lint
tier-unit: tier-lint .tools/chromium
	$(MAKE) --no-print-directory -j1 unit
tier-wasm: tier-unit tools
	$(MAKE) --no-print-directory -j1 wasm-test

# The release build's compile alone (tools/build.mjs --compile-only): `make build` then finds it
# done.
release-wasm: .tools/target .tools/chromium
	node tools/build.mjs --compile-only

bench: build .tools/npm-lighthouse
	cargo bench --bench kernels
	CHROMIUM=$(CHROMIUM) node benches/browser/run.mjs dist
	node benches/bundle.mjs
	CHROMIUM=$(CHROMIUM) node benches/browser/animation.mjs dist
	CHROMIUM=$(CHROMIUM) node benches/browser/memory.mjs dist
	CHROMIUM=$(CHROMIUM) node benches/browser/firstload.mjs dist
	CHROMIUM=$(CHROMIUM) node benches/browser/scroll.mjs dist
	$(LIGHTHOUSE)

# Reports (JSON and HTML) go to target/lighthouse/. Not part of `make test`: simulated timings on a
# shared machine are too noisy to gate on, and its npm package is installed only for this and bench.
LIGHTHOUSE_ARGS ?=
LIGHTHOUSE = CHROME_PATH=$(CHROMIUM) node benches/lighthouse/run.mjs dist $(LIGHTHOUSE_ARGS)
lighthouse: build .tools/npm-lighthouse
	$(LIGHTHOUSE)

# The release build into dist/, as `trunk build --release` would write it (tools/build.mjs).
build: tools figures
	node tools/build.mjs dist

# Every figure but the comparison table (text) as a PNG in its default state
# (assets/figures/<id>.png, which the build copies into dist/figures/): the picture in a copied embed
# snippet's link, for readers where frames do not run (RSS readers), and og:image. Redrawn by pe
# render on every make build and make serve, so they never go stale.
figures: .tools/chromium
	cargo build --bin pe
	target/debug/pe render --all --format png --width 720 --scale 1 --out assets/figures >/dev/null

# ---------------------------------------------------------------- tools (installed when missing)
# Quick installs first (browser, npm), then the cargo installs (wasm-bindgen-cli ~2.5 minutes, then
# wasm-split-cli). Trunk (~9 minutes to compile) is installed by `make serve` alone: the build and
# the tests do not run it.
tools: .tools/target .tools/chromium .tools/npm-tools .tools/npm-e2e .tools/wasm-bindgen-$(WASM_BINDGEN_VERSION) .tools/wasm-split-$(WASM_SPLIT_VERSION)

.tools:
	mkdir -p .tools

.tools/target: | .tools
	rustup target list --installed | grep -qx wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown
	rustup component list --installed | grep -q '^clippy' || rustup component add clippy
	rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
	touch $@

.tools/trunk-$(TRUNK_VERSION): | .tools
	trunk --version 2>/dev/null | grep -qx 'trunk $(TRUNK_VERSION)' || cargo install --locked trunk --version $(TRUNK_VERSION)
	touch $@

# Not --locked: wasm-bindgen-cli's own lockfile pins a webpki-roots release the registry no longer serves.
.tools/wasm-bindgen-$(WASM_BINDGEN_VERSION): Cargo.lock | .tools
	@[ -n "$(WASM_BINDGEN_VERSION)" ] || { echo "no wasm-bindgen in Cargo.lock" >&2; exit 1; }
	wasm-bindgen --version 2>/dev/null | grep -qx 'wasm-bindgen $(WASM_BINDGEN_VERSION)' || cargo install --force wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)
	grep -qx 'wasm_bindgen = "$(WASM_BINDGEN_VERSION)"' Trunk.toml || { echo "Trunk.toml [tools] wasm_bindgen must be $(WASM_BINDGEN_VERSION) (Cargo.lock)" >&2; exit 1; }
	touch $@

.tools/wasm-split-$(WASM_SPLIT_VERSION): | .tools
	command -v wasm-split-cli >/dev/null && cargo install --list | grep -qx 'wasm_split_cli_support v$(WASM_SPLIT_VERSION):' || cargo install --force --locked wasm_split_cli_support --version $(WASM_SPLIT_VERSION) --features build-binary
	touch $@

# mdBook for `make hosts` only (about 2 minutes to compile), into .tools/mdbook.
.tools/mdbook-$(MDBOOK_VERSION): | .tools
	cargo install --locked mdbook --version $(MDBOOK_VERSION) --no-default-features --features search --root .tools/mdbook
	touch $@

# Debian packages: the browser and its driver, and the font pe render draws PNG text with.
.tools/chromium: | .tools
	if [ ! -x $(CHROMIUM) ] || [ ! -x $(CHROMEDRIVER) ]; then \
	  $(SUDO) apt-get update && $(SUDO) apt-get install -y chromium chromium-driver; \
	fi
	[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || { $(SUDO) apt-get update && $(SUDO) apt-get install -y fonts-dejavu-core; }
	command -v npm >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y nodejs npm; }
	touch $@

# binaryen (wasm-opt 132) from npm: Debian's binaryen 108 emits modules that fail to load.
.tools/npm-tools: tools/package.json tools/package-lock.json .tools/chromium | .tools
	npm ci --prefix tools --no-audit --no-fund
	touch $@

.tools/npm-e2e: tests/e2e/package.json tests/e2e/package-lock.json .tools/chromium | .tools
	npm ci --prefix tests/e2e --no-audit --no-fund
	touch $@

# Only for `make lighthouse` and `make bench` (not in `tools`: `make test` does not need it). Lighthouse 13 asks for
# Node 22 in its engines field but runs on Debian's Node 20; npm warns (EBADENGINE) and installs.
.tools/npm-lighthouse: benches/lighthouse/package.json benches/lighthouse/package-lock.json .tools/chromium | .tools
	npm ci --prefix benches/lighthouse --no-audit --no-fund
	touch $@

# ---------------------------------------------------------------- test tiers
lint: .tools/target
	cargo fmt --check
	cargo clippy --all-targets -- -D warnings
	cargo clippy $(WASM) --all-targets -- -D warnings

unit: .tools/chromium
	cargo test

# Unoptimised wasm needs far more stack than the release build for the whole book's view tree:
# the test build gets 8 MB instead of the linker's default 1 MB.
wasm-test: tools
	RUSTFLAGS="-C link-arg=-zstack-size=8388608" \
	  CHROMEDRIVER=$(CHROMEDRIVER) CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
	  cargo test $(WASM) --test web

e2e: build
	CHROMIUM=$(CHROMIUM) node --test --test-concurrency=1 tests/e2e/

# Hostile links at volume: 20,000 seeded random and malformed queries (the e2e tier runs 120).
fuzz: build
	CHROMIUM=$(CHROMIUM) FUZZ_CASES=20000 node --test tests/e2e/fuzz.test.mjs

# The embed snippet where bloggers write: a Hugo post (through a shortcode) and a Jekyll post
# (raw HTML), built by Debian's generators, and an mdBook chapter (raw HTML; mdBook from crates.io,
# pinned), each on its own origin with a strict style policy.
hosts: build .tools/mdbook-$(MDBOOK_VERSION)
	command -v hugo >/dev/null && command -v jekyll >/dev/null || { $(SUDO) apt-get update && $(SUDO) apt-get install -y hugo jekyll; }
	PATH=$(CURDIR)/.tools/mdbook/bin:$$PATH CHROMIUM=$(CHROMIUM) node tests/hosts/check.mjs dist

# The README's figure pictures (docs/figures/<id>-<theme>.png, listed in docs/figures/list.txt),
# drawn by pe render; a test fails when one differs from what pe render draws now.
pictures: .tools/chromium
	cargo build --bin pe
	while read -r id theme; do \
	  target/debug/pe render "$$id" --format png --theme "$$theme" --width 720 --scale 1 --out "docs/figures/$$id-$$theme.png" >/dev/null; \
	done < docs/figures/list.txt

# Screenshots for the README (1280 px and 390 px wide, light and dark).
screenshots: build
	CHROMIUM=$(CHROMIUM) node tests/e2e/screenshots.mjs docs

clean:
	cargo clean
	rm -rf dist .tools tools/node_modules tests/e2e/node_modules benches/lighthouse/node_modules
