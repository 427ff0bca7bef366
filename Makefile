# urlnorm developer targets. The README's test command is `make test`.
GO ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test deps lint vet staticcheck

# test: install what the tests need (idempotent), then run every test.
test: deps
	$(GO) test ./...

# deps: system packages and tools the tests use (see scripts/deps.sh).
deps:
	./scripts/deps.sh

lint: vet staticcheck

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...
