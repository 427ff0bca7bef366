package bridge

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/udf"
)

// Split writes the very column that Begin, a String per piece and End
// write (the reference), as the row's value and as a STRUCT member:
// pieces at either end, empty ones, strings shorter and longer than a
// word, non-ASCII bytes.
func TestSplitMatchesStrings(t *testing.T) {
	inputs := []string{"", "/", "a", "a/", "/a", "//", "a//b", "abc/def/ghi", "0123456/89", "01234567/9",
		strings.Repeat("x/", 40), strings.Repeat("y", 100), "héllo/wörld/", "%2F/a%2fb"}
	for _, typ := range []string{"VARCHAR[]", "STRUCT(n INTEGER, l VARCHAR[])"} {
		fast, ref := NewColumn(mustType(t, typ)), NewColumn(mustType(t, typ))
		member := fast.kind == kindStruct
		write := func(c *Column, s string, split bool) {
			b := c.Builder()
			if member {
				b.Begin()
				b.Int(int64(len(s)))
			}
			if split {
				b.(udf.SplitBuilder).Split(s, '/')
			} else {
				b.Begin()
				for _, p := range strings.Split(s, "/") {
					b.String(p)
				}
				b.End()
			}
			if member {
				b.End()
			}
		}
		for _, s := range inputs {
			write(fast, s, true)
			write(ref, s, false)
		}
		if msg := sameColumn(fast, ref); msg != "" {
			t.Errorf("%s: %s", typ, msg)
		}
		if fast.Bytes() != ref.Bytes() {
			t.Errorf("%s: Bytes %d, with String %d", typ, fast.Bytes(), ref.Bytes())
		}
		for i, s := range inputs {
			got := rowValue(fast, i)
			if member {
				got = got.([]any)[1]
			}
			if fmt.Sprint(got) != fmt.Sprint(strings.Split(s, "/")) {
				t.Errorf("%s: row %d is %q, want the pieces of %q", typ, i, got, s)
			}
		}
	}
}

// sameColumn describes the first difference between columns a and b
// (their values, flags, ends and entries at every level), or is "".
func sameColumn(a, b *Column) string {
	switch {
	case !reflect.DeepEqual(a.Nulls, b.Nulls):
		return fmt.Sprintf("Nulls %v, %v", a.Nulls, b.Nulls)
	case string(a.Buf) != string(b.Buf):
		return fmt.Sprintf("Buf %q, %q", a.Buf, b.Buf)
	case !reflect.DeepEqual(a.Ends, b.Ends):
		return fmt.Sprintf("Ends %v, %v", a.Ends, b.Ends)
	case !reflect.DeepEqual(a.Ints, b.Ints):
		return fmt.Sprintf("Ints %v, %v", a.Ints, b.Ints)
	case !reflect.DeepEqual(a.Entries, b.Entries):
		return fmt.Sprintf("Entries %v, %v", a.Entries, b.Entries)
	case len(a.Children) != len(b.Children), (a.Elem == nil) != (b.Elem == nil):
		return "shapes differ"
	}
	for i := range a.Children {
		if msg := sameColumn(a.Children[i], b.Children[i]); msg != "" {
			return fmt.Sprintf("member %d: %s", i, msg)
		}
	}
	if a.Elem != nil {
		if msg := sameColumn(a.Elem, b.Elem); msg != "" {
			return "elements: " + msg
		}
	}
	return ""
}

// Split where the value is not a LIST of VARCHAR is a bug in the row
// function, reported as an internal error like the other wrong shapes.
func TestSplitRejectsWrongShapes(t *testing.T) {
	for _, typ := range []string{"VARCHAR", "INTEGER[]", "STRUCT(a VARCHAR)", "MAP(VARCHAR, VARCHAR)"} {
		f := udf.NewBuild("bad_split", []udf.Arg{{Name: "url"}}, mustType(t, typ), func(b udf.Builder, _ []string) (bool, error) {
			if typ == "STRUCT(a VARCHAR)" {
				b.Begin()
			}
			b.(udf.SplitBuilder).Split("a/b", '/')
			return false, nil
		})
		err := Chunk(f, 1, []Vector{duckStrings("https://example.com/")}, NewColumn(f.Returns), func(*Column, int) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "internal error") {
			t.Errorf("%s: %v", typ, err)
		}
	}
}

// url_path_segments through the bridge (Split) has, row for row of the
// shipped web URLs and their oddities, the list udf's boxed Value writes
// with a String per segment.
func TestChunkPathSegmentsAsValue(t *testing.T) {
	data, err := os.ReadFile("../../testdata/urls/kasztp.txt")
	if err != nil {
		t.Fatal(err)
	}
	urls := append(strings.Split(strings.TrimSpace(string(data)), "\n"), "https://a.example", "sc://h", "sc://h/",
		"sc:/", "https://a.example//", "https://a.example/a/./b/../c%2f/", "mailto:x", "https://a.example/é/ü?q")
	f := udf.Overload("try_url_path_segments", 1)
	var rows []any
	col := NewColumn(f.Returns)
	err = Chunk(f, len(urls), []Vector{duckStrings(urls...)}, col, func(c *Column, _ int) error {
		for i := range c.Len() {
			rows = append(rows, rowValue(c, i))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range urls {
		want, err := f.Value([]string{u}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%#v", rows[i]) != fmt.Sprintf("%#v", want) {
			t.Fatalf("url_path_segments(%q): column %#v, Value %#v", u, rows[i], want)
		}
	}
}
