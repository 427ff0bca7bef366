package slt

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Render renders one value the way every engine must, so one expected
// result serves them all: NULL as "NULL", the empty string as "(empty)",
// booleans as "true"/"false", integers in decimal, floats in the shortest
// form that round-trips, text and blobs as is, anything structured (a
// DuckDB STRUCT or LIST) as JSON with sorted keys.
func Render(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case string:
		return text(v)
	case []byte:
		if v == nil {
			return "NULL"
		}
		return text(string(v))
	case bool:
		return strconv.FormatBool(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case int32, int16, int8, int, uint64, uint32, uint16, uint8, uint:
		return fmt.Sprint(v)
	case float64:
		return formatFloat(v)
	case float32:
		return formatFloat(float64(v))
	case time.Time:
		return v.Format(time.RFC3339Nano)
	case interface{ Float64() float64 }: // DuckDB DECIMAL
		return formatFloat(v.Float64())
	case fmt.Stringer: // DuckDB HUGEINT (*big.Int), UUID …
		return text(v.String())
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // URLs: '&' stays '&'
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func text(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

func formatFloat(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// Coerce re-renders a value rendered by Render according to the column
// type letter of a query record, which hides the engines' type systems:
// SQLite has no booleans (a comparison gives 1) and may compute a float
// where DuckDB computes an integer.
//
//	I  integer: true → 1, false → 0, 3.0 → 3
//	R  real:    the shortest round-tripping decimal form
//	B  boolean: 1 → true, 0 → false
//	T  (and any other letter) text, unchanged
func Coerce(typ byte, s string) string {
	if s == "NULL" {
		return s
	}
	switch typ {
	case 'I':
		switch s {
		case "true":
			return "1"
		case "false":
			return "0"
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return strconv.FormatInt(int64(f), 10)
		}
	case 'R':
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return formatFloat(f)
		}
	case 'B':
		switch s {
		case "1", "true":
			return "true"
		case "0", "false":
			return "false"
		}
	}
	return s
}

// DB adapts a database/sql handle to Engine. Use a handle limited to one
// connection (db.SetMaxOpenConns(1)) when a file relies on connection
// state such as temporary tables.
type DB struct {
	Engine string // the name skipif/onlyif match
	DB     *sql.DB
}

// Name returns d.Engine.
func (d DB) Name() string { return d.Engine }

// Exec runs one statement and reads every row it produces: drivers may
// stop a SELECT run through Exec after its first row (mattn does), which
// would hide an error raised by a later row.
func (d DB) Exec(q string) error {
	rows, err := d.DB.Query(q)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// Query runs a query and renders every value with Render.
func (d DB) Query(q string) ([][]string, error) {
	rows, err := d.DB.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var out [][]string
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = Render(v)
		}
		out = append(out, row)
	}
	return out, rows.Err()
}
