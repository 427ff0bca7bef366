//go:build !urlnorm_testpanic

package bridge

import "github.com/urlnorm/urlnorm/udf"

// A normal build has no test-only functions (see testpanic.go).
var testFuncs []*udf.Func

func testHook(*udf.Func, []string) {}
