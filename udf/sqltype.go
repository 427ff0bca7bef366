package udf

import (
	"bytes"
	"encoding/json"
	"fmt"
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
			if !ok || name == "" {
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

// appendJSON encodes v (a Record value) as JSON, STRUCT members in the
// order t declares them. HTML characters stay as they are: URLs are full
// of '&'.
func appendJSON(b *bytes.Buffer, t *SQLType, v any) error {
	switch {
	case v == nil:
		b.WriteString("null")
	case t.Members != nil:
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("want map[string]any for a STRUCT, got %T", v)
		}
		b.WriteByte('{')
		for i, mem := range t.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			appendScalar(b, mem.Name)
			b.WriteByte(':')
			if err := appendJSON(b, mem.Type, m[mem.Name]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case t.Elem != nil:
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want []any for a LIST, got %T", v)
		}
		b.WriteByte('[')
		for i, e := range l {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := appendJSON(b, t.Elem, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		return appendScalar(b, v)
	}
	return nil
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
