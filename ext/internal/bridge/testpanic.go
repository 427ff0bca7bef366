//go:build urlnorm_testpanic

package bridge

import "github.com/urlnorm/urlnorm/udf"

// The urlnorm_testpanic build adds urlnorm_test_panic(mode), which panics
// below the SQL function so the host tests can check that a panic becomes
// an SQL error and the host survives. It never exists in a normal build
// (notestpanic.go).
//
//   - mode 'glue': an explicit panic in this package, outside udf's own
//     recover, caught by the extension's exported cgo function.
//   - any other mode: the call reaches udf.Func.CallText with no
//     implementation, a nil function call: a hardware fault that the Go
//     runtime inside the host turns into a panic that udf recovers.
var testFuncs = []*udf.Func{{Name: "urlnorm_test_panic", Args: []string{"mode"},
	Doc: "test only: panics below the function"}}

func testHook(f *udf.Func, args []string) {
	if f.Name == "urlnorm_test_panic" && args[0] == "glue" {
		panic("forced panic in the extension glue")
	}
}
