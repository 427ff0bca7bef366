# urlnorm developer targets. The README's test command is `make test`.
GO ?= go
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test deps lint vet staticcheck gofmt extensions lint-ext bench bench-test dist notices dist-test dist-repro configure_ci release debug test_release test_debug set_duckdb_version set_duckdb_tag beam-test

# RELEASE_GO is the go command as the release builds run it on this machine's
# CPU (scripts/goexperiment.sh: Go's SIMD experiment on amd64).
RELEASE_GO = GOEXPERIMENT=$$(scripts/goexperiment.sh $$($(GO) env GOARCH)) $(GO)

# RACE_PKGS run a second time under the race detector: the SQL layer and
# the engine adapters, whose functions DuckDB calls from several threads.
RACE_PKGS ?= ./udf ./duckdb ./sqlite ./internal/slt ./internal/parity

# test: install what the tests need (idempotent), then run every test;
# duckdb, sqlite and internal/bridge once more with internal/bridge's test-only functions
# (panic rows, every result type, results of any size: build tag
# urlnorm_testpanic); normalize and udf once more as the release builds
# compile them (on amd64 with Go's SIMD experiment, whose scans the tests
# compare with the portable ones on every byte: scripts/goexperiment.sh).
test: deps
	$(GO) test ./...
	$(GO) test -tags urlnorm_testpanic ./duckdb/ ./internal/bridge/
	$(GO) test -race $(RACE_PKGS)
	$(GO) test -tags urlnorm_testpanic ./sqlite/
	$(RELEASE_GO) test ./normalize/ ./udf/

# deps: system packages and tools the tests use (see scripts/deps.sh).
deps:
	./scripts/deps.sh

lint: vet staticcheck lint-ext gofmt

# gofmt: every Go file of the repository (all modules) is gofmt-clean.
gofmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt -l:"; echo "$$out"; exit 1; fi

# vet and staticcheck: normalize also as the release builds compile it
# (scripts/goexperiment.sh: the SIMD scans on amd64).
vet:
	$(GO) vet ./...
	$(RELEASE_GO) vet ./normalize/

staticcheck:
	$(GO) run $(STATICCHECK) ./...
	$(RELEASE_GO) run $(STATICCHECK) ./normalize/

# extensions: the loadable extensions for this machine's CPU,
# dist/urlnorm.duckdb_extension (DuckDB, C API v1.2.0) and dist/urlnorm.so
# (SQLite); see docs/extensions.md. "make dist" builds the release.
extensions:
	GO=$(GO) ./ext/build.sh dist

# lint-ext: vet and staticcheck the extensions' cgo packages, which the build
# tag urlnorm_ext keeps out of ./..., and internal/duckcapi and
# internal/sqlitecapi in the mode the extensions compile them (ext/duckdb
# and internal/duckcapi find DuckDB's C headers, vendored in
# ext/duckdb/include, through their own #cgo lines).
lint-ext:
	$(GO) vet -tags urlnorm_ext ./ext/... ./internal/duckcapi/ ./internal/sqlitecapi/
	$(GO) vet -tags urlnorm_ext,urlnorm_testpanic ./ext/... ./internal/duckcapi/ ./internal/sqlitecapi/
	$(GO) run $(STATICCHECK) -tags urlnorm_ext ./ext/... ./internal/duckcapi/ ./internal/sqlitecapi/

# bench: the peer and SQL benchmarks of benchmarks/README.md (a separate Go
# module). Waits for a quiet machine before each measurement; results in
# benchmarks/out/. BENCH_FLAGS=-publish also updates benchmarks/results/
# and the README tables; BENCH_FLAGS=-quick is a smoke run.
bench:
	./benchmarks/run.sh $(BENCH_FLAGS)

# bench-test: the benchmark module's own tests, vet and staticcheck.
bench-test:
	cd benchmarks && $(GO) vet ./... && $(GO) test ./... && $(GO) run $(STATICCHECK) ./...

# dist: the release files for Linux amd64 and arm64 into dist/ (command-line
# and extension tarballs, the DuckDB extension repository, the Python and
# npm packages, SHA256SUMS); see docs/install.md. Needs the cross compilers
# "scripts/deps.sh dist" installs.
dist:
	./scripts/deps.sh dist
	GO=$(GO) ./scripts/dist.sh

# notices: rewrite THIRD_PARTY_NOTICES.md from the build graph.
notices:
	GO=$(GO) ./scripts/notices.sh > THIRD_PARTY_NOTICES.md

# dist-test: the install tests of what "make dist" wrote (scripts/dist-test.sh:
# tarballs, sqlite3 shells, DuckDB 1.2–1.5 installing from the repository tree
# on 127.0.0.1, arm64 under qemu-user), then packaging/*/test.sh.
dist-test:
	./scripts/deps.sh dist
	./scripts/dist-test.sh

# dist-repro: build HEAD again elsewhere with an empty build cache and
# compare with dist/ byte for byte (reproducible builds).
dist-repro:
	./scripts/dist-repro.sh

# --- DuckDB community extensions ---------------------------------------
# DuckDB's community-extensions CI builds and tests an extension with these
# targets (the interface of duckdb/extension-template-c and the C-API
# makefiles of duckdb/extension-ci-tools): make configure_ci, make release
# or debug (→ build/<type>/urlnorm.duckdb_extension, platform from
# DUCKDB_PLATFORM, default linux_<arch>), make test_release or test_debug
# (test/sql/*.test). See description.yml and docs/install.md.
GO_TOOLCHAIN = 1.26.8
CI_GO = $(if $(wildcard build/_go/bin/go),$(CURDIR)/build/_go/bin/go,$(GO))

# configure_ci: the pinned Go into build/_go (CI images have an older Go;
# "_" keeps its sources out of ./...).
configure_ci:
	./scripts/install-go.sh $(GO_TOOLCHAIN) build/_go

release debug:
	GO=$(CI_GO) ONLY=duckdb $(if $(filter debug,$@),DEBUG=1) ./ext/build.sh build/$@

test_release test_debug:
	URLNORM_EXT_DIR=$(CURDIR)/build/$(@:test_%=%) $(CI_GO) test ./ext -run '^TestCommunitySQL$$' -count=1 -v

# The C API is stable from DuckDB 1.2 on: nothing depends on DuckDB's version.
set_duckdb_version set_duckdb_tag:
	@echo "urlnorm builds against DuckDB's stable C API v1.2.0 (ext/duckdb/include): nothing to set"

# beam-test: the Apache Beam module's tests (pipelines on prism, direct and
# the universal runner against urlnorm), vet and staticcheck; a separate
# module, see docs/scale.md. The tests run in a network namespace without
# the module proxy (beam/internal/beamtest), so every module whose go.mod
# they read (TestSameDependencies: go list -m) is downloaded first.
beam-test:
	cd beam && $(GO) mod download && $(GO) vet ./... && $(GO) test ./... && $(GO) run $(STATICCHECK) ./...
