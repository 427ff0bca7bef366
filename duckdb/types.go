package duckdb

import (
	"fmt"
	"strings"

	ddb "github.com/duckdb/duckdb-go/v2"
)

// parseType builds a TypeInfo from a DuckDB type name as udf.Fields writes
// them: a base type, STRUCT(name TYPE, …), or TYPE[] (a LIST).
func parseType(s string) (ddb.TypeInfo, error) {
	t, rest, err := parseTypePrefix(strings.TrimSpace(s))
	if err == nil && rest != "" {
		err = fmt.Errorf("unexpected %q", rest)
	}
	if err != nil {
		return nil, fmt.Errorf("duckdb type %q: %v", s, err)
	}
	return t, nil
}

var baseTypes = map[string]ddb.Type{
	"VARCHAR": ddb.TYPE_VARCHAR,
	"BOOLEAN": ddb.TYPE_BOOLEAN,
	"BIGINT":  ddb.TYPE_BIGINT,
	"UBIGINT": ddb.TYPE_UBIGINT,
	"INTEGER": ddb.TYPE_INTEGER,
	"DOUBLE":  ddb.TYPE_DOUBLE,
}

// parseTypePrefix parses one type at the start of s and returns the rest.
func parseTypePrefix(s string) (ddb.TypeInfo, string, error) {
	var t ddb.TypeInfo
	var err error
	if rest, ok := strings.CutPrefix(s, "STRUCT("); ok {
		t, s, err = parseStruct(rest)
	} else {
		end := strings.IndexAny(s, "[,) ")
		if end < 0 {
			end = len(s)
		}
		base, ok := baseTypes[s[:end]]
		if !ok {
			return nil, "", fmt.Errorf("unknown type %q", s[:end])
		}
		t, err = ddb.NewTypeInfo(base)
		s = s[end:]
	}
	for err == nil && strings.HasPrefix(s, "[]") {
		t, err = ddb.NewListInfo(t)
		s = s[2:]
	}
	return t, s, err
}

// parseStruct parses "name TYPE, name TYPE)" and returns the rest.
func parseStruct(s string) (ddb.TypeInfo, string, error) {
	var entries []ddb.StructEntry
	for {
		name, rest, ok := strings.Cut(strings.TrimLeft(s, " "), " ")
		if !ok || name == "" {
			return nil, "", fmt.Errorf("want a field name and a type in %q", s)
		}
		t, rest, err := parseTypePrefix(rest)
		if err != nil {
			return nil, "", err
		}
		e, err := ddb.NewStructEntry(t, name)
		if err != nil {
			return nil, "", err
		}
		entries = append(entries, e)
		switch {
		case strings.HasPrefix(rest, ","):
			s = rest[1:]
		case strings.HasPrefix(rest, ")"):
			t, err := ddb.NewStructInfo(entries[0], entries[1:]...)
			return t, rest[1:], err
		default:
			return nil, "", fmt.Errorf("want ',' or ')' at %q", rest)
		}
	}
}

// recordType is canonicalize_url's STRUCT, built from udf.Fields.
func recordType(fields []field) (ddb.TypeInfo, error) {
	var b strings.Builder
	b.WriteString("STRUCT(")
	for i, f := range fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name + " " + f.Type)
	}
	b.WriteString(")")
	return parseType(b.String())
}
