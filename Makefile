# urlnorm developer targets. The README's test command is `make test`.
GO ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test deps lint vet staticcheck

# RACE_PKGS run a second time under the race detector: the SQL layer and
# the engine adapters, whose functions DuckDB calls from several threads.
RACE_PKGS ?= ./udf ./duckdb ./sqlite ./internal/slt ./internal/parity

# test: install what the tests need (idempotent), then run every test.
test: deps
	$(GO) test ./...
	$(GO) test -race $(RACE_PKGS)

# deps: system packages and tools the tests use (see scripts/deps.sh).
deps:
	./scripts/deps.sh

lint: vet staticcheck

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...
