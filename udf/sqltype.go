package udf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// SQLType is a parsed type name of Fields: a base type such as VARCHAR,
// T[] (a LIST) or STRUCT(name T, …), nested. Adapters build their
// engine's types from it, and JSON orders STRUCT members by it.
type SQLType struct {
	Base    string    // "VARCHAR", "BOOLEAN" …; "" for a LIST or STRUCT
	Elem    *SQLType  // a LIST's element type
	Members []*Member // a STRUCT's members, in order
}

// Member is one member of a STRUCT.
type Member struct {
	Name string
	Type *SQLType
}

// ParseSQLType parses a DuckDB type name as Fields writes them.
func ParseSQLType(s string) (*SQLType, error) {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(s, "[]"):
		elem, err := ParseSQLType(s[:len(s)-2])
		if err != nil {
			return nil, err
		}
		return &SQLType{Elem: elem}, nil
	case strings.HasPrefix(s, "STRUCT(") && strings.HasSuffix(s, ")"):
		t := &SQLType{}
		for _, m := range splitTop(s[len("STRUCT(") : len(s)-1]) {
			name, typ, ok := strings.Cut(strings.TrimSpace(m), " ")
			// DuckDB's typeof() quotes names that are keywords ("key").
			if len(name) > 2 && name[0] == '"' && name[len(name)-1] == '"' {
				name = name[1 : len(name)-1]
			}
			if !ok || name == "" || strings.ContainsRune(name, '"') {
				return nil, fmt.Errorf("STRUCT member %q: want \"name TYPE\"", m)
			}
			mt, err := ParseSQLType(typ)
			if err != nil {
				return nil, err
			}
			t.Members = append(t.Members, &Member{name, mt})
		}
		return t, nil
	case s != "" && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "":
		return &SQLType{Base: s}, nil
	}
	return nil, fmt.Errorf("unsupported type name %q", s)
}

// splitTop splits s at the commas outside parentheses.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// RecordType is canonicalize_url's record: a STRUCT of Fields.
var RecordType = recordType()

func recordType() *SQLType {
	var b strings.Builder
	b.WriteString("STRUCT(")
	for i, f := range Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(f.Name + " " + f.Type)
	}
	b.WriteString(")")
	t, err := ParseSQLType(b.String())
	if err != nil {
		panic("udf.Fields: " + err.Error()) // caught by the tests
	}
	return t
}

// EncodeJSON appends v to b as JSON: nil, a scalar, map[string]any for a
// STRUCT (members in t's order) or []any for a LIST. With a nil t (type
// unknown) maps are written with sorted keys. HTML characters stay as they
// are: URLs are full of '&'.
func (t *SQLType) EncodeJSON(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case map[string]any:
		var names []string
		if t != nil && t.Members != nil {
			for _, m := range t.Members {
				names = append(names, m.Name)
			}
		} else {
			names = slices.Sorted(maps.Keys(v))
		}
		b.WriteByte('{')
		for i, name := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			appendScalar(b, name)
			b.WriteByte(':')
			if err := t.member(i).EncodeJSON(b, v[name]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := t.elem().EncodeJSON(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		if t != nil && (t.Members != nil || t.Elem != nil) {
			return fmt.Errorf("want a map or a slice for %s, got %T", t, v)
		}
		return appendScalar(b, v)
	}
	return nil
}

func (t *SQLType) member(i int) *SQLType {
	if t == nil || i >= len(t.Members) {
		return nil
	}
	return t.Members[i].Type
}

func (t *SQLType) elem() *SQLType {
	if t == nil {
		return nil
	}
	return t.Elem
}

func appendScalar(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1) // Encode ends with a newline
	return nil
}

// String renders t compactly (for tests and messages): VARCHAR, [T],
// {name:T …}.
func (t *SQLType) String() string {
	switch {
	case t.Elem != nil:
		return "[" + t.Elem.String() + "]"
	case t.Members != nil:
		parts := make([]string, len(t.Members))
		for i, m := range t.Members {
			parts[i] = m.Name + ":" + m.Type.String()
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	return t.Base
}
