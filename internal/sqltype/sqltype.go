// Package sqltype describes the values urlnorm's SQL functions return,
// independently of any engine: a type, parsed from DuckDB's spelling
// (VARCHAR, BOOLEAN, INTEGER, T[], STRUCT(name T, …), MAP(K, V)); the Go
// form its values take between udf and the engine adapters; and their
// JSON encoding, which is how SQLite (no composite types) returns them and
// how normalize.Result marshals itself.
//
// Value forms (nil is NULL at every level):
//
//	VARCHAR           string (or []byte)
//	BOOLEAN           bool
//	INTEGER, BIGINT   int64 (int and int32 are accepted)
//	DOUBLE            float64
//	T[]               []any
//	STRUCT(…)         []any, one value per member in declared order
//	                  (map[string]any is accepted too: a STRUCT scanned
//	                  back from DuckDB)
//	MAP(K, V)         []Entry, in order
//
// Adapters convert these to their engine's values: package duckdb to
// duckdb-go's (map[string]any, OrderedMap, int32 …), the DuckDB extension
// to vectors, SQLite hosts to text (JSON for composites) and integers.
// A composite can also be written piece by piece to a Builder, which
// each adapter implements for its own form (JSON text, the boxed values
// above, the extension's column vectors), so that a row function does
// not box every member of its LIST or STRUCT.
package sqltype

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Type is a parsed SQL type.
type Type struct {
	Base    string    // "VARCHAR", "BOOLEAN", "INTEGER" …; "" for a composite
	Elem    *Type     // a LIST's element type, a MAP's value type
	Key     *Type     // a MAP's key type (non-nil only for a MAP)
	Members []*Member // a STRUCT's members, in order
}

// Member is one member of a STRUCT.
type Member struct {
	Name string
	Type *Type
}

// Entry is one key/value pair of a MAP value.
type Entry struct {
	Key, Value any
}

// Kinds of Type.
func (t *Type) IsList() bool   { return t.Elem != nil && t.Key == nil }
func (t *Type) IsMap() bool    { return t.Key != nil }
func (t *Type) IsStruct() bool { return t.Members != nil }

// IsComposite reports whether t is a LIST, STRUCT or MAP.
func (t *Type) IsComposite() bool { return t.Base == "" }

// Parse parses a type in DuckDB's spelling, as typeof() prints it.
func Parse(s string) (*Type, error) {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(s, "[]"):
		elem, err := Parse(s[:len(s)-2])
		if err != nil {
			return nil, err
		}
		return &Type{Elem: elem}, nil
	case strings.HasPrefix(s, "STRUCT(") && strings.HasSuffix(s, ")"):
		t := &Type{Members: []*Member{}}
		for _, m := range splitTop(s[len("STRUCT(") : len(s)-1]) {
			name, typ, ok := strings.Cut(strings.TrimSpace(m), " ")
			// DuckDB's typeof() quotes names that are keywords ("key").
			if len(name) > 2 && name[0] == '"' && name[len(name)-1] == '"' {
				name = name[1 : len(name)-1]
			}
			if !ok || name == "" || strings.ContainsRune(name, '"') {
				return nil, fmt.Errorf("STRUCT member %q: want \"name TYPE\"", m)
			}
			mt, err := Parse(typ)
			if err != nil {
				return nil, err
			}
			t.Members = append(t.Members, &Member{name, mt})
		}
		return t, nil
	case strings.HasPrefix(s, "MAP(") && strings.HasSuffix(s, ")"):
		kv := splitTop(s[len("MAP(") : len(s)-1])
		if len(kv) != 2 {
			return nil, fmt.Errorf("%q: want MAP(KEY, VALUE)", s)
		}
		k, err := Parse(kv[0])
		if err != nil {
			return nil, err
		}
		v, err := Parse(kv[1])
		if err != nil {
			return nil, err
		}
		return &Type{Key: k, Elem: v}, nil
	case s != "" && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == "":
		// Any base type parses (the CLI reads DuckDB's DATE, UUID …);
		// values have a form only for those of the package comment.
		return &Type{Base: s}, nil
	}
	return nil, fmt.Errorf("unsupported type name %q", s)
}

// MustParse is Parse for type names written in the code; it panics on an
// error, which the package tests catch.
func MustParse(s string) *Type {
	t, err := Parse(s)
	if err != nil {
		panic("sqltype: " + err.Error())
	}
	return t
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

// SQL renders t in DuckDB's spelling (Parse's input; member names
// unquoted).
func (t *Type) SQL() string {
	switch {
	case t.IsMap():
		return "MAP(" + t.Key.SQL() + ", " + t.Elem.SQL() + ")"
	case t.IsList():
		return t.Elem.SQL() + "[]"
	case t.IsStruct():
		parts := make([]string, len(t.Members))
		for i, m := range t.Members {
			parts[i] = m.Name + " " + m.Type.SQL()
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")"
	}
	return t.Base
}

// String is SQL.
func (t *Type) String() string { return t.SQL() }

// Check reports whether v has t's value form, at every level.
func (t *Type) Check(v any) error {
	if v == nil {
		return nil
	}
	switch {
	case t.IsStruct():
		switch s := v.(type) {
		case []any:
			if len(s) != len(t.Members) {
				return fmt.Errorf("STRUCT of %d members given %d values", len(t.Members), len(s))
			}
			for i, m := range t.Members {
				if err := m.Type.Check(s[i]); err != nil {
					return fmt.Errorf("%s: %w", m.Name, err)
				}
			}
			return nil
		case map[string]any:
			for _, m := range t.Members {
				if err := m.Type.Check(s[m.Name]); err != nil {
					return fmt.Errorf("%s: %w", m.Name, err)
				}
			}
			return nil
		}
	case t.IsMap():
		if es, ok := v.([]Entry); ok {
			for _, e := range es {
				if e.Key == nil {
					return fmt.Errorf("a MAP key is NULL")
				}
				if err := t.Key.Check(e.Key); err != nil {
					return err
				}
				if err := t.Elem.Check(e.Value); err != nil {
					return err
				}
			}
			return nil
		}
	case t.IsList():
		if l, ok := v.([]any); ok {
			for _, e := range l {
				if err := t.Elem.Check(e); err != nil {
					return err
				}
			}
			return nil
		}
	default:
		if _, ok := scalarOf(t.Base, v); ok {
			return nil
		}
	}
	return fmt.Errorf("%T is not a value of %s", v, t.SQL())
}

// scalarOf reports whether v is a value of the base type and returns it
// in its canonical Go type.
func scalarOf(base string, v any) (any, bool) {
	switch base {
	case "VARCHAR":
		switch v := v.(type) {
		case string:
			return v, true
		case []byte:
			return string(v), true
		}
	case "BOOLEAN":
		b, ok := v.(bool)
		return b, ok
	case "INTEGER", "BIGINT":
		switch v := v.(type) {
		case int64:
			return v, true
		case int:
			return int64(v), true
		case int32:
			return int64(v), true
		}
	case "DOUBLE":
		f, ok := v.(float64)
		return f, ok
	}
	return nil, false
}

// Int returns an INTEGER or BIGINT value, or a BOOLEAN one as 0 or 1 (as
// SQLite stores booleans), and whether v was one.
func Int(v any) (int64, bool) {
	if b, ok := v.(bool); ok {
		if b {
			return 1, true
		}
		return 0, true
	}
	i, ok := scalarOf("BIGINT", v)
	if !ok {
		return 0, false
	}
	return i.(int64), true
}

// EncodeJSON appends v to b as JSON: a STRUCT as an object with its
// members in t's order, a LIST as an array, a MAP as an object in entry
// order (keys as JSON strings). With a nil t (type unknown) a
// map[string]any is written with sorted keys. HTML characters stay as
// they are: URLs are full of '&'.
func (t *Type) EncodeJSON(b *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case map[string]any:
		var names []string
		if t != nil && t.IsStruct() {
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
		if t != nil && t.IsStruct() {
			if len(v) != len(t.Members) {
				return fmt.Errorf("STRUCT of %d members given %d values", len(t.Members), len(v))
			}
			b.WriteByte('{')
			for i, m := range t.Members {
				if i > 0 {
					b.WriteByte(',')
				}
				appendScalar(b, m.Name)
				b.WriteByte(':')
				if err := m.Type.EncodeJSON(b, v[i]); err != nil {
					return err
				}
			}
			b.WriteByte('}')
			return nil
		}
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
	case []Entry:
		b.WriteByte('{')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			k, ok := e.Key.(string)
			if !ok {
				var kb bytes.Buffer
				if err := appendScalar(&kb, e.Key); err != nil {
					return err
				}
				k = kb.String()
			}
			appendScalar(b, k)
			b.WriteByte(':')
			if err := t.elem().EncodeJSON(b, e.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		if t != nil && t.IsComposite() {
			return fmt.Errorf("want a composite value for %s, got %T", t, v)
		}
		if s, ok := v.([]byte); ok && t != nil && t.Base == "VARCHAR" {
			return appendScalar(b, string(s))
		}
		return appendScalar(b, v)
	}
	return nil
}

func (t *Type) member(i int) *Type {
	if t == nil || i >= len(t.Members) {
		return nil
	}
	return t.Members[i].Type
}

func (t *Type) elem() *Type {
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
