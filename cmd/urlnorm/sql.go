package main

import (
	"bufio"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urlnorm/urlnorm/duckdb"
	"github.com/urlnorm/urlnorm/internal/cliio"
	"github.com/urlnorm/urlnorm/normalize"
	"github.com/urlnorm/urlnorm/sqlite"
	"github.com/urlnorm/urlnorm/udf"
)

func init() {
	register(&command{name: "sql", summary: "run SQL with the urlnorm functions (embedded DuckDB or SQLite)", run: runSQL})
}

var sqlHelp = help{
	synopsis: "sql [--engine duckdb|sqlite] [--db FILE] [--format table|csv|tsv|json] [--profile FILE] [--config FILE]... QUERY",
	about: `Runs QUERY on an embedded database with every urlnorm SQL function
registered: normalize_url, canonical_hash, url_link_type, canonicalize_url,
resolve_url, url_profile_version and their try_ twins. QUERY may hold
several statements separated by ';': the rows of the last one are printed.
With QUERY "-" (or none), the query is read from stdin.

DuckDB (the default) reads files directly: read_csv('urls.csv'),
read_parquet('urls.parquet'), read_json('urls.json'). Without --db the
database is in memory and gone when the command ends.

--profile and --config select a profile as in the other commands (a
profile file; configuration files applied on top of --profile, or of the
built-in their format extends) and make it usable by name in the query:
by its own name, or, when the configuration extends a built-in (whose name
never changes meaning), as edge-gateway-config, clara-config … (the
built-in's name, a hyphen, config). In a query,
urlnorm_load_profile(name, path_or_text) does the same.

Output formats (--format):
  table  aligned columns, NULL shown as NULL; the first 1,000 rows set the
         column widths, then rows are streamed (a later, wider value
         widens its own line only); control characters are escaped
  csv    RFC 4180 with a header row; NULL is an empty field
  tsv    header row; TAB, LF, CR and \ in a value written \t \n \r \\; NULL empty
  json   an array of objects, one per row, keys in column order`,
	examples: `urlnorm sql "SELECT normalize_url('HTTP://Example.COM:80/a/../b/?z=1&a=2#x')"
urlnorm sql "SELECT normalize_url(url) AS url, count(*) AS n
             FROM read_csv('testdata/urls/sample.csv') GROUP BY 1 ORDER BY n DESC, url LIMIT 10"
urlnorm sql --format csv "SELECT url, try_canonical_hash(url) AS hash FROM read_csv('urls.csv')" > hashed.csv
urlnorm sql --db crawl.duckdb "CREATE TABLE pages AS SELECT * FROM read_parquet('pages.parquet')"
urlnorm sql --engine sqlite --db links.db "SELECT canonicalize_url(href, 'clara') FROM links LIMIT 5"
urlnorm sql --config edge-gateway.yaml "SELECT canonical_hash(url, 'edge-gateway-config') FROM read_csv('urls.csv')"
echo "SELECT url_profile_version('default')" | urlnorm sql -`,
	exit: `Exit status: 0 success; 1 the query failed (rows printed before the
failure stay printed, without the table's row count); 2 usage error; 3 the
database file could not be opened or the output not written.`,
}

func runSQL(args []string, e *env) int {
	fs := newFlags("sql", sqlHelp)
	engine := fs.String("engine", "duckdb", "database `engine`: duckdb or sqlite")
	dbFile := fs.String("db", "", "database `file` to open, created if missing (default: in memory)")
	format := fs.String("format", "table", "output `format`: table, csv, tsv or json")
	var pf profileFlags
	pf.register(fs)
	pos, code, ok := parseFlags(fs, args, e)
	switch {
	case !ok:
		return code
	case *engine != "duckdb" && *engine != "sqlite":
		return usageError(e, "sql", "--engine must be duckdb or sqlite, not %q", *engine)
	case !slices.Contains(cliio.ResultFormats, *format):
		return usageError(e, "sql", "--format must be one of %s, not %q", strings.Join(cliio.ResultFormats, ", "), *format)
	case len(pos) > 1:
		return usageError(e, "sql", "want one QUERY argument, got %d (quote the query)", len(pos))
	}
	query := ""
	if len(pos) == 1 && pos[0] != "-" {
		query = pos[0]
	} else {
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			fmt.Fprintf(e.stderr, "urlnorm sql: reading the query from stdin: %v\n", err)
			return exitIO
		}
		query = string(b)
	}
	if strings.TrimSpace(query) == "" {
		return usageError(e, "sql", "no query: give one as an argument, or on stdin")
	}
	opts, err := sqlProfile(&pf, fs)
	if err != nil {
		return usageError(e, "sql", "%v", err)
	}
	db, err := openSQL(*engine, *dbFile, opts...)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm sql: opening %s database %q: %v\n", *engine, *dbFile, err)
		return exitIO
	}
	defer db.Close()
	rows, err := db.Query(query)
	if err != nil {
		fmt.Fprintf(e.stderr, "urlnorm sql: %s\n", sqlError(err))
		return exitData
	}
	defer rows.Close()
	w := bufio.NewWriterSize(e.stdout, 64<<10)
	n, werr, qerr := cliio.WriteResult(w, rows, *format)
	if werr == nil {
		werr = w.Flush()
	}
	switch {
	case qerr != nil && werr == nil && n > 0: // a row raised after others were printed
		fmt.Fprintf(e.stderr, "urlnorm sql: %s\nurlnorm sql: the query failed after %s rows: the output above is incomplete\n", sqlError(qerr), group(n))
		return exitData
	case qerr != nil: // a row raised (e.g. normalize_url on bad input)
		fmt.Fprintf(e.stderr, "urlnorm sql: %s\n", sqlError(qerr))
		return exitData
	case werr != nil:
		fmt.Fprintf(e.stderr, "urlnorm sql: writing the result: %v\n", werr)
		return exitIO
	}
	return exitOK
}

// sqlProfile loads the profile --profile and --config select and returns
// the option that makes it usable by name in the query (none for a
// built-in used as it is).
func sqlProfile(pf *profileFlags, fs *flag.FlagSet) ([]udf.Option, error) {
	n, err := pf.load(fs)
	if err != nil || normalize.Builtin(n.Name()) && n == normalize.MustLookup(n.Name()) {
		return nil, err
	}
	if normalize.Builtin(n.Name()) {
		p := n.Profile()
		p.Name += "-config"
		if n, err = normalize.New(p); err != nil {
			return nil, err
		}
	}
	return []udf.Option{udf.WithProfiles(n)}, nil
}

func openSQL(engine, file string, opts ...udf.Option) (*sql.DB, error) {
	if engine == "sqlite" {
		if file == "" {
			file = ":memory:"
		}
		db, err := sqlite.Open(file, opts...)
		if err == nil {
			db.SetMaxOpenConns(1) // one database even in memory; one statement at a time
		}
		return db, err
	}
	return duckdb.Open(file, opts...)
}

// sqlError drops duckdb-go's "database/sql/driver: API error: " from an
// error a urlnorm function raised, which says nothing to a SQL user. Only
// the duckdb adapter's fallback (a duckdb-go it does not know) puts it
// there; its C API path raises the function's message as it is.
func sqlError(err error) string {
	return strings.Replace(err.Error(), "database/sql/driver: API error: ", "", 1)
}
