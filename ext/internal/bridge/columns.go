package bridge

import (
	"fmt"
	"strings"

	"github.com/urlnorm/urlnorm/udf"
)

// Kind is the kind of a DuckDB logical type node.
type Kind int

const (
	Varchar Kind = iota // VARCHAR
	Struct              // STRUCT(name TYPE, …)
	List                // TYPE[]
)

// Type is a DuckDB logical type built from the type names in udf.Fields.
// Only the kinds canonicalize_url's record uses exist.
type Type struct {
	Kind   Kind
	Fields []Field // Struct
	Elem   *Type   // List
}

// Field is one member of a STRUCT.
type Field struct {
	Name string
	Type *Type
}

// RecordType is canonicalize_url's DuckDB result type, read from
// udf.Fields so the extension and the embedded adapter cannot disagree.
var RecordType = recordType()

func recordType() *Type {
	t := &Type{Kind: Struct}
	for _, f := range udf.Fields {
		ft, err := ParseType(f.Type)
		if err != nil {
			panic(fmt.Sprintf("bridge: udf.Fields %s: %v", f.Name, err))
		}
		t.Fields = append(t.Fields, Field{f.Name, ft})
	}
	return t
}

// ParseType parses a DuckDB type name: VARCHAR, T[] or
// STRUCT(name T, …), nested.
func ParseType(s string) (*Type, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "VARCHAR":
		return &Type{Kind: Varchar}, nil
	case strings.HasSuffix(s, "[]"):
		elem, err := ParseType(s[:len(s)-2])
		if err != nil {
			return nil, err
		}
		return &Type{Kind: List, Elem: elem}, nil
	case strings.HasPrefix(s, "STRUCT(") && strings.HasSuffix(s, ")"):
		t := &Type{Kind: Struct}
		for _, m := range splitTop(s[len("STRUCT(") : len(s)-1]) {
			name, typ, ok := strings.Cut(strings.TrimSpace(m), " ")
			if !ok {
				return nil, fmt.Errorf("struct member %q: want \"name TYPE\"", m)
			}
			ft, err := ParseType(typ)
			if err != nil {
				return nil, err
			}
			t.Fields = append(t.Fields, Field{name, ft})
		}
		return t, nil
	}
	return nil, fmt.Errorf("unsupported DuckDB type %q", s)
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

// ListEntry has the layout of DuckDB's duckdb_list_entry.
type ListEntry struct {
	Offset, Length uint64
}

// Column holds one chunk of values of a Type in the columnar shape of a
// DuckDB vector, so the cgo side can hand each VARCHAR vector to DuckDB in
// one call: Nulls has one flag per row at every level; a Varchar column
// keeps its values back to back in Buf, row i ending at Ends[i]; a Struct
// column has one child per field, each as long as the struct; a List
// column has one entry per row pointing into Elem.
type Column struct {
	Type     *Type
	Nulls    []bool
	Buf      []byte
	Ends     []uint32
	Children []*Column
	Entries  []ListEntry
	Elem     *Column
}

// NewColumn returns an empty column of type t.
func NewColumn(t *Type) *Column {
	c := &Column{Type: t}
	for _, f := range t.Fields {
		c.Children = append(c.Children, NewColumn(f.Type))
	}
	if t.Elem != nil {
		c.Elem = NewColumn(t.Elem)
	}
	return c
}

// Len is the number of rows.
func (c *Column) Len() int { return len(c.Nulls) }

// Reset empties the column, keeping its memory.
func (c *Column) Reset() {
	c.Nulls, c.Buf, c.Ends, c.Entries = c.Nulls[:0], c.Buf[:0], c.Ends[:0], c.Entries[:0]
	for _, ch := range c.Children {
		ch.Reset()
	}
	if c.Elem != nil {
		c.Elem.Reset()
	}
}

// EndText ends a Varchar row whose bytes the caller appended to Buf.
func (c *Column) EndText(null bool) {
	if null {
		c.Buf = c.Buf[:c.lastEnd()]
	}
	c.Ends = append(c.Ends, uint32(len(c.Buf)))
	c.Nulls = append(c.Nulls, null)
}

func (c *Column) lastEnd() int {
	if len(c.Ends) == 0 {
		return 0
	}
	return int(c.Ends[len(c.Ends)-1])
}

// AppendNull appends a NULL row (and NULL children, as DuckDB expects).
func (c *Column) AppendNull() {
	switch c.Type.Kind {
	case Varchar:
		c.EndText(true)
		return
	case Struct:
		for _, ch := range c.Children {
			ch.AppendNull()
		}
	case List:
		c.Entries = append(c.Entries, ListEntry{Offset: uint64(c.Elem.Len())})
	}
	c.Nulls = append(c.Nulls, true)
}

// Append appends one value in udf.Record's shapes: string, nil,
// map[string]any for a STRUCT (every field present, no others) and []any
// for a list.
func (c *Column) Append(v any) error {
	if v == nil {
		c.AppendNull()
		return nil
	}
	switch c.Type.Kind {
	case Varchar:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string for VARCHAR, got %T", v)
		}
		c.Buf = append(c.Buf, s...)
		c.EndText(false)
		return nil
	case Struct:
		m, ok := v.(map[string]any)
		if !ok || len(m) != len(c.Type.Fields) {
			return fmt.Errorf("want a map with the %d STRUCT fields, got %T of %d", len(c.Type.Fields), v, len(m))
		}
		for i, f := range c.Type.Fields {
			fv, ok := m[f.Name]
			if !ok {
				return fmt.Errorf("STRUCT field %q missing", f.Name)
			}
			if err := c.Children[i].Append(fv); err != nil {
				return fmt.Errorf("%s: %w", f.Name, err)
			}
		}
	case List:
		l, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want a []any for a list, got %T", v)
		}
		c.Entries = append(c.Entries, ListEntry{Offset: uint64(c.Elem.Len()), Length: uint64(len(l))})
		for _, e := range l {
			if err := c.Elem.Append(e); err != nil {
				return err
			}
		}
	}
	c.Nulls = append(c.Nulls, false)
	return nil
}

// String renders the type as DuckDB names it (without DuckDB's quoting of
// keywords).
func (t *Type) String() string {
	switch t.Kind {
	case List:
		return t.Elem.String() + "[]"
	case Struct:
		var fs []string
		for _, f := range t.Fields {
			fs = append(fs, f.Name+" "+f.Type.String())
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")"
	}
	return "VARCHAR"
}
