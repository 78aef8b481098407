# Everyday commands. `make test` is what CI runs.
GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)

.PHONY: sdk-test readme-walk build dev test test-race test-norace outage-test security vet lint cluster-test bench bench-middleware bench-invoices bench-cluster-invoices fmt tidy generate clients portal portal-deps portal-check portal-test portal-screenshots bench-portal

build: ## build ./einvoice for production (-tags prod: without the embedded Temporal server and UI that only dev uses)
	CGO_ENABLED=0 $(GO) build -tags prod -trimpath -ldflags '$(LDFLAGS)' -o einvoice ./cmd/einvoice

dev: ## run everything on embedded defaults
	$(GO) run ./cmd/einvoice dev

generate: ## regenerate code (gqlgen: graph/ from graph/*.graphqls and gqlgen.yml; the Go SDK: rest/client from rest/openapi/openapi.yaml)
	$(GO) generate ./...

vet:
	$(GO) vet ./...

# The linters are pinned in a module of their own (.ci/tools/go.mod), so that
# their dependencies never change the service's.
TOOL := $(GO) tool -modfile=.ci/tools/go.mod

lint: ## the layout's allow table (every package in a room, every import allowed), staticcheck, one writer per noun, workflow determinism, type sizes
	$(GO) run ./bench/layout .
	$(TOOL) golangci-lint run --allow-serial-runners ./...
	$(TOOL) workflowcheck ./workflows/...
	$(GO) run ./bench/packages -max-methods 25 .

# The Temporal server (go.temporal.io/server, three quarters of the packages
# the module builds) is compiled once, without the race detector: the tests
# that need a Temporal server start cmd/einvoice-temporal as a process of
# their own (worker/temporaltest; EINVOICE_TEST_TEMPORAL_BIN names the binary
# built here), and the race-detector run covers every package except the two
# that embed the server, on the production build of cmd/einvoice (-tags prod,
# without `einvoice dev`). Those run without the race detector:
# worker/devtemporal, and the tests of `einvoice dev` (TestDev*).
EMBEDS_SERVER := /worker/devtemporal$$|/cmd/einvoice-temporal$$
# SLOW_FIRST are the packages whose tests take longest, slowest first: the
# go command starts packages in the order it is given them, so these start
# first and the run does not end on one long package alone.
SLOW_FIRST := worker rest graph model/store workflows model/app cmd/einvoice rest/nrssandbox
MODULE = $(shell $(GO) list -m)
empty :=
space := $(empty) $(empty)
RACE_PKGS = $$(printf './%s\n' $(SLOW_FIRST); \
	$(GO) list ./... | grep -Ev '$(EMBEDS_SERVER)|^$(MODULE)/($(subst $(space),|,$(SLOW_FIRST)))$$')

# WITH_TEMPORAL_BIN builds cmd/einvoice-temporal into a temporary directory
# and exports its path, for the rest of the recipe's line.
WITH_TEMPORAL_BIN = bin=$$(mktemp -d) && trap 'rm -rf "$$bin"' EXIT && \
	echo "$(GO) build -o $$bin/einvoice-temporal ./cmd/einvoice-temporal" && \
	$(GO) build -o $$bin/einvoice-temporal ./cmd/einvoice-temporal && \
	export EINVOICE_TEST_TEMPORAL_BIN=$$bin/einvoice-temporal

# test runs its two halves one after the other: test-race, every test with
# the race detector; test-norace, the tests embedding the Temporal server, the
# tests of `einvoice dev` and the exactly-once run over 1,000 invoices. (Run
# side by side they load the 2 cores enough to upset the timing of the
# outage and cancellation tests.)
test: vet ## vet, then every test with the race detector (the Temporal server a process of its own), then the tests embedding the server and the exactly-once run over 1,000 invoices without it
	@$(WITH_TEMPORAL_BIN) && \
	$(MAKE) --no-print-directory test-race && \
	$(MAKE) --no-print-directory test-norace

test-race: ## every test with the race detector but those embedding the Temporal server (part of make test)
	@echo "$(GO) test -race -tags prod -count=1 -timeout 30m ./... (but worker/devtemporal, cmd/einvoice-temporal; slowest first)" && \
	$(GO) test -race -tags prod -count=1 -timeout 30m $(RACE_PKGS)

test-norace: ## the tests embedding the Temporal server, TestDev* and the exactly-once run over 1,000 invoices, without the race detector (part of make test)
	@echo "$(GO) test -count=1 (no race detector) TestInvoicesExactlyOnce of ./worker/, ./worker/devtemporal/ ./cmd/einvoice-temporal/, TestDev* of ./cmd/einvoice/" && \
	$(GO) test -count=1 -timeout 10m -run '^TestInvoicesExactlyOnce$$' ./worker/ && \
	$(GO) test -count=1 -timeout 10m ./worker/devtemporal/ ./cmd/einvoice-temporal/ && \
	$(GO) test -count=1 -timeout 10m -run '^TestDev' ./cmd/einvoice/

outage-test: ## the full-size outage: 2,000 invoices submitted during a six-hour stand-in outage (TestInvoicesOutage at EINVOICE_OUTAGE_INVOICES=2000, without the race detector; make test runs it over 60)
	@$(WITH_TEMPORAL_BIN) && \
	echo "EINVOICE_OUTAGE_INVOICES=2000 $(GO) test -count=1 -timeout 20m -run '^TestInvoicesOutage$$' ./worker/" && \
	EINVOICE_OUTAGE_INVOICES=2000 $(GO) test -count=1 -timeout 20m -v -run '^TestInvoicesOutage$$' ./worker/

security: ## replay the attacks of the security review (TestAttack*; loopback only, bounded)
	@$(WITH_TEMPORAL_BIN) && \
	echo "$(GO) test -race -tags prod -count=1 -timeout 10m -run Attack ./... (but worker/devtemporal, cmd/einvoice-temporal)" && \
	$(GO) test -race -tags prod -count=1 -timeout 10m -run 'Attack' $(RACE_PKGS) && \
	echo "$(GO) test -count=1 -timeout 10m -run '^TestDevAttack' ./cmd/einvoice/  (einvoice dev's own, in the default build)" && \
	$(GO) test -count=1 -timeout 10m -run '^TestDevAttack' ./cmd/einvoice/

cluster-test: ## the deployed topology (PostgreSQL via a cuttable proxy, Redis, Temporal, the stand-in, 2 api, 2 worker) under load, SIGKILLs and a 60 s database outage (ports 19500-19599; needs psql and redis-server)
	bench/cluster/run.sh

bench-invoices: ## invoice pipeline cost: einvoice dev on a fresh data directory, bench/invoices against it (N=, RATE=, ARGS=)
	bench/invoices/run.sh

bench-cluster-invoices: ## invoice pipeline cost of the deployed topology (make cluster-test's processes, no faults): bench/invoices over both APIs, CPU per invoice of every process (N=, RATE=; ports 19500-19599)
	bench/cluster/run.sh -bench-invoices -bench-n $(or $(N),600) -bench-rate $(or $(RATE),50)

bench: ## hot-path benchmarks on one core
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./model/...

bench-middleware: ## wrk: the full router against a bare handler on IRN generation (needs wrk)
	bench/middleware/run.sh

sdk-test: ## the Go SDK's tests and Example functions (rest/client, a module of its own) against a fresh einvoice dev
	@bin=$$(mktemp -d) && trap 'rm -rf "$$bin"' EXIT && \
	echo "$(GO) build -o $$bin/einvoice ./cmd/einvoice" && $(GO) build -o $$bin/einvoice ./cmd/einvoice && \
	echo "(cd rest/client && $(GO) vet . && $(GO) test -count=1 .)" && \
	cd rest/client && $(GO) vet . && EINVOICE_BIN=$$bin/einvoice $(GO) test -count=1 .

readme-walk: ## run the README's first walk, as written, against a fresh einvoice dev
	.ci/readme-walk

clients: ## generated clients against einvoice dev: oapi-codegen, ogen, openapi-typescript compiled; Redocly, Spectral; the flow with the Go, TypeScript and SDK clients
	rest/client/conformance/run.sh

fmt:
	gofmt -w $$(git ls-files '*.go')

tidy: ## go mod tidy (CI fails when go.mod or go.sum is not tidy)
	$(GO) mod tidy

PORTAL := graph/portal

portal-deps: ## install the portal's pinned npm packages (package-lock.json)
	cd $(PORTAL) && npm ci --no-audit --no-fund

portal: portal-deps ## rebuild the embedded portal bundle (graph/portal/dist) from its sources
	cd $(PORTAL) && npm run build

portal-check: portal ## fail when the committed portal bundle differs from a fresh build
	@if [ -n "$$(git status --porcelain -- $(PORTAL)/dist)" ]; then \
		echo "graph/portal/dist differs from a fresh build; run 'make portal' and commit the result:" >&2; \
		git status --porcelain -- $(PORTAL)/dist >&2; exit 1; fi

portal-test: portal-deps ## end-to-end tests of the portal in Debian's Chromium against einvoice dev (screenshots to graph/portal/e2e/out/screenshots)
	mkdir -p $(PORTAL)/e2e/out
	$(GO) build -o $(PORTAL)/e2e/out/einvoice ./cmd/einvoice
	cd $(PORTAL) && EINVOICE_BIN=$(CURDIR)/$(PORTAL)/e2e/out/einvoice npm run test:e2e

portal-screenshots: ## the portal's end-to-end tests, rewriting the committed screenshots docs/portal/*.png
	$(MAKE) portal-test PORTAL_SCREENSHOTS_DIR=$(CURDIR)/docs/portal

bench-portal: portal-deps ## portal budgets: initial JS gzipped, first meaningful paint of the projects screen
	mkdir -p $(PORTAL)/e2e/out
	$(GO) build -o $(PORTAL)/e2e/out/einvoice ./cmd/einvoice
	cd $(PORTAL) && EINVOICE_BIN=$(CURDIR)/$(PORTAL)/e2e/out/einvoice node ../../bench/portal/measure.mjs
