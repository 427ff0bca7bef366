package bridge

import (
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/udf"
)

// boom is a VARCHAR function that panics on the value "bad" and echoes
// any other.
var boom = udf.NewText("boom", []udf.Arg{{Name: "s"}}, func(dst []byte, args []string) ([]byte, bool, error) {
	if args[0] == "bad" {
		var none []byte
		_ = none[len(args[0])] // a runtime fault, as an index bug in a row function would be
	}
	return append(dst, args[0]...), false, nil
})

// A VARCHAR row that panics is that row's internal error, word for word
// what udf's guarded Text reports, though Chunk recovers once for the
// whole chunk (udf.Func.TextUnguarded); the rows before it were not
// flushed as results.
func TestChunkRecoversRowPanic(t *testing.T) {
	_, _, want := boom.Text(nil, []string{"bad"}, nil)
	if want == nil || !strings.HasPrefix(want.Error(), "boom('bad'): internal error: runtime error: index out of range [3] with length 0") {
		t.Fatalf("Text's error = %v", want)
	}
	c := &collect{t: t}
	err := Chunk(boom, 3, []Vector{duckStrings("a", "bad", "c")}, NewColumn(udf.Varchar), c.flush)
	if err == nil || err.Error() != want.Error() {
		t.Errorf("Chunk's error = %v, want %v", err, want)
	}
	if len(c.rows) != 0 {
		t.Errorf("rows flushed before the error: %q", c.rows)
	}
	// The rows after a recovered panic are evaluated afresh: a chunk
	// without the bad row succeeds with the same Column type.
	c = &collect{t: t}
	if err := Chunk(boom, 2, []Vector{duckStrings("a", "c")}, NewColumn(udf.Varchar), c.flush); err != nil || strings.Join(c.rows, ",") != "a,c" {
		t.Errorf("chunk after the panic: %q, %v", c.rows, err)
	}
}

// A panic in the bridge's own code, outside a row (here in flush), is
// not dressed as a row's error: it reaches the host's handler, which
// reports it with udf.PanicError.
func TestChunkGluePanicPropagates(t *testing.T) {
	defer func() {
		if r := recover(); r != "flush broke" {
			t.Errorf("recovered %v, want the flush's panic", r)
		}
	}()
	flush := func(*Column, int) error { panic("flush broke") }
	err := Chunk(boom, 2, []Vector{duckStrings("a", "c")}, NewColumn(udf.Varchar), flush)
	t.Errorf("Chunk returned %v instead of panicking", err)
}

// A composite row that panics (here the builder, given a second value for
// one row: a bug in the row function) is reported as Build reports it.
func TestChunkRecoversCompositePanic(t *testing.T) {
	list, err := udf.ParseSQLType("VARCHAR[]")
	if err != nil {
		t.Fatal(err)
	}
	twice := udf.NewBuild("twice", []udf.Arg{{Name: "s"}}, list, func(b udf.Builder, args []string) (bool, error) {
		b.Begin()
		b.String(args[0])
		b.End()
		if args[0] == "bad" {
			b.Null()
		}
		return false, nil
	})
	want := twice.Build(NewColumn(list).Builder(), []string{"bad"}, nil)
	if want == nil || !strings.HasPrefix(want.Error(), "twice('bad'): internal error: bridge: a second value for one row") {
		t.Fatalf("Build's error = %v", want)
	}
	err = Chunk(twice, 3, []Vector{duckStrings("a", "bad", "c")}, NewColumn(list), func(*Column, int) error { return nil })
	if err == nil || err.Error() != want.Error() {
		t.Errorf("Chunk's error = %v, want %v", err, want)
	}
}
