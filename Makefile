# urlnorm developer targets. The README's test command is `make test`.
GO ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test deps lint vet staticcheck bench bench-test

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

# bench: the peer and SQL benchmarks of benchmarks/README.md (a separate Go
# module). Waits for a quiet machine before each measurement; results in
# benchmarks/out/. BENCH_FLAGS=-publish also updates benchmarks/results/
# and the README tables; BENCH_FLAGS=-quick is a smoke run.
bench:
	./benchmarks/run.sh $(BENCH_FLAGS)

# bench-test: the benchmark module's own tests, vet and staticcheck.
bench-test:
	cd benchmarks && $(GO) vet ./... && $(GO) test ./... && $(GO) run $(STATICCHECK) ./...
