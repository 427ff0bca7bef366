package ext_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/urlnorm/urlnorm/udf"
)

// abiCall is one urlnorm_call through ext/testdata/call_abi.py: the first
// argument's column (nil for NULL) and the other arguments as constants.
type abiCall struct {
	Name   string    `json:"name"`
	Rows   []*string `json:"rows"`
	Consts []string  `json:"consts,omitempty"`
}

type abiResult struct {
	Rows     []*string `json:"rows"`
	Error    string    `json:"error"`
	Kind     string    `json:"kind"`
	ErrorRow int64     `json:"error_row"`
}

// callABI runs calls against the urlnorm.so in dir with Python's ctypes, as
// the Python package calls it.
func callABI(t *testing.T, dir string, calls []abiCall) []abiResult {
	t.Helper()
	req, err := json.Marshal(map[string]any{"lib": filepath.Join(dir, "urlnorm.so"), "calls": calls})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(debianPython, filepath.Join(root, "ext", "testdata", "call_abi.py"))
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("call_abi.py: %v\n%s", err, stderr.Bytes())
	}
	var res []abiResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("call_abi.py printed %q: %v", out, err)
	}
	if len(res) != len(calls) {
		t.Fatalf("call_abi.py answered %d calls of %d", len(res), len(calls))
	}
	return res
}

// want is what urlnorm_call must answer for f over rows: udf's row
// contract (Text; an integer result in decimal, a BOOLEAN 0 or 1), row by
// row, up to the first error, which ends the call.
func want(f *udf.Func, rows []*string, consts []string) abiResult {
	var r abiResult
	args := make([]string, 1+len(consts))
	nulls := make([]bool, 1+len(consts))
	copy(args[1:], consts)
	for i, v := range rows {
		args[0], nulls[0] = "", v == nil
		if v != nil {
			args[0] = *v
		}
		var out []byte
		var null bool
		var err error
		if f.IntResult() {
			var n int64
			n, null, err = f.Int(args, nulls)
			out = strconv.AppendInt(nil, n, 10)
		} else {
			out, null, err = f.Text(nil, args, nulls)
		}
		if err != nil {
			kind := "internal"
			var ue *udf.Error
			if errors.As(err, &ue) {
				kind = ue.Kind
			}
			return abiResult{Error: err.Error(), Kind: kind, ErrorRow: int64(i)}
		}
		s := string(out)
		if null {
			r.Rows = append(r.Rows, nil)
		} else {
			r.Rows = append(r.Rows, &s)
		}
	}
	return r
}

// TestCallABI checks the Python package's C ABI (urlnorm_call) against
// udf's rows for every function of a URL (with a profile: clara's; with a
// parameter name: utm_source) over the repository's sample URLs, NULLs,
// invalid input and the forms each part parse takes or skips, alternated:
// the rows of one call share a parser (udf.Scratch), so a row that read
// the last one's state would differ here.
func TestCallABI(t *testing.T) {
	if _, err := exec.LookPath(debianPython); err != nil {
		t.Fatalf("%s is missing (scripts/deps.sh installs it): %v", debianPython, err)
	}
	rows := sampleRows(t, 1500)
	var calls []abiCall
	var funcs []*udf.Func
	for _, f := range udf.Funcs {
		if len(f.Args) == 0 || f.Args[0].Name != "url" {
			continue
		}
		var consts []string
		for _, a := range f.Args[1:] {
			switch a.Name {
			case "profile":
				consts = append(consts, "clara")
			case "name":
				consts = append(consts, "utm_source")
			case "algorithm":
				consts = append(consts, "xxhash64")
			default:
				t.Fatalf("%s: no test value for argument %s", f.Name, a.Name)
			}
		}
		calls = append(calls, abiCall{Name: f.Name, Rows: rows, Consts: consts})
		funcs = append(funcs, f)
	}
	got := callABI(t, extensions(t, ""), calls)
	errs := 0
	for i, c := range calls {
		w := want(funcs[i], c.Rows, c.Consts)
		g := got[i]
		if w.Error != "" {
			errs++
			if g.Error != w.Error || g.Kind != w.Kind || g.ErrorRow != w.ErrorRow {
				t.Errorf("%s/%d: error %q (%s) at row %d, want %q (%s) at row %d",
					c.Name, len(c.Consts)+1, g.Error, g.Kind, g.ErrorRow, w.Error, w.Kind, w.ErrorRow)
			}
			continue
		}
		if g.Error != "" || len(g.Rows) != len(w.Rows) {
			t.Errorf("%s/%d: %d rows, error %q; want %d rows", c.Name, len(c.Consts)+1, len(g.Rows), g.Error, len(w.Rows))
			continue
		}
		for j := range w.Rows {
			if !sameRow(g.Rows[j], w.Rows[j]) {
				t.Errorf("%s/%d row %d (%s): %s, want %s", c.Name, len(c.Consts)+1, j, show(c.Rows[j]), show(g.Rows[j]), show(w.Rows[j]))
				break
			}
		}
	}
	// The raising functions meet an invalid row; the try_ twins do not.
	if errs == 0 || errs == len(calls) {
		t.Errorf("%d of %d calls raised: the rows must make the raising functions raise", errs, len(calls))
	}
}

// TestCallABIPanic checks that a panic during urlnorm_call is reported as
// the hosts report it: inside a row, as that row's error with its
// arguments; in the glue, as the function's.
func TestCallABIPanic(t *testing.T) {
	s := func(v string) *string { return &v }
	got := callABI(t, extensions(t, "urlnorm_testpanic"), []abiCall{
		{Name: "urlnorm_test_panic", Rows: []*string{nil, s("nil")}},
		{Name: "urlnorm_test_panic", Rows: []*string{nil, nil, s("glue")}},
	})
	want := []abiResult{
		{Error: "urlnorm_test_panic('nil'): internal error: runtime error: invalid memory address or nil pointer dereference (please report this query)", Kind: "internal", ErrorRow: 1},
		{Error: "urlnorm_test_panic: internal error: forced panic in the extension glue (please report this query)", Kind: "internal", ErrorRow: 2},
	}
	for i := range want {
		if g := got[i]; g.Error != want[i].Error || g.Kind != want[i].Kind || g.ErrorRow != want[i].ErrorRow {
			t.Errorf("call %d: %q (%s) at row %d, want %q (%s) at row %d", i, g.Error, g.Kind, g.ErrorRow, want[i].Error, want[i].Kind, want[i].ErrorRow)
		}
	}
}

// sampleRows returns n URLs of the repository's sample with NULLs,
// invalid input and the forms the part parses treat apart between them.
func sampleRows(t *testing.T, n int) []*string {
	f, err := os.Open(filepath.Join(root, "testdata", "urls", "kasztp.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	extra := []string{
		"HTTP://WWW.Example.COM:8080/a/./b/../c.html?utm_source=x&b=2#top", // uppercase, dot segments: the parser's general path
		"https://a.b.example.co.uk/x/y.tar.gz?utm_source=nl",               // verbatim
		"https://[::1]:8443/p?q",                                           // IPv6
		"https://bücher.example/ä?ö=1",                                     // IDNA, percent-encoding
		"www.example.com/page",                                             // no scheme
		"http://exa mple.com/",                                             // invalid host
		"",
	}
	var rows []*string
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan() && len(rows) < n; i++ {
		v := sc.Text()
		rows = append(rows, &v)
		if i%50 == 49 {
			rows = append(rows, nil)
			e := extra[(i/50)%len(extra)]
			rows = append(rows, &e)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func sameRow(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func show(s *string) string {
	if s == nil {
		return "NULL"
	}
	return strconv.Quote(*s)
}
