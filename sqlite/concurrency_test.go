package sqlite

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/urlnorm/urlnorm/udf"
)

// Goroutines query one database on their own connections at once: each
// connection has its own functions and result buffer (run with -race).
func TestConcurrentConnections(t *testing.T) {
	db, err := Open("file:" + filepath.Join(t.TempDir(), "urls.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(8)
	const n = 2000
	if _, err := db.Exec(`CREATE TABLE t(u TEXT)`); err != nil {
		t.Fatal(err)
	}
	tx, _ := db.Begin()
	var urls []string
	for i := range n {
		u := fmt.Sprintf("HTTP://Host%d.Example.COM:80/a/../p%d/?z=%d&a=1#f%d", i%50, i, i%7, i)
		if i%10 == 0 {
			u = fmt.Sprintf("bad url %d", i) // no scheme: NULL from try_
		}
		urls = append(urls, u)
		if _, err := tx.Exec(`INSERT INTO t VALUES (?)`, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	norm := udf.Overload("try_normalize_url", 1)
	want := map[string]string{}
	for _, u := range urls {
		out, null, _ := norm.Text(nil, []string{u}, nil)
		if !null {
			want[u] = string(out)
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			rows, err := db.Query(`SELECT u, try_normalize_url(u), try_canonical_hash(u, 'rfc3986') FROM t`)
			if err != nil {
				t.Error(err)
				return
			}
			defer rows.Close()
			seen := 0
			for rows.Next() {
				var u string
				var got, hash *string
				if err := rows.Scan(&u, &got, &hash); err != nil {
					t.Error(err)
					return
				}
				seen++
				w, ok := want[u]
				if ok != (got != nil) || (ok && *got != w) || (hash == nil) != (got == nil) {
					t.Errorf("goroutine %d: try_normalize_url(%q) = %v; want %q (valid %v)", g, u, got, w, ok)
					return
				}
			}
			if seen != n {
				t.Errorf("goroutine %d: %d rows; want %d", g, seen, n)
			}
		})
	}
	wg.Wait()
}
