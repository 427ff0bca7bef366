# urlnorm developer targets. The README's test command is `make test`.
GO ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test deps lint vet staticcheck extensions lint-ext bench bench-test beam-test

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

lint: vet staticcheck lint-ext

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...

# extensions: the loadable extensions, dist/urlnorm.duckdb_extension (DuckDB,
# C API v1.2.0) and dist/urlnorm.so (SQLite); see docs/extensions.md. Fetches
# the DuckDB headers on first use (ext/fetch.sh).
extensions:
	GO=$(GO) ./ext/build.sh dist

# lint-ext: vet and staticcheck the extensions' cgo packages, which the build
# tag urlnorm_ext keeps out of ./... (they need the fetched DuckDB headers).
lint-ext:
	./ext/fetch.sh headers
	$(GO) vet -tags urlnorm_ext ./ext/...
	$(GO) vet -tags urlnorm_ext,urlnorm_testpanic ./ext/...
	$(GO) run $(STATICCHECK) -tags urlnorm_ext ./ext/...

# bench: the peer and SQL benchmarks of benchmarks/README.md (a separate Go
# module). Waits for a quiet machine before each measurement; results in
# benchmarks/out/. BENCH_FLAGS=-publish also updates benchmarks/results/
# and the README tables; BENCH_FLAGS=-quick is a smoke run.
bench:
	./benchmarks/run.sh $(BENCH_FLAGS)

# bench-test: the benchmark module's own tests, vet and staticcheck.
bench-test:
	cd benchmarks && $(GO) vet ./... && $(GO) test ./... && $(GO) run $(STATICCHECK) ./...

# beam-test: the Apache Beam module's tests (pipelines on prism, direct and
# the universal runner against urlnorm), vet and staticcheck; a separate
# module, see docs/scale.md.
beam-test:
	cd beam && $(GO) vet ./... && $(GO) test ./... && $(GO) run $(STATICCHECK) ./...
