package duckdb

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"

	"github.com/urlnorm/urlnorm/normalize"
)

// urlsSQL generates table urls(url) with n rows: four spellings of each
// of n/4 pages (scheme and host case, default port, trailing dot, dot
// segments, trailing slash, query order, fragment), ~75 bytes on average.
func urlsSQL(n int) string {
	return fmt.Sprintf(`CREATE OR REPLACE TABLE urls AS
SELECT (CASE i %% 4 WHEN 0 THEN 'HTTP://Host' WHEN 1 THEN 'http://host' WHEN 2 THEN 'Http://HOST' ELSE 'http://hOST' END)
    || ((i // 4) %% 1000) || '.Example.COM'
    || (CASE i %% 4 WHEN 2 THEN ':80' WHEN 3 THEN '.' ELSE '' END)
    || '/a/./b/../page' || (i // 4) || (CASE WHEN i %% 2 = 0 THEN '/' ELSE '' END)
    || (CASE WHEN i %% 3 = 0 THEN '?z=' || ((i // 4) %% 7) || '&a=2' ELSE '?a=2&z=' || ((i // 4) %% 7) END)
    || '#frag' || i AS url
FROM range(%d) t(i)`, n)
}

func benchQuery(b *testing.B, dsn, query string, n int) {
	db, err := Open(dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(urlsSQL(n)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	for b.Loop() {
		var c int64
		if err := db.QueryRow(query).Scan(&c); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(n), "cpu-ns/row")
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(b.N)/float64(n), "allocs/row")
}

// BenchmarkSQL measures the functions over 1M rows (see Executor's
// comment for figures). Run: go test -run - -bench SQL -benchtime 3x ./duckdb
func BenchmarkSQL(b *testing.B) {
	const n = 1_000_000
	for _, threads := range []int{1, 2} {
		for _, q := range []struct{ name, sql string }{
			{"none", "SELECT count(DISTINCT url) FROM urls"},
			{"lower", "SELECT count(DISTINCT lower(url)) FROM urls"},
			{"normalize_url", "SELECT count(DISTINCT normalize_url(url)) FROM urls"},
			{"normalize_url_profile", "SELECT count(DISTINCT normalize_url(url, 'default')) FROM urls"},
			{"canonical_hash", "SELECT count(DISTINCT canonical_hash(url)) FROM urls"},
			{"canonicalize_url", "SELECT count(DISTINCT (canonicalize_url(url)).url) FROM urls"},
			{"url_host", "SELECT count(DISTINCT url_host(url)) FROM urls"},
			{"url_registrable_domain", "SELECT count(DISTINCT url_registrable_domain(url)) FROM urls"},
			{"parse_url", "SELECT count(DISTINCT (parse_url(url)).path) FROM urls"},
		} {
			b.Run(fmt.Sprintf("threads=%d/%s", threads, q.name), func(b *testing.B) {
				benchQuery(b, fmt.Sprintf("?threads=%d", threads), q.sql, n)
			})
		}
	}
}

// cpuTime is the process's user+system CPU time in ns: steadier than wall
// time on a shared machine.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkGo is the floor: the same rows normalized by a Go loop.
func BenchmarkGo(b *testing.B) {
	const n = 1_000_000
	db, err := Open("")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(urlsSQL(n)); err != nil {
		b.Fatal(err)
	}
	rows, err := db.Query("SELECT url FROM urls")
	if err != nil {
		b.Fatal(err)
	}
	var urls []string
	for rows.Next() {
		var u string
		rows.Scan(&u)
		urls = append(urls, u)
	}
	norm, _ := normalize.Lookup("default")
	b.ResetTimer()
	cpu0 := cpuTime()
	var buf []byte
	for b.Loop() {
		for _, u := range urls {
			buf, err = norm.AppendNormalized(buf[:0], u)
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/float64(n), "cpu-ns/row")
}
