//go:build !urlnorm_testpanic

package bridge

import "github.com/urlnorm/urlnorm/udf"

// A normal build has no test-only functions (see testpanic.go).
var testFuncs []*udf.Func

// BeforeRow is called by the hosts before each row; it does nothing
// outside the urlnorm_testpanic build.
func BeforeRow(*udf.Func, []string) {}
