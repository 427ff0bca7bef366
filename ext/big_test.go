package ext_test

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// A SQLite result over the connection's SQLITE_LIMIT_LENGTH raises
// SQLITE_TOOBIG with a message naming the function (issue 16 item 3): a
// 77-byte URL whose canonical form, percent-encoded, has 197 bytes, under
// a limit of 100.
func TestShellLengthLimit(t *testing.T) {
	h, err := openShell(t, extensions(t, ""))
	if err != nil {
		t.Fatal(err)
	}
	url := "http://a.example/" + strings.Repeat("é", 30)
	out, stderr, err := h.(*shell).script(".limit length 100\nSELECT normalize_url('" + url + "') AS n;\nSELECT length(normalize_url('http://a.example/x')) AS after;\n")
	if errors.Is(err, errCrash) || !strings.Contains(out, `"after":18`) {
		t.Fatalf("shell: %v\nstdout: %s\nstderr: %s", err, out, stderr)
	}
	if !strings.Contains(stderr, "normalize_url: result too big: 197 bytes, over SQLite's length limit of 100 (SQLITE_LIMIT_LENGTH)") {
		t.Errorf("stderr = %q; want the function's too-big error", stderr)
	}
}

// TestHostsBigResults runs results of gigabytes through real hosts (about
// 10 GB of memory and a minute: URLNORM_EXT_BIG=1 go test ./ext -run
// TestHostsBigResults -v). DuckDB: one chunk of 2048 rows of 2.2 MB each,
// 4.5 GB, past the 32-bit row ends that used to return other rows' bytes
// (issue 16 item 2). SQLite: results of 2 GiB (a negative length as a C
// int) and 4 GiB + 10 bytes (10 as a C int: a silently truncated result)
// must raise, not read past the buffer or truncate (item 3).
func TestHostsBigResults(t *testing.T) {
	if os.Getenv("URLNORM_EXT_BIG") == "" {
		t.Skip("set URLNORM_EXT_BIG=1 (needs ~10 GB of memory)")
	}
	dir := extensions(t, "urlnorm_testpanic")
	t.Run("duckdb", func(t *testing.T) {
		for _, open := range []func(*testing.T, string) (host, error){openNode, openDuckDBGo} {
			h, err := open(t, dir)
			if err != nil {
				t.Fatal(err)
			}
			// Each row is its own letter, 2.2 MB of it.
			const q = `SELECT count(*), count(*) FILTER (WHERE length(s) <> 2200000 OR ltrim(s, c) <> '')
				FROM (SELECT c, urlnorm_test_repeat(c, '2200000') AS s
				      FROM (SELECT chr(97 + CAST(x % 26 AS INTEGER)) AS c FROM range(2048) t(x)))`
			rows, err := h.Query(q)
			if err != nil || len(rows) != 1 || rows[0][0] != "2048" || rows[0][1] != "0" {
				t.Errorf("%s: %v, %v; want 2048 rows, 0 wrong", h.Label(), rows, err)
			}
			if err := h.Close(); err != nil {
				t.Error(err)
			}
		}
	})
	t.Run("sqlite", func(t *testing.T) {
		h, err := openShell(t, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"2147483648", "4294967306"} {
			rows, err := h.Query("SELECT length(urlnorm_test_repeat('a', '" + n + "'))")
			if err == nil || errors.Is(err, errCrash) || !strings.Contains(err.Error(), "urlnorm_test_repeat: result too big: "+n+" bytes") {
				t.Errorf("%s bytes: %v, %v; want the too-big error", n, rows, err)
			}
		}
	})
}
