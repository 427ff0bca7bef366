package bridge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/udf"
)

// A composite whose members are composites of different kinds, one after
// another at the same depth (a LIST, then a MAP, then a STRUCT): the
// builder reuses the frame a finished member left on its stack, so every
// field of it must be set afresh (a MAP's frame that kept the LIST's
// element column wrote its keys into that column).
func TestChunkNestedFramesReused(t *testing.T) {
	typ, err := udf.ParseSQLType("STRUCT(l VARCHAR[], m MAP(VARCHAR, VARCHAR[]), s STRUCT(a VARCHAR, b VARCHAR[]), z VARCHAR)")
	if err != nil {
		t.Fatal(err)
	}
	// s = "x,y,z" gives l [x y z], m {x: [y z]}, s {x, [z]}, z "z"
	f := udf.NewValue("frames", []udf.Arg{{Name: "s"}}, typ, func(args []string) (any, error) {
		p := strings.Split(args[0], ",")
		l := make([]any, len(p))
		for i, s := range p {
			l[i] = s
		}
		return []any{l, []udf.Entry{{Key: p[0], Value: l[1:]}}, []any{p[0], l[2:]}, p[len(p)-1]}, nil
	})
	in := []string{"x,y,z", "a,b,c,d", "k,v,w"}
	col := NewColumn(typ)
	var rows []any
	err = Chunk(f, len(in), []Vector{duckStrings(in...)}, col, func(c *Column, _ int) error {
		for i := range c.Len() {
			rows = append(rows, rowValue(c, i))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range in {
		want, err := f.Value([]string{s}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprintf("%#v", rows[i]) != fmt.Sprintf("%#v", want) {
			t.Errorf("%q: column row %#v; Value %#v", s, rows[i], want)
		}
	}
}
