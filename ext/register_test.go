package ext_test

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/urlnorm/urlnorm/udf"
)

// TestRegistersExactlyUDF compares each engine's function catalog before
// and after loading the extension: what loading adds must be udf.Funcs,
// overload for overload (name and number of arguments), and nothing else.
func TestRegistersExactlyUDF(t *testing.T) {
	var want []string
	for _, f := range udf.Funcs {
		want = append(want, fmt.Sprintf("%s/%d", f.Name, len(f.Args)))
	}
	slices.Sort(want)
	dir := extensions(t, "")

	t.Run("sqlite3-shell", func(t *testing.T) {
		const q = "SELECT DISTINCT name || '/' || narg FROM pragma_function_list"
		before, err := exec.Command("sqlite3", ":memory:", q).Output()
		if err != nil {
			t.Fatal(err)
		}
		h, err := openShell(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		after, err := h.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		checkAdded(t, strings.Fields(string(before)), column(after), want)
	})

	const duckQ = "SELECT function_name || '/' || len(parameters) FROM duckdb_functions() WHERE function_type = 'scalar'"
	for _, open := range []func() (host, error){
		func() (host, error) { return startDuckDBGo() },
		func() (host, error) { return startNode() },
	} {
		h, err := open()
		if err != nil {
			t.Fatal(err)
		}
		t.Run(h.Label(), func(t *testing.T) {
			defer h.Close()
			before, err := h.Query(duckQ)
			if err != nil {
				t.Fatal(err)
			}
			if err := loadDuckDB(h, dir); err != nil {
				t.Fatal(err)
			}
			after, err := h.Query(duckQ)
			if err != nil {
				t.Fatal(err)
			}
			checkAdded(t, column(before), column(after), want)
		})
	}
}

func column(rows [][]string) []string {
	var c []string
	for _, r := range rows {
		c = append(c, r[0])
	}
	return c
}

func checkAdded(t *testing.T, before, after, want []string) {
	t.Helper()
	if len(before) == 0 {
		t.Fatal("empty catalog before loading: the comparison would be vacuous")
	}
	added := []string{}
	for _, f := range after {
		if !slices.Contains(before, f) && !slices.Contains(added, f) {
			added = append(added, f)
		}
	}
	slices.Sort(added)
	if !slices.Equal(added, want) {
		t.Errorf("loading added\n%v\nwant udf.Funcs\n%v", added, want)
	}
}
