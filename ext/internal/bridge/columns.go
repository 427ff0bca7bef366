package bridge

import (
	"fmt"

	"github.com/urlnorm/urlnorm/udf"
)

// Varchar is the result type of udf's Text functions.
var Varchar = &udf.SQLType{Base: "VARCHAR"}

// ResultType is f's DuckDB result type: VARCHAR, or udf.RecordType (a
// STRUCT read from udf.Fields) for canonicalize_url.
func ResultType(f *udf.Func) *udf.SQLType {
	if f.Returns == udf.Canonical {
		return udf.RecordType
	}
	return Varchar
}

// CheckType reports whether Column can hold t: VARCHAR, LISTs and
// STRUCTs of them (all that udf.Fields uses today).
func CheckType(t *udf.SQLType) error {
	switch {
	case t.Elem != nil:
		return CheckType(t.Elem)
	case t.Members != nil:
		for _, m := range t.Members {
			if err := CheckType(m.Type); err != nil {
				return fmt.Errorf("%s: %w", m.Name, err)
			}
		}
		return nil
	case t.Base != "VARCHAR":
		return fmt.Errorf("type %s is not supported by the extension yet", t.Base)
	}
	return nil
}

// ListEntry has the layout of DuckDB's duckdb_list_entry.
type ListEntry struct {
	Offset, Length uint64
}

// Column holds one chunk of values of a type in the columnar shape of a
// DuckDB vector, so the cgo side can hand each VARCHAR vector to DuckDB in
// one call: Nulls has one flag per row at every level; a Varchar column
// keeps its values back to back in Buf, row i ending at Ends[i]; a Struct
// column has one child per member, each as long as the struct; a LIST
// column has one entry per row pointing into Elem. Only the types
// CheckType accepts.
type Column struct {
	Type     *udf.SQLType
	Nulls    []bool
	Buf      []byte
	Ends     []uint32
	Children []*Column
	Entries  []ListEntry
	Elem     *Column
}

// NewColumn returns an empty column of type t.
func NewColumn(t *udf.SQLType) *Column {
	c := &Column{Type: t}
	for _, m := range t.Members {
		c.Children = append(c.Children, NewColumn(m.Type))
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
	switch {
	case c.Type.Members != nil:
		for _, ch := range c.Children {
			ch.AppendNull()
		}
	case c.Type.Elem != nil:
		c.Entries = append(c.Entries, ListEntry{Offset: uint64(c.Elem.Len())})
	default:
		c.EndText(true)
		return
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
	switch {
	case c.Type.Members != nil:
		m, ok := v.(map[string]any)
		if !ok || len(m) != len(c.Type.Members) {
			return fmt.Errorf("want a map with the %d STRUCT members, got %T of %d", len(c.Type.Members), v, len(m))
		}
		for i, mem := range c.Type.Members {
			mv, ok := m[mem.Name]
			if !ok {
				return fmt.Errorf("STRUCT member %q missing", mem.Name)
			}
			if err := c.Children[i].Append(mv); err != nil {
				return fmt.Errorf("%s: %w", mem.Name, err)
			}
		}
	case c.Type.Elem != nil:
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
	default:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("want a string for VARCHAR, got %T", v)
		}
		c.Buf = append(c.Buf, s...)
		c.EndText(false)
		return nil
	}
	c.Nulls = append(c.Nulls, false)
	return nil
}
