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

// typeInfo builds DuckDB's type for a udf type (canonicalize_url's STRUCT).
func typeInfo(t *udf.SQLType) (ddb.TypeInfo, error) {
	switch {
	case t.Elem != nil:
		elem, err := typeInfo(t.Elem)
		if err != nil {
			return nil, err
		}
		return ddb.NewListInfo(elem)
	case t.Members != nil:
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
