package cliio

// The values of a SQL result (urlnorm sql), as database/sql scans them
// from DuckDB or SQLite, turned into the text and JSON the result formats
// write.

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/urlnorm/urlnorm/udf"
)

// colType is what a column's database type tells the output: its name
// (DuckDB's "DATE", "UUID", "STRUCT(…)"…; SQLite's declared type) and, for
// a STRUCT or LIST, its parsed shape, which orders STRUCT members in JSON.
type colType struct {
	name  string
	shape *udf.SQLType
}

func columnTypes(rows *sql.Rows, n int) []colType {
	types := make([]colType, n)
	cts, err := rows.ColumnTypes()
	if err != nil || len(cts) != n {
		return types
	}
	for i, ct := range cts {
		name := ct.DatabaseTypeName()
		types[i].name = strings.ToUpper(name) // SQLite: the declared type, any case
		if shape, err := udf.ParseSQLType(name); err == nil {
			types[i].shape = shape
		}
	}
	return types
}

// cell is one output value: null, text, or JSON for a number, boolean,
// STRUCT, LIST or MAP (raw JSON is also its text form).
type cell struct {
	null bool
	text string
	json string // JSON of the value; "" means: a JSON string of text
}

func newCell(v any, t colType) cell {
	switch v := v.(type) {
	case nil:
		return cell{null: true}
	case string:
		return cell{text: v}
	case []byte:
		if t.name == "UUID" && len(v) == 16 {
			return cell{text: formatUUID(v)}
		}
		return cell{text: string(v)}
	case bool:
		s := strconv.FormatBool(v)
		return cell{text: s, json: s}
	case int64, int32, int16, int8, int, uint64, uint32, uint16, uint8, uint, *big.Int:
		s := fmt.Sprint(v)
		return cell{text: s, json: s}
	case float64:
		return floatCell(v)
	case float32:
		return floatCell(float64(v))
	case time.Time:
		return cell{text: formatTime(v, t.name)}
	case map[string]any, []any:
		var b bytes.Buffer
		if err := t.shape.EncodeJSON(&b, jsonable(v)); err != nil {
			b.Reset()
			(*udf.SQLType)(nil).EncodeJSON(&b, jsonable(v))
		}
		return cell{text: b.String(), json: b.String()}
	case decimal:
		return cell{text: v.String(), json: v.String()}
	case fmt.Stringer:
		return cell{text: v.String()}
	}
	return cell{text: fmt.Sprint(v)}
}

// decimal is DuckDB's DECIMAL: exact digits from String.
type decimal interface {
	Float64() float64
	String() string
}

func floatCell(f float64) cell {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return cell{text: s} // not a JSON number: a string
	}
	return cell{text: s, json: s}
}

// jsonable converts the leaves of a STRUCT or LIST that encoding/json
// would not write as the value (DECIMAL, time, blobs).
func jsonable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = jsonable(e)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = jsonable(e)
		}
		return l
	case nil, string, bool, float64, float32, int64, int32, int16, int8, int, uint64, uint32, uint16, uint8, uint:
		return v
	case *big.Int:
		return json.Number(v.String())
	case []byte:
		return string(v)
	case time.Time:
		return v.Format(time.RFC3339Nano)
	case decimal:
		return json.Number(v.String())
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

func formatUUID(b []byte) string {
	h := fmt.Sprintf("%x", b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func formatTime(t time.Time, typ string) string {
	switch {
	case typ == "DATE":
		return t.Format("2006-01-02")
	case strings.HasPrefix(typ, "TIME") && !strings.HasPrefix(typ, "TIMESTAMP"):
		return t.Format("15:04:05.999999")
	case strings.HasSuffix(typ, "TIME ZONE") || typ == "TIMESTAMPTZ":
		return t.Format("2006-01-02 15:04:05.999999-07:00")
	}
	return t.Format("2006-01-02 15:04:05.999999")
}
