# ToWow — see README.md. `make run` starts the server, `make test` runs every check.
GO            ?= go
SQLC_VERSION  := v1.31.1
SQLC          := bin/sqlc-$(SQLC_VERSION)
TEST_PG_DIR   := .towow/testpg
GOFILES        = $(shell git ls-files --cached --others --exclude-standard '*.go')

.PHONY: all build run test check fmt vet generate generate-check postgres postgres-test browser promtool node-tools bench clean

all: build

## build: compile the binary to bin/towow
build:
	$(GO) build -o bin/towow ./cmd/towow

## run: start the server (embedded database unless DATABASE_URL is set)
run: postgres build
	./bin/towow serve

## test: gofmt, go vet, generated-code freshness, then every test on a real PostgreSQL
test: check generate-check postgres-test browser promtool node-tools build
	@status=0; $(GO) test -count=1 -timeout 25m ./... || status=$$?; \
	if [ -z "$$TOWOW_TEST_DATABASE_URL" ]; then ./bin/towow db stop --data-dir $(TEST_PG_DIR) || status=1; fi; \
	exit $$status

## check: gofmt and go vet
check: fmt vet

fmt:
	@out=$$(gofmt -l $(GOFILES)); if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

## generate: regenerate sqlc code from migrations/ and queries/
generate: $(SQLC)
	$(SQLC) generate

## generate-check: fail when the committed generated code is stale
generate-check: $(SQLC)
	@$(SQLC) diff || (echo "generated code is stale: run 'make generate' and commit"; exit 1)

$(SQLC):
	@mkdir -p bin
	GOBIN=$(CURDIR)/bin/sqlc-tmp CGO_ENABLED=0 $(GO) install github.com/sqlc-dev/sqlc/cmd/sqlc@$(SQLC_VERSION)
	mv bin/sqlc-tmp/sqlc $(SQLC) && rmdir bin/sqlc-tmp

## postgres: make sure PostgreSQL server binaries exist for the embedded database
postgres:
	@./scripts/ensure-postgres.sh DATABASE_URL

postgres-test:
	@./scripts/ensure-postgres.sh TOWOW_TEST_DATABASE_URL

## browser: headless Chromium for the console's browser test
browser:
	@./scripts/ensure-chromium.sh

## promtool: Prometheus's promtool for the alert rules' test
promtool:
	@./scripts/ensure-promtool.sh

## node-tools: the third-party clients the tests run (npm, pinned in the scripts, cached in bin/):
## Redocly's CLI, openapi-typescript with tsc, the MCP Inspector
node-tools:
	@./scripts/ensure-redocly.sh >/dev/null
	@./scripts/ensure-openapi-ts.sh >/dev/null
	@./scripts/ensure-mcp-inspector.sh >/dev/null

## bench: event store benchmark (towow bench append)
bench: postgres build
	./bin/towow bench append

clean:
	rm -rf bin
