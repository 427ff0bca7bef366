#!/usr/bin/env bash
# scripts/goexperiment.sh GOARCH: the GOEXPERIMENT value the release builds
# (ext/build.sh, scripts/dist.sh) use for GOARCH, the caller's own
# GOEXPERIMENT kept. On amd64 it adds "simd": Go 1.26's experimental
# simd/archsimd package, with which normalize's verbatim scans read 32
# bytes a step with AVX2 (normalize/verbatim_simd_amd64.go; 13–21 % off
# normalize_url and the URL parts on the web corpus, benchmarks/README.md
# "Issue 18: SIMD scans"). The binary checks the CPU at start-up and takes
# the portable scans without AVX2; `go build` without the experiment (a Go
# program that imports urlnorm) gets the portable scans only.
#
# URLNORM_SIMD=0 leaves the experiment out: the package is outside the Go 1
# compatibility promise, so a Go release may change it; such a build fails
# to compile (it cannot silently change an answer: the tests compare the
# two scans on every byte).
set -euo pipefail
exp=${GOEXPERIMENT:-}
if [ "${1:?usage: scripts/goexperiment.sh GOARCH}" = amd64 ] && [ "${URLNORM_SIMD:-1}" != 0 ]; then
	exp=${exp:+$exp,}simd
fi
printf '%s\n' "$exp"
