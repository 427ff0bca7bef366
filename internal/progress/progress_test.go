package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestRender(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     Stat
		el    time.Duration
		width int
		want  string
	}{
		// known total: percent, bar, sizes, rows, rate, ETA
		{"half", Stat{Done: 512 << 20, Total: 1 << 30, Items: 5_000_000}, 10 * time.Second, 0,
			"x  50% [============>           ] 512.0 MiB/1.00 GiB  5.00M rows  500.0k rows/s  ETA 0:10"},
		{"start", Stat{Total: 100}, 0, 0,
			"x   0% [>                       ] 0 B/100 B  0 rows  0:00"},
		{"done", Stat{Done: 100, Total: 100, Items: 3}, time.Hour + 61*time.Second, 0,
			"x 100% [========================] 100 B/100 B  3 rows  0 rows/s  1:01:01"},
		// unknown total (a pipe): what was read, and the elapsed time
		{"pipe", Stat{Done: 3 << 10, Total: -1, Items: 999}, 2 * time.Second, 0,
			"x  3.0 KiB read  999 rows  499 rows/s  0:02"},
		// cut to the terminal width, last column left free (no wrap)
		{"narrow", Stat{Done: 1, Total: 2, Items: 1}, time.Second, 20, "x  50% [==========="},
	} {
		if got := Render("x", c.s, c.el, c.width); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestNotATerminal: pipes, files and /dev/null get no bar, and messages
// pass through unchanged.
func TestNotATerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f, _ := os.Create(filepath.Join(t.TempDir(), "log"))
	null, _ := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	for _, out := range []*os.File{w, f, null} {
		if isTerminal(out) {
			t.Errorf("%s is taken for a terminal", out.Name())
		}
	}
	var buf bytes.Buffer
	b := Start(&buf, "x", func() Stat { return Stat{} })
	b.Write([]byte("message\n"))
	b.Stop()
	if buf.String() != "message\n" {
		t.Errorf("a bar on a buffer wrote %q", buf.String())
	}
	w.Close()
	f.Close()
	null.Close()
}
