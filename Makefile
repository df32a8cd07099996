# Airlock: `make run` installs what is missing, builds and starts the app;
# `make test` runs every test (Go, frontend, end-to-end on the real binary).

SHELL := /bin/bash
.DEFAULT_GOAL := help

WAILS_VERSION := v2.16.0
GOBIN         := $(shell go env GOPATH)/bin
WAILS         := $(GOBIN)/wails
VERSION       := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
TAGS          := desktop,production,webkit2_41
BIN           := build/bin/airlock
# run_python's runtime (CPython 3.12 for WASI), fetched and checked by SHA-256; it sits beside the binary.
PYTHON_WASM   := build/bin/python.wasm
SUDO          := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES  := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev \
                 xvfb xauth dbus-x11 imagemagick xdotool fonts-noto-color-emoji fonts-noto-cjk
NFPM_VERSION  := v2.45.0
NFPM          := $(GOBIN)/nfpm
# Tools for `make package` / `make package-test` / `make icons`.
PACKAGE_APT   := nsis librsvg2-bin xdotool x11-utils desktop-file-utils file
HEADLESS      := NO_AT_BRIDGE=1 dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24"
FRONTEND_SRC  := $(shell find frontend/src frontend/index.html frontend/vite.config.ts frontend/package.json -type f 2>/dev/null)
GO_SRC        := $(shell find . -name '*.go' -not -path './frontend/*' 2>/dev/null) go.mod go.sum

.PHONY: help run run-headless dev test test-go test-frontend test-e2e bench build deps deps-system deps-node deps-wails clean bench-ui \
        package package-test deps-package icons types python-wasm

help:
	@echo "make run           install what is missing, build, start Airlock (demo model, no API key needed)"
	@echo "make test          run every test: Go, frontend (Vitest), end-to-end on the built app under Xvfb"
	@echo "make run-headless  start the app under Xvfb with the WebKit inspector on 127.0.0.1:9222"
	@echo "make bench         Go benchmarks (streaming cost per token, coalescer, store)"
	@echo "make bench-ui      Airlock vs an empty Wails app: memory, idle CPU, start-up, JS at start, streaming, long chats (RUNS=3)"
	@echo "make dev           wails dev (hot reload)"
	@echo "make types         regenerate frontend/src/api/generated.ts from the Go types"
	@echo "make package       build the .deb, Linux .tar.gz, Windows .exe and NSIS installer into dist/"
	@echo "make package-test  make package, then install the .deb here and test the installed app under Xvfb"

# --- set-up ---------------------------------------------------------------

deps: deps-system deps-node

# Debian/Ubuntu packages: only installed when something is missing.
deps-system:
	@missing=""; for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if ! command -v apt-get >/dev/null; then echo "Please install the equivalents of:$$missing (see README: Other platforms)"; exit 1; fi; \
	  echo "Installing system packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

deps-node: frontend/node_modules/.package-lock.json

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	@node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error("Node.js >= 20.19 is required, found "+process.versions.node); process.exit(1) }'
	# npm install, not npm ci: with this machine's omit-lockfile-registry-resolved the
	# lock omits other platforms' optional packages and npm ci refuses it; install
	# still follows the lock (and leaves it unchanged).
	cd frontend && npm install --no-audit --no-fund
	@touch $@

deps-wails: $(WAILS)

$(WAILS):
	go install github.com/wailsapp/wails/v2/cmd/wails@$(WAILS_VERSION)

# --- build ----------------------------------------------------------------

frontend/dist/index.html: frontend/node_modules/.package-lock.json $(FRONTEND_SRC)
	cd frontend && npm run build

GO_BUILD := go build -tags $(TAGS) -trimpath -ldflags "-s -w -X main.version=$(VERSION)"

# Same as `wails build -tags webkit2_41`, without regenerating bindings
# (the UI calls the bound methods through its own typed layer in src/api).
$(BIN): frontend/dist/index.html $(GO_SRC)
	$(GO_BUILD) -o $(BIN) .

build: deps-system $(BIN) $(PYTHON_WASM)

python-wasm: $(PYTHON_WASM)

$(PYTHON_WASM): build/scripts/python-wasm.sh
	build/scripts/python-wasm.sh $@

run: deps deps-wails build
	@if [ -z "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  echo "No display found (DISPLAY and WAYLAND_DISPLAY are empty), so the window has nowhere to open."; \
	  echo "Run it headless under a virtual X server instead:  make run-headless"; \
	  echo "(then drive it through the WebKit inspector at http://127.0.0.1:9222/)"; \
	  exit 1; \
	fi
	./$(BIN)

run-headless: build
	WEBKIT_INSPECTOR_HTTP_SERVER=127.0.0.1:9222 $(HEADLESS) ./$(BIN)

dev: deps deps-wails
	$(WAILS) dev -tags webkit2_41 -m

# --- tests ----------------------------------------------------------------

test: test-go test-frontend test-e2e

test-go: deps-system frontend/dist/index.html $(PYTHON_WASM)
	go vet -tags $(TAGS) ./...
	AIRLOCK_PYTHON_WASM=$(CURDIR)/$(PYTHON_WASM) go test -tags $(TAGS) -count=1 ./...

# frontend/src/api/generated.ts from the Go types the UI shares (TestTSTypes fails when it is stale).
types: frontend/dist/index.html
	go test -tags $(TAGS) -count=1 -run '^TestTSTypes$$' ./facade -update

test-frontend: deps-node
	cd frontend && npm test

# Starts the real binary under Xvfb and drives it through the WebKit inspector.
# Screenshots land in artifacts/.
test-e2e: deps-system $(BIN) $(PYTHON_WASM)
	mkdir -p artifacts
	AIRLOCK_BIN=$(CURDIR)/$(BIN) AIRLOCK_ARTIFACTS=$(CURDIR)/artifacts $(HEADLESS) node --test --test-concurrency=1 frontend/e2e/

bench: $(PYTHON_WASM)
	go test -run '^$$' -bench . -benchmem ./backend/...

clean:
	rm -rf build/bin frontend/dist artifacts dist # build/cache keeps the fetched python-wasi package

# --- packages ---------------------------------------------------------------

# Tools only packaging needs, installed when missing (like deps-system).
deps-package:
	@missing=""; for p in $(PACKAGE_APT); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if ! command -v apt-get >/dev/null; then echo "Please install the equivalents of:$$missing"; exit 1; fi; \
	  echo "Installing system packages:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(NFPM):
	go install github.com/goreleaser/nfpm/v2/cmd/nfpm@$(NFPM_VERSION)

# Everything into dist/: .deb, .tar.gz, Windows .exe and NSIS installer.
# The Linux binary is relinked so it carries the current version.
package: deps-system deps-package deps-node deps-wails $(NFPM) frontend/dist/index.html $(PYTHON_WASM)
	$(GO_BUILD) -o $(BIN) .
	VERSION=$(VERSION) NFPM=$(NFPM) WAILS=$(WAILS) build/scripts/package.sh

# Installs the .deb on this machine (apt-get), runs the installed app under
# Xvfb and checks the Windows artifacts; removes the .deb afterwards.
package-test: package
	AIRLOCK_ARTIFACTS=$(CURDIR)/artifacts build/scripts/package-test.sh

# Re-render the app icons from build/appicon.svg and build/appicon-small.svg.
icons: deps-package
	build/scripts/icons.sh

# Airlock next to an empty Wails react-ts app (built once into ~/.cache/airlock-bench):
# memory, idle CPU, start-up, JavaScript at start, streaming latency, long chats. RUNS=3 for min/median/max.
bench-ui: deps-system deps-wails $(BIN)
	RUNS=$${RUNS:-1} AIRLOCK_BIN=$(CURDIR)/$(BIN) WAILS=$(WAILS) $(HEADLESS) node scripts/bench-ui.mjs
