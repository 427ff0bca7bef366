//go:build urlnorm_testpanic

package bridge

import (
	"slices"
	"strconv"

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
var testFuncs = []*udf.Func{
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
