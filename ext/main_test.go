package ext_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// TestMain removes the extensions the tests built, and doubles as the
// duckdb-go host process of the benchmarks (URLNORM_EXT_SERVE=duckdb-go),
// which must run in a process of its own for its peak memory to be its
// own.
func TestMain(m *testing.M) {
	if os.Getenv("URLNORM_EXT_SERVE") == "duckdb-go" {
		os.Exit(serveDuckDBGo())
	}
	code := m.Run()
	built.Range(func(_, f any) bool {
		if dir, err := f.(func() (string, error))(); err == nil {
			os.RemoveAll(dir)
		}
		return true
	})
	os.Exit(code)
}

// serveDuckDBGo speaks the piped hosts' protocol (see piped) over stdin
// and stdout with duckdb-go.
func serveDuckDBGo() int {
	h, err := startDuckDBGo()
	out := json.NewEncoder(os.Stdout)
	if err != nil {
		out.Encode(map[string]string{"error": err.Error()})
		return 1
	}
	defer h.Close()
	out.Encode(map[string]string{"ready": "duckdb-go"})
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var req struct{ SQL string }
		if err := json.Unmarshal(sc.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		rows, err := h.Query(req.SQL)
		if err != nil {
			out.Encode(map[string]string{"error": err.Error()})
			continue
		}
		out.Encode(map[string]any{"rows": rows})
	}
	return 0
}
