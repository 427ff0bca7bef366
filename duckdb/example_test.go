package duckdb_test

import (
	"errors"
	"fmt"

	"github.com/urlnorm/urlnorm/duckdb"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/udf"
)

// Open an in-memory DuckDB with the functions registered and group URLs by
// their canonical form.
func ExampleOpen() {
	db, err := duckdb.Open("") // or a file: duckdb.Open("crawl.duckdb")
	if err != nil {
		panic(err)
	}
	defer db.Close()
	rows, err := db.Query(`
		SELECT normalize_url(url) AS url, count(*) AS n
		FROM (VALUES ('HTTP://Example.COM:80/Path?z=1&a=2#frag'),
		             ('http://example.com/Path?a=2&z=1'),
		             ('https://TEST.org/page')) t(url)
		GROUP BY 1 ORDER BY n DESC`)
	if err != nil {
		panic(err)
	}
	defer rows.Close()
	for rows.Next() {
		var url string
		var n int
		rows.Scan(&url, &n)
		fmt.Println(n, url)
	}
	// Output:
	// 2 http://example.com/Path?a=2&z=1
	// 1 https://test.org/page
}

// canonicalize_url is a STRUCT in DuckDB; fields are read with a dot.
func ExampleOpen_canonicalize() {
	db, _ := duckdb.Open("")
	defer db.Close()
	var url, fragment, hash string
	db.QueryRow(`SELECT c.url, c.fragment, c.hash
		FROM (SELECT canonicalize_url('https://example.com/docs/#install') AS c)`).Scan(&url, &fragment, &hash)
	fmt.Println(url, fragment, len(hash))
	// Output: https://example.com/docs install 64
}

// A function's error reaches Go as DuckDB's error; FuncError gives back
// urlnorm's, with its message and kind.
func ExampleFuncError() {
	db, _ := duckdb.Open("")
	defer db.Close()
	var s string
	err := db.QueryRow(`SELECT normalize_url('www.example.com/page')`).Scan(&s)
	fmt.Println(err)
	err = duckdb.FuncError(err)
	fmt.Println(err)
	var fe *udf.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Func, fe.Kind, errors.Is(err, normalize.ErrInvalid))
	}
	// Output:
	// Invalid Input Error: normalize_url('www.example.com/page'): missing_scheme (use try_normalize_url to get NULL instead)
	// normalize_url('www.example.com/page'): missing_scheme (use try_normalize_url to get NULL instead)
	// normalize_url missing_scheme true
}
