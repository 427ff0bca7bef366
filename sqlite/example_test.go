package sqlite_test

import (
	"fmt"

	"github.com/urlnorm/urlnorm/sqlite"
)

// Open SQLite with the functions on every connection; canonicalize_url is
// JSON text, read with SQLite's JSON functions.
func ExampleOpen() {
	db, err := sqlite.Open("file:links.db?mode=memory") // or sql.Open(sqlite.DriverName, dsn)
	if err != nil {
		panic(err)
	}
	defer db.Close()
	var url, link, fragment string
	err = db.QueryRow(`SELECT normalize_url(u, 'clara'), url_link_type(u), canonicalize_url(u) ->> '$.fragment'
		FROM (SELECT 'http://sepe.es/HomeSepe/Personas/?utm_source=x#empleo' AS u)`).Scan(&url, &link, &fragment)
	fmt.Println(url, link, fragment, err)
	// Output: https://www.sepe.es/HomeSepe/Personas section empleo <nil>
}
