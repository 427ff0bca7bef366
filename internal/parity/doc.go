// Package parity holds the cross-engine golden test: every row of every
// testdata/golden/<profile>.tsv goes through Go (package normalize and the
// udf layer), embedded DuckDB and embedded SQLite, and the three must give
// byte-identical values, the same NULLs and the same errors.
package parity
