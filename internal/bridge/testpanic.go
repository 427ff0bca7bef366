//go:build urlnorm_testpanic

package bridge

import (
	"slices"
	"strconv"
	"strings"

	"github.com/urlnorm/urlnorm/udf"
)

// The urlnorm_testpanic build (never in dist/) adds test-only functions:
//
// urlnorm_test_panic(mode) panics below the SQL function, so the host
// tests can check that a panic becomes an SQL error and the host
// survives:
//   - mode 'glue': an explicit panic in this package, outside udf's own
//     recover, caught by the extension's exported cgo function;
//   - any other mode: a nil pointer dereference inside the function, a
//     hardware fault that the Go runtime inside the host turns into a
//     panic that udf recovers.
//
// urlnorm_test_repeat(s, n) is s repeated n times: results of any size,
// for the tests of results past 4 GiB per chunk (DuckDB) and past 2 GiB
// per value (SQLite).
//
// urlnorm_test_shape(s), urlnorm_test_len(s) and urlnorm_test_is(s)
// return each result type the column writer and the SQLite glue handle
// (a STRUCT of BOOLEAN, INTEGER, LIST and MAP; an INTEGER; a BOOLEAN), so
// the hosts check them before real functions use them.
var testFuncs = []*udf.Func{
	udf.NewValue("urlnorm_test_shape", []udf.Arg{{Name: "s"}}, shapeType, testShape),
	udf.NewValue("urlnorm_test_len", []udf.Arg{{Name: "s"}}, udf.Integer, func(a []string) (any, error) {
		if a[0] == "null" {
			return nil, nil
		}
		return int64(len(a[0])), nil
	}),
	udf.NewValue("urlnorm_test_is", []udf.Arg{{Name: "s"}}, udf.Boolean, func(a []string) (any, error) {
		return a[0] == "yes", nil
	}),
	udf.NewText("urlnorm_test_panic", []udf.Arg{{Name: "mode"}}, func(dst []byte, args []string) ([]byte, bool, error) {
		var p *[]byte
		return append(dst, (*p)...), false, nil
	}),
	udf.NewText("urlnorm_test_repeat", []udf.Arg{{Name: "s"}, {Name: "n"}}, func(dst []byte, args []string) ([]byte, bool, error) {
		n, err := strconv.Atoi(args[1])
		if err != nil {
			return dst, false, err
		}
		dst = slices.Grow(dst, n*len(args[0]))
		for range n {
			dst = append(dst, args[0]...)
		}
		return dst, false, nil
	}),
}

// BeforeRow panics in the glue for urlnorm_test_panic('glue').
func BeforeRow(f *udf.Func, args []string) {
	if f.Name == "urlnorm_test_panic" && args[0] == "glue" {
		panic("forced panic in the extension glue")
	}
}

var shapeType, _ = udf.ParseSQLType("STRUCT(b BOOLEAN, i INTEGER, l VARCHAR[], m MAP(VARCHAR, VARCHAR[]))")

// testShape splits s at commas: b is whether the count is even, i the
// length of s, l the parts ("~" is NULL), m {"n": [count], "first":
// [first part, NULL]}. The empty string gives NULL.
func testShape(a []string) (any, error) {
	if a[0] == "" {
		return nil, nil
	}
	parts := strings.Split(a[0], ",")
	l := make([]any, len(parts))
	for i, p := range parts {
		if p != "~" {
			l[i] = p
		}
	}
	m := []udf.Entry{{Key: "n", Value: []any{strconv.Itoa(len(parts))}}, {Key: "first", Value: []any{l[0], nil}}}
	return []any{len(parts)%2 == 0, int64(len(a[0])), l, m}, nil
}
