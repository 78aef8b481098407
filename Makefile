# Everyday commands. `make test` is what CI runs.
GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)

.PHONY: build dev test security vet bench bench-middleware fmt tidy generate

build: ## build ./einvoice
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o einvoice ./cmd/einvoice

dev: ## run everything on embedded defaults
	$(GO) run ./cmd/einvoice dev

generate: ## regenerate code (gqlgen: graph/ from graph/*.graphqls and gqlgen.yml)
	$(GO) generate ./...

vet:
	$(GO) vet ./...

test: vet ## vet, then every test with the race detector
	$(GO) test -race -count=1 -timeout 30m ./...

security: ## replay the attacks of the security review (TestAttack*; loopback only, bounded)
	$(GO) test -race -count=1 -timeout 10m -run 'Attack' ./...

bench: ## hot-path benchmarks on one core
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 ./model/...

bench-middleware: ## wrk: the full router against a bare handler on IRN generation (needs wrk)
	bench/middleware/run.sh

fmt:
	gofmt -w $$(git ls-files '*.go')
