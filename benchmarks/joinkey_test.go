package benchmarks

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // the "duckdb" driver, for the extension
	urlnormduckdb "github.com/urlnorm/urlnorm/duckdb"
)

// BenchmarkJoinKey times GROUP BY and joins on canonical_key (BIGINT)
// against the same on canonical_hash (sha256 hex VARCHAR) in DuckDB, one
// thread (issue 18), through the embedded adapter and, when built (make
// extensions), the loadable extension in duckdb-go. Table a is the first
// corpus ×17 (web: 1,010,480 rows, the size of docs/sql.md's Cost
// figures), table b the corpus once. "computed" calls the functions in
// the query; "stored" reads keys computed beforehand, so it is the join
// itself. Reports ns/row of a (wall) and cpu-ns/row (getrusage: all
// threads, the GC's too). Every pair must return the same count
// (checked):
//
//	go test -run '^$' -bench JoinKey -benchtime 3x
func BenchmarkJoinKey(b *testing.B) {
	c := corpora(b)[0]
	ext, _ := filepath.Abs("../dist/urlnorm.duckdb_extension")
	for _, path := range []struct {
		name string
		open func() (*sql.DB, error)
	}{
		{"embedded", func() (*sql.DB, error) { return urlnormduckdb.Open("?threads=1") }},
		{"extension", func() (*sql.DB, error) {
			if _, err := os.Stat(ext); err != nil {
				return nil, errNoExtension
			}
			db, err := sql.Open("duckdb", "?threads=1&allow_unsigned_extensions=true")
			if err == nil {
				db.SetMaxOpenConns(1)
				_, err = db.Exec("LOAD '" + ext + "'")
			}
			return db, err
		}},
	} {
		b.Run(path.name, func(b *testing.B) {
			db, err := path.open()
			if errors.Is(err, errNoExtension) {
				b.Skip(ext + " not built (make extensions)")
			}
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			benchJoinKey(b, db, c.URLs)
		})
	}
}

var errNoExtension = errors.New("no extension")

func benchJoinKey(b *testing.B, db *sql.DB, urls []string) {
	db.SetMaxOpenConns(1) // one connection: one in-memory database
	const copies = 17
	if err := loadJoinTables(db, urls, copies); err != nil {
		b.Fatal(err)
	}
	rows := copies * len(urls)
	counts := map[string]int64{}
	for _, q := range []struct{ name, key, sql string }{
		{"computed/GROUP_BY/canonical_key", "group", "SELECT count(*) FROM (SELECT try_canonical_key(url) FROM a GROUP BY 1)"},
		{"computed/GROUP_BY/canonical_hash", "group", "SELECT count(*) FROM (SELECT try_canonical_hash(url) FROM a GROUP BY 1)"},
		{"computed/JOIN/canonical_key", "join", "SELECT count(*) FROM a JOIN b ON try_canonical_key(a.url) = try_canonical_key(b.url)"},
		{"computed/JOIN/canonical_hash", "join", "SELECT count(*) FROM a JOIN b ON try_canonical_hash(a.url) = try_canonical_hash(b.url)"},
		{"stored/GROUP_BY/key", "group", "SELECT count(*) FROM (SELECT k FROM ak GROUP BY 1)"},
		{"stored/GROUP_BY/hash", "group", "SELECT count(*) FROM (SELECT h FROM ak GROUP BY 1)"},
		{"stored/JOIN/key", "join", "SELECT count(*) FROM ak JOIN bk USING (k)"},
		{"stored/JOIN/hash", "join", "SELECT count(*) FROM ak JOIN bk USING (h)"},
	} {
		b.Run(q.name, func(b *testing.B) {
			var n int64
			c0 := cpuTime()
			for b.Loop() {
				if err := db.QueryRow(q.sql).Scan(&n); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
			b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N*rows), "cpu-ns/row")
			// The key and the hash group and match the same URLs (a key
			// collision in the corpus would show here).
			if want, ok := counts[q.key]; ok && n != want {
				b.Errorf("%s counts %d, the hash form %d", q.name, n, want)
			}
			counts[q.key] = n
		})
	}
}

// loadJoinTables creates a (urls ×copies), b (urls) and their stored keys
// ak, bk (k BIGINT, h VARCHAR).
func loadJoinTables(db *sql.DB, urls []string, copies int) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec("CREATE TABLE b(url VARCHAR)"); err != nil {
		return err
	}
	ins, err := tx.Prepare("INSERT INTO b VALUES (?)")
	if err != nil {
		return err
	}
	for _, u := range urls {
		if _, err := ins.Exec(u); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	for _, s := range []string{
		fmt.Sprintf("CREATE TABLE a AS SELECT url FROM b, range(%d)", copies),
		"CREATE TABLE ak AS SELECT try_canonical_key(url) AS k, try_canonical_hash(url) AS h FROM a",
		"CREATE TABLE bk AS SELECT try_canonical_key(url) AS k, try_canonical_hash(url) AS h FROM b",
	} {
		if _, err := db.Exec(s); err != nil {
			return err
		}
	}
	return nil
}

func cpuTime() time.Duration {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
