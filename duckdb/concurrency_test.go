package duckdb

import (
	"bytes"
	"database/sql"
	"fmt"
	"sync"
	"testing"

	"github.com/urlnorm/urlnorm/internal/golden"
	"github.com/urlnorm/urlnorm/udf"
)

// loadMixed fills table urls(id, profile, url) with n rows: even ids are
// generated URLs (urlsSQL's shapes) under every profile in turn, odd ids
// cycle through every golden row of every profile (valid and invalid
// input, so the try_ path runs too).
func loadMixed(t testing.TB, db *sql.DB, n int) {
	t.Helper()
	profiles, err := golden.Profiles()
	if err != nil {
		t.Fatal(err)
	}
	exec(t, db, "CREATE TABLE g(gid INTEGER, profile VARCHAR, input VARCHAR)")
	gid := 0
	for _, p := range profiles {
		rows, err := golden.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if _, err := db.Exec("INSERT INTO g VALUES (?, ?, ?)", gid, p, r.Input); err == nil {
				gid++ // DuckDB refuses invalid UTF-8: such rows are left out
			}
		}
	}
	exec(t, db, "CREATE TABLE p(pid INTEGER, profile VARCHAR)")
	for i, p := range profiles {
		exec(t, db, fmt.Sprintf("INSERT INTO p VALUES (%d, '%s')", i, p))
	}
	exec(t, db, urlsSQL(n))
	exec(t, db, fmt.Sprintf(`CREATE TABLE mixed AS
SELECT u.i AS id,
  CASE WHEN u.i %% 2 = 0 THEN p.profile ELSE g.profile END AS profile,
  CASE WHEN u.i %% 2 = 0 THEN u.url ELSE g.input END AS url
FROM (SELECT row_number() OVER () - 1 AS i, url FROM urls) u
JOIN p ON p.pid = u.i %% %d
JOIN g ON g.gid = (u.i // 2) %% %d`, len(profiles), gid))
}

func exec(t testing.TB, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// TestThreads: DuckDB on 4 threads gives, row for row, what it gives on
// one thread, and both give what Go gives.
func TestThreads(t *testing.T) {
	n := 1_000_000
	if raceEnabled {
		n = 20_000
	}
	db, err := Open("?threads=4")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // SET threads and the tables on one connection
	loadMixed(t, db, n)
	// Every row through normalize_url and canonical_hash; every 10th also
	// through the costlier url_link_type and canonicalize_url.
	const compute = `SELECT id, try_normalize_url(url, profile) AS n, try_canonical_hash(url, profile) AS h,
  CASE WHEN id % 10 = 0 THEN try_url_link_type(url) END AS l,
  CASE WHEN id % 10 = 0 THEN to_json(try_canonicalize_url(url, profile)) END AS c FROM mixed`
	exec(t, db, "SET threads = 1")
	exec(t, db, "CREATE TABLE r1 AS "+compute)
	exec(t, db, "SET threads = 4")
	exec(t, db, "CREATE TABLE r4 AS "+compute)
	var threads int
	if err := db.QueryRow("SELECT current_setting('threads')").Scan(&threads); err != nil || threads != 4 {
		t.Fatalf("threads = %d, %v", threads, err)
	}
	var rows, diff, nulls int
	err = db.QueryRow(`SELECT count(*), count(*) FILTER (WHERE r1.n IS DISTINCT FROM r4.n OR r1.h IS DISTINCT FROM r4.h
  OR r1.l IS DISTINCT FROM r4.l OR r1.c IS DISTINCT FROM r4.c), count(*) FILTER (WHERE r4.n IS NULL)
FROM r1 FULL JOIN r4 USING (id)`).Scan(&rows, &diff, &nulls)
	if err != nil {
		t.Fatal(err)
	}
	if diff != 0 {
		showDiff(t, db)
	}
	if rows != n || diff != 0 {
		t.Fatalf("threads=1 vs threads=4: %d rows (want %d), %d differ", rows, n, diff)
	}
	if nulls == 0 || nulls == n {
		t.Fatalf("%d of %d rows NULL: the mix should hold valid and invalid input", nulls, n)
	}
	compareWithGo(t, db, n)
	t.Logf("%d rows, %d of them invalid input, identical on 1 and 4 threads and in Go", n, nulls)
}

func showDiff(t *testing.T, db *sql.DB) {
	rows, err := db.Query(`SELECT id, m.profile, m.url, r1.n, r4.n, r1.h, r4.h, r1.l, r4.l, r1.c, r4.c
FROM r1 FULL JOIN r4 USING (id) JOIN mixed m USING (id)
WHERE r1.n IS DISTINCT FROM r4.n OR r1.h IS DISTINCT FROM r4.h OR r1.l IS DISTINCT FROM r4.l OR r1.c IS DISTINCT FROM r4.c
LIMIT 5`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		v := make([]any, 11)
		ptrs := make([]any, len(v))
		for i := range v {
			ptrs[i] = &v[i]
		}
		rows.Scan(ptrs...)
		t.Errorf("id %v, %v(%q): threads=1 vs 4: %q / %q, %q / %q, %q / %q,\n%v\n%v", v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10])
	}
}

// compareWithGo checks the 4-thread results against the udf layer in Go.
func compareWithGo(t *testing.T, db *sql.DB, n int) {
	rows, err := db.Query("SELECT m.url, m.profile, r4.n, r4.h, r4.c FROM mixed m JOIN r4 USING (id)")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	norm, hash, canon := overload2("try_normalize_url"), overload2("try_canonical_hash"), overload2("try_canonicalize_url")
	var buf []byte
	seen, bad := 0, 0
	for rows.Next() {
		var url, profile string
		var gotN, gotH sql.NullString
		var gotC any
		if err := rows.Scan(&url, &profile, &gotN, &gotH, &gotC); err != nil {
			t.Fatal(err)
		}
		seen++
		if m, ok := gotC.(map[string]any); ok {
			want, _, err := canon.Text(nil, []string{url, profile}, nil)
			var got bytes.Buffer
			err2 := udf.RecordType.EncodeJSON(&got, m)
			if err != nil || err2 != nil || got.String() != string(want) {
				if bad++; bad <= 5 {
					t.Errorf("canonicalize_url(%q, %q): DuckDB %s, Go %s (%v, %v)", url, profile, got.String(), want, err, err2)
				}
			}
		}
		for _, c := range []struct {
			f   *udf.Func
			got sql.NullString
		}{{norm, gotN}, {hash, gotH}} {
			var null bool
			buf, null, err = c.f.Text(buf[:0], []string{url, profile}, nil)
			if err != nil || null == c.got.Valid || (!null && string(buf) != c.got.String) {
				if bad++; bad <= 5 {
					t.Errorf("%s(%q, %q): DuckDB %q (valid %v), Go %q null=%v err=%v", c.f.Name, url, profile, c.got.String, c.got.Valid, buf, null, err)
				}
			}
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if seen != n || bad > 0 {
		t.Fatalf("compared %d rows of %d with Go, %d differ", seen, n, bad)
	}
}

func overload2(name string) *udf.Func {
	if f := udf.Overload(name, 2); f != nil {
		return f
	}
	panic(name)
}

// TestConcurrentQueries runs queries from many goroutines on one database
// at once (DuckDB threads inside each, Go goroutines outside).
func TestConcurrentQueries(t *testing.T) {
	n := 100_000
	if raceEnabled {
		n = 5_000
	}
	db, err := Open("?threads=4")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	exec(t, db, urlsSQL(n))
	const q = "SELECT count(DISTINCT normalize_url(url)), count(DISTINCT canonical_hash(url, 'rfc3986')) FROM urls"
	var want [2]int
	if err := db.QueryRow(q).Scan(&want[0], &want[1]); err != nil {
		t.Fatal(err)
	}
	if want[0] == 0 || want[0] == n {
		t.Fatalf("count(DISTINCT normalize_url) = %d of %d rows: the data should have duplicates", want[0], n)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			var got [2]int
			if err := db.QueryRow(q).Scan(&got[0], &got[1]); err != nil {
				errs <- err
			} else if got != want {
				errs <- fmt.Errorf("got %v; want %v", got, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
