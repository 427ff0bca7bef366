package duckdb

import (
	"fmt"

	ddb "github.com/duckdb/duckdb-go/v2"

	"github.com/urlnorm/urlnorm/udf"
)

var baseTypes = map[string]ddb.Type{
	"VARCHAR": ddb.TYPE_VARCHAR,
	"BOOLEAN": ddb.TYPE_BOOLEAN,
	"BIGINT":  ddb.TYPE_BIGINT,
	"UBIGINT": ddb.TYPE_UBIGINT,
	"INTEGER": ddb.TYPE_INTEGER,
	"DOUBLE":  ddb.TYPE_DOUBLE,
}

// typeInfo builds DuckDB's type for a udf result type.
func typeInfo(t *udf.SQLType) (ddb.TypeInfo, error) {
	switch {
	case t.IsMap():
		k, err := typeInfo(t.Key)
		if err != nil {
			return nil, err
		}
		v, err := typeInfo(t.Elem)
		if err != nil {
			return nil, err
		}
		return ddb.NewMapInfo(k, v)
	case t.IsList():
		elem, err := typeInfo(t.Elem)
		if err != nil {
			return nil, err
		}
		return ddb.NewListInfo(elem)
	case t.IsStruct():
		entries := make([]ddb.StructEntry, len(t.Members))
		for i, m := range t.Members {
			mt, err := typeInfo(m.Type)
			if err != nil {
				return nil, err
			}
			if entries[i], err = ddb.NewStructEntry(mt, m.Name); err != nil {
				return nil, err
			}
		}
		return ddb.NewStructInfo(entries[0], entries[1:]...)
	}
	base, ok := baseTypes[t.Base]
	if !ok {
		return nil, fmt.Errorf("urlnorm: no DuckDB type for %q", t.Base)
	}
	return ddb.NewTypeInfo(base)
}

// value converts a udf value (package sqltype's form) of type t to what
// duckdb-go sets: a STRUCT's positional values become map[string]any, a
// MAP an OrderedMap, an INTEGER an int32. It may reuse v's lists.
func value(t *udf.SQLType, v any) (any, error) { return (*rowValue)(nil).value(t, v) }

// rowValue converts the values of one chunk's rows, keeping the top-level
// STRUCT's map from row to row: the driver copies the map's values into
// the result vector in SetResult and keeps nothing, and a map per row was
// 13 % of parse_url's time in the embedded adapter (pprof, makemap).
// Nested STRUCTs get maps of their own. A nil *rowValue reuses nothing.
type rowValue struct{ top map[string]any }

func (r *rowValue) value(t *udf.SQLType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch {
	case t.IsStruct():
		s, ok := v.([]any)
		if !ok || len(s) != len(t.Members) {
			return nil, fmt.Errorf("urlnorm: %T is not a value of %s", v, t.SQL())
		}
		var m map[string]any
		if r != nil {
			if r.top == nil {
				r.top = make(map[string]any, len(s))
			}
			m = r.top
			clear(m)
		} else {
			m = make(map[string]any, len(s))
		}
		for i, mem := range t.Members {
			mv, err := value(mem.Type, s[i])
			if err != nil {
				return nil, err
			}
			m[mem.Name] = mv
		}
		return m, nil
	case t.IsMap():
		es, ok := v.([]udf.Entry)
		if !ok {
			return nil, fmt.Errorf("urlnorm: %T is not a value of %s", v, t.SQL())
		}
		var m ddb.OrderedMap
		for _, e := range es {
			k, err := value(t.Key, e.Key)
			if err != nil {
				return nil, err
			}
			ev, err := value(t.Elem, e.Value)
			if err != nil {
				return nil, err
			}
			m.Set(k, ev)
		}
		return m, nil
	case t.IsList():
		l, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("urlnorm: %T is not a value of %s", v, t.SQL())
		}
		// In place: the list is this row's own, and v keeps its box (one
		// allocation less per list and row).
		for i, e := range l {
			var err error
			if l[i], err = value(t.Elem, e); err != nil {
				return nil, err
			}
		}
		return v, nil
	case t.Base == "INTEGER":
		if n, ok := v.(int64); ok {
			if n != int64(int32(n)) {
				return nil, fmt.Errorf("urlnorm: %d overflows INTEGER", n)
			}
			return int32(n), nil
		}
	}
	return v, nil
}
