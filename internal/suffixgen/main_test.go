package main

import (
	"bytes"
	"os"
	"testing"
)

// TestGeneratedTableCurrent regenerates normalize/suffix_table.go from the
// x/net of go.mod and fails when the committed file differs: x/net was
// upgraded (a new list) without regenerating, or the file was edited.
func TestGeneratedTableCurrent(t *testing.T) {
	dir, err := xnetDir()
	if err != nil {
		t.Fatal(err)
	}
	want, err := generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../normalize/suffix_table.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("normalize/suffix_table.go differs from what golang.org/x/net's data in go.mod generates (%d bytes, want %d): run go generate ./normalize", len(got), len(want))
	}
}
