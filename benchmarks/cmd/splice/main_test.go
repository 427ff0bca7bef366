package main

import (
	"strings"
	"testing"
)

func TestSplice(t *testing.T) {
	doc := "# T\n<!-- begin a -->\nold\nlines\n<!-- end a -->\ntail\n<!-- begin b -->\n<!-- end b -->\n"
	got, err := Splice(doc, "a", "new")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# T\n<!-- begin a -->\nnew\n<!-- end a -->\ntail\n<!-- begin b -->\n<!-- end b -->\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	got, err = Splice(got, "b", "x\ny\n") // an empty section fills too
	if err != nil || !strings.Contains(got, "<!-- begin b -->\nx\ny\n<!-- end b -->") {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := Splice(doc, "c", "x"); err == nil {
		t.Fatal("missing section accepted")
	}
	if _, err := Splice("<!-- begin a -->\nno end\n", "a", "x"); err == nil {
		t.Fatal("unterminated section accepted")
	}
}
